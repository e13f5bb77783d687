#include "store/wal_checkpointer.h"

#include <chrono>
#include <utility>

#include "store/database.h"

namespace ms {

WalCheckpointer::WalCheckpointer(std::string path, int interval_ms)
    : path_(std::move(path)), interval_ms_(interval_ms), thread_([this] { Loop(); }) {}

WalCheckpointer::~WalCheckpointer() { Stop(); }

void WalCheckpointer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int WalCheckpointer::runs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return runs_;
}

void WalCheckpointer::Loop() {
  std::unique_ptr<Database> db;  // opened at the first run: a short command never opens it
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stop_; })) {
    lock.unlock();
    if (db == nullptr && !Database::Open(path_, &db).ok()) db.reset();
    // A failure (the log busy, the file gone) is retried at the next run;
    // the owner's close checkpoints whatever is left.
    const bool ran = db != nullptr && db->CheckpointWal().ok();
    lock.lock();
    if (ran) ++runs_;
  }
}

}  // namespace ms
