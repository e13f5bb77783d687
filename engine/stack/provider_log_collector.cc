#include "stack/provider_log_collector.h"

namespace ms {

void ProviderLogCollector::Start(std::string stack_id, std::string stack_name, int64_t operation) {
  stack_id_ = std::move(stack_id);
  stack_name_ = std::move(stack_name);
  operation_ = operation;
}

void ProviderLogCollector::Collect(const std::string& logical_id, std::string_view function,
                                   const std::vector<ProviderLogLine>& lines, int64_t dropped,
                                   std::vector<ProviderLogRecord>* out) {
  dropped_ += dropped;
  for (const ProviderLogLine& line : lines) {
    if (kept_ >= kProviderLogMaxLines && !line.failure) {
      ++dropped_;
      continue;
    }
    ++kept_;
    ProviderLogRecord rec;
    rec.stack_id = stack_id_;
    rec.stack_name = stack_name_;
    rec.operation = operation_;
    rec.timestamp_ms = clock_->NowMs();
    rec.logical_id = line.logical_id.empty() ? logical_id : line.logical_id;
    rec.hook = line.function.empty() ? std::string(function) : line.function;
    rec.level = line.level;
    rec.message = line.message;
    if (rec.message.size() > kProviderLogMaxLineBytes) {  // cut at a UTF-8 character's start
      size_t cut = kProviderLogMaxLineBytes;
      while (cut > 0 && (static_cast<unsigned char>(rec.message[cut]) & 0xC0) == 0x80) --cut;
      rec.message.resize(cut);
      rec.message += " ...";
    }
    rec.detail = line.detail;
    if (observer_ != nullptr) observer_->OnProviderLog(rec);
    out->push_back(std::move(rec));
  }
}

void ProviderLogCollector::CollectSideLines(ProviderSession* session, std::vector<ProviderLogRecord>* out) {
  std::vector<ProviderLogLine> lines;
  int64_t dropped = 0;
  if (session != nullptr) session->TakeLog(&lines, &dropped);
  if (observer_ != nullptr) observer_->TakeLog(stack_id_, &lines);
  if (!lines.empty() || dropped != 0) Collect("", "", lines, dropped, out);
}

void ProviderLogCollector::RecordDropped(std::vector<ProviderLogRecord>* out) {
  if (dropped_ == 0) return;
  ProviderLogRecord rec;
  rec.stack_id = stack_id_;
  rec.stack_name = stack_name_;
  rec.operation = operation_;
  rec.timestamp_ms = clock_->NowMs();
  rec.level = LogLevel::kWarn;
  rec.message = "... " + std::to_string(dropped_) + " lines dropped";
  dropped_ = 0;
  if (observer_ != nullptr) observer_->OnProviderLog(rec);
  out->push_back(std::move(rec));
}

}  // namespace ms
