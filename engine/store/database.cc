#include "store/database.h"

#include <sqlite3.h>

#include <filesystem>

#include "base/thread_name.h"

namespace ms {

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::Bind(int index, std::string_view text) {
  sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::BindBlob(int index, std::string_view bytes) {
  // SQLITE_STATIC: the caller's bytes stay put until the step (a chunk of an
  // object's body is not copied once more).
  sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_STATIC);
  return *this;
}

Statement& Statement::Bind(int index, int64_t n) {
  sqlite3_bind_int64(stmt_, index, n);
  return *this;
}

Status Statement::Step(bool* row) {
  owner_->WaitForWriter();
  int rc = sqlite3_step(stmt_);
  if (row) *row = rc == SQLITE_ROW;
  if (rc == SQLITE_ROW || rc == SQLITE_DONE) return Status::OK();
  return Status::Internal(std::string("store: ") + sqlite3_errmsg(db_) + " in: " + sqlite3_sql(stmt_));
}

std::string Statement::Text(int column) const {
  const unsigned char* p = sqlite3_column_text(stmt_, column);
  int n = sqlite3_column_bytes(stmt_, column);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

std::string_view Statement::Blob(int column) const {
  const void* p = sqlite3_column_blob(stmt_, column);
  const int n = sqlite3_column_bytes(stmt_, column);
  return p ? std::string_view(static_cast<const char*>(p), static_cast<size_t>(n)) : std::string_view();
}

int64_t Statement::Int(int column) const { return sqlite3_column_int64(stmt_, column); }

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int Statement::ColumnCount() const { return sqlite3_column_count(stmt_); }

Status Database::Open(const std::string& path, std::unique_ptr<Database>* out) {
  if (path != ":memory:") {
    std::error_code ec;
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) return Status::Internal("store: cannot create " + parent.string() + ": " + ec.message());
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Status::Internal("store: cannot open " + path + ": " + message);
  }
  std::unique_ptr<Database> d(new Database(db, path));
  // Another connection may hold the write lock for a moment — a second
  // `moonstack` command, or in `moonstack serve` another operation's thread
  // or the request thread committing: wait rather than fail. Writers hold it
  // for one checkpoint's transaction (BEGIN IMMEDIATE, so the busy handler
  // applies: no read-to-write upgrade that SQLite would refuse at once), and
  // WAL lets readers go on meanwhile; 30 s covers a busy server's queue.
  sqlite3_busy_timeout(db, 30000);
  // 16 MiB of page cache per connection: a 10,000-resource stack's whole
  // store is ~15 MB (bench_stack; 64 MiB ran no faster). The cache is per
  // connection and fills as the state file grows: `serve` has one per
  // worker and one for requests, and at 64 MiB each held ~300 MB after a
  // few hundred MB of stacks.
  MS_RETURN_IF_ERROR(d->Exec(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-16384;"));
  *out = std::move(d);
  return Status::OK();
}

Database::~Database() {
  if (writer_.joinable()) {
    WaitForWriter();
    {
      std::lock_guard<std::mutex> lk(writer_mu_);
      writer_stop_ = true;
    }
    writer_cv_.notify_all();
    writer_.join();
  }
  cached_.clear();
  sqlite3_close(db_);
}

Status Database::Error(std::string_view what) const {
  return Status::Internal("store: " + std::string(sqlite3_errmsg(db_)) + " in: " + std::string(what));
}

Status Database::Exec(std::string_view sql) {
  WaitForWriter();
  std::string text(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string message = err ? err : "unknown error";
    sqlite3_free(err);
    return Status::Internal("store: " + message + " in: " + text);
  }
  return Status::OK();
}

Status Database::Prepare(std::string_view sql, std::unique_ptr<Statement>* out) {
  WaitForWriter();
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK) {
    return Error(sql);
  }
  out->reset(new Statement(this, db_, stmt));
  return Status::OK();
}

Status Database::Cached(std::string_view sql, Statement** out) {
  WaitForWriter();
  auto it = cached_.find(sql);
  if (it == cached_.end()) {
    std::unique_ptr<Statement> st;
    MS_RETURN_IF_ERROR(Prepare(sql, &st));
    it = cached_.emplace(std::string(sql), std::move(st)).first;
  } else {
    it->second->Reset();  // a step that failed may have left it mid-run
  }
  *out = it->second.get();
  return Status::OK();
}

Status Database::Transaction(const std::function<Status()>& fn) {
  MS_RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  Status s = fn();
  if (!s.ok()) {
    Exec("ROLLBACK");
    return s;
  }
  return Exec("COMMIT");
}

std::shared_ptr<PendingWrite> Database::TransactionInBackground(const std::function<Status()>& begin,
                                                                std::function<Status()> finish,
                                                                std::function<void(const Status&)> ended,
                                                                Status* status) {
  *status = Exec("BEGIN IMMEDIATE");
  if (!status->ok()) return nullptr;
  *status = begin();
  if (!status->ok()) {
    Exec("ROLLBACK");
    return nullptr;
  }
  auto pending = std::make_shared<PendingWrite>();
  {
    std::lock_guard<std::mutex> lk(writer_mu_);
    if (!writer_.joinable()) writer_ = std::thread([this] {
      NameThisThread("ms-db-writer");
      WriterLoop();
    });
    writing_.store(true, std::memory_order_release);
    writer_job_ = [this, pending, finish = std::move(finish), ended = std::move(ended)] {
      Status s = finish();
      if (s.ok()) {
        s = Exec("COMMIT");
      } else {
        Exec("ROLLBACK");
      }
      if (ended) ended(s);
      std::lock_guard<std::mutex> lk(pending->mu_);
      pending->status_ = s;
      pending->done_ = true;
      pending->cv_.notify_all();
    };
  }
  writer_cv_.notify_all();
  return pending;
}

void Database::WriterLoop() {
  std::unique_lock<std::mutex> lk(writer_mu_);
  for (;;) {
    writer_cv_.wait(lk, [this] { return writer_stop_ || writer_job_; });
    if (!writer_job_) return;  // stopping, nothing left to write
    std::function<void()> job = std::move(writer_job_);
    writer_job_ = nullptr;
    lk.unlock();
    job();
    lk.lock();
    writing_.store(false, std::memory_order_release);
    writer_cv_.notify_all();
  }
}

void Database::WaitForWriter() {
  if (!writing_.load(std::memory_order_acquire)) return;
  if (std::this_thread::get_id() == writer_.get_id()) return;  // the writer's own statements
  std::unique_lock<std::mutex> lk(writer_mu_);
  writer_cv_.wait(lk, [this] { return !writing_.load(std::memory_order_acquire); });
}

Status PendingWrite::Wait() {
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [this] { return done_; });
  return status_;
}

Status Database::UserVersion(int* version) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(Prepare("PRAGMA user_version", &st));
  bool row = false;
  MS_RETURN_IF_ERROR(st->Step(&row));
  *version = row ? static_cast<int>(st->Int(0)) : 0;
  return Status::OK();
}

Status Database::SetUserVersion(int version) {
  return Exec("PRAGMA user_version = " + std::to_string(version));
}

}  // namespace ms
