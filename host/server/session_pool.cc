#include "server/session_pool.h"

namespace ms::server {

// A pooled session lent to one worker; back to the pool when the worker drops it.
class SessionPool::Lent : public ProviderSession {
 public:
  Lent(SessionPool* pool, Idle idle) : pool_(pool), s_(std::move(idle.session)), calls_(idle.calls) {}
  ~Lent() override { pool_->GiveBack(Idle{std::move(s_), calls_}); }

  void NextOperation() override { s_->NextOperation(); }
  const TypeSchema* Schema(std::string_view type) override { return s_->Schema(type); }
  Status Validate(std::string_view type, const HookContext& ctx, const Value& properties, Value* coerced) override {
    return s_->Validate(type, ctx, properties, coerced);
  }
  Status DecideUpdate(std::string_view type, std::string_view property, const Value& old_value,
                      const Value& new_value, const HookContext& ctx, UpdateBehavior* out) override {
    return s_->DecideUpdate(type, property, old_value, new_value, ctx, out);
  }
  HookOutcome Call(const HookCall& call) override {
    ++calls_;
    return s_->Call(call);
  }
  void TakeLog(std::vector<ProviderLogLine>* lines, int64_t* dropped) override { s_->TakeLog(lines, dropped); }
  bool ValueExists(std::string_view aws_type, std::string_view value, std::string_view region,
                   std::string_view account) override {
    return s_->ValueExists(aws_type, value, region, account);
  }
  bool SsmParameter(std::string_view name, std::string_view region, std::string_view account,
                    std::string* value) override {
    return s_->SsmParameter(name, region, account, value);
  }
  bool SecureSsmParameter(std::string_view name, std::string_view region, std::string_view account,
                          std::string* value) override {
    return s_->SecureSsmParameter(name, region, account, value);
  }
  bool SecretString(std::string_view secret_id, std::string_view version_stage, std::string_view version_id,
                    std::string_view region, std::string_view account, std::string* value,
                    std::string* error) override {
    return s_->SecretString(secret_id, version_stage, version_id, region, account, value, error);
  }
  bool S3Object(std::string_view bucket, std::string_view key, std::string_view account, std::string* body,
                std::string* error_code, std::string* error_message) override {
    return s_->S3Object(bucket, key, account, body, error_code, error_message);
  }
  bool S3BucketHasObjects(std::string_view bucket, std::string_view account) override {
    return s_->S3BucketHasObjects(bucket, account);
  }

 private:
  SessionPool* pool_;
  std::unique_ptr<ProviderSession> s_;
  uint64_t calls_;  // hooks the session has run, lent before included
};

Status SessionPool::Warm(size_t n) {
  for (size_t i = 0; i < n; ++i) {
    std::unique_ptr<ProviderSession> s;
    MS_RETURN_IF_ERROR(inner_->NewSession(&s));
    GiveBack(Idle{std::move(s), 0});
  }
  return Status::OK();
}

Status SessionPool::NewSession(std::unique_ptr<ProviderSession>* out) { return Lend(false, out); }

Status SessionPool::NewHookSession(std::unique_ptr<ProviderSession>* out) { return Lend(true, out); }

Status SessionPool::Lend(bool for_hooks, std::unique_ptr<ProviderSession>* out) {
  Idle idle;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      // Ties: the last given back.
      size_t pick = idle_.size() - 1;
      for (size_t i = idle_.size(); i-- > 0;) {
        if (for_hooks ? idle_[i].calls > idle_[pick].calls : idle_[i].calls < idle_[pick].calls) pick = i;
      }
      idle = std::move(idle_[pick]);
      idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(pick));
    }
  }
  if (idle.session == nullptr) {
    MS_RETURN_IF_ERROR(inner_->NewSession(&idle.session));
  } else {
    idle.session->NextOperation();  // a kept session: its providers' files may have changed since
  }
  *out = std::make_unique<Lent>(this, std::move(idle));
  return Status::OK();
}

void SessionPool::GiveBack(Idle idle) {
  // What a request's validation or planning printed and nobody took is not
  // the next operation's to log.
  std::vector<ProviderLogLine> untaken;
  int64_t dropped = 0;
  idle.session->TakeLog(&untaken, &dropped);
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < keep_) idle_.push_back(std::move(idle));
}

}  // namespace ms::server
