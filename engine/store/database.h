// Database: a thin SQLite connection (WAL mode) with prepared statements and
// transactions, returning Status instead of SQLite codes. The only file in
// the engine that includes sqlite3.h is database.cc.
//
// One Database per thread: a connection is not shared between threads
// (SQLITE_OPEN_NOMUTEX). Several connections on one file may write; they
// take turns (a busy timeout, database.cc). The one exception is the
// connection's own writer thread (FinishInBackground), which has the
// connection to itself while it runs: every method here, and Statement::Step,
// waits for it first.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ms {

class Database;

class Statement {
 public:
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based, as in SQLite.
  Statement& Bind(int index, std::string_view text);
  Statement& Bind(int index, int64_t n);
  // A BLOB parameter; `bytes` must stay valid until the next Step or Reset.
  Statement& BindBlob(int index, std::string_view bytes);
  // Runs one step: *row is true while a row is available. Errors name the SQL.
  Status Step(bool* row = nullptr);
  // Columns are 0-based.
  std::string Text(int column) const;
  int64_t Int(int column) const;
  int ColumnCount() const;  // of the statement's result rows
  // A BLOB column's bytes, valid until the next Step or Reset.
  std::string_view Blob(int column) const;
  void Reset();  // ready to bind and run again

 private:
  friend class Database;
  Statement(Database* owner, sqlite3* db, sqlite3_stmt* stmt) : owner_(owner), db_(db), stmt_(stmt) {}
  Database* owner_;
  sqlite3* db_;
  sqlite3_stmt* stmt_;
};

// The end of a write transaction running on a connection's writer thread
// (Database::FinishInBackground).
class PendingWrite {
 public:
  // Blocks until the transaction is committed or rolled back; its status.
  Status Wait();

 private:
  friend class Database;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  Status status_;
};

class Database {
 public:
  // Opens (creating it and its directory if needed) the database at `path`;
  // ":memory:" for a private in-memory one.
  static Status Open(const std::string& path, std::unique_ptr<Database>* out);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Status Exec(std::string_view sql);
  Status Prepare(std::string_view sql, std::unique_ptr<Statement>* out);
  // The connection's own prepared statement for `sql`, prepared on first use
  // and reset for reuse: for the statements every checkpoint runs. Valid
  // while the Database lives.
  Status Cached(std::string_view sql, Statement** out);
  // Runs fn inside BEGIN IMMEDIATE ... COMMIT; rolls back when fn fails.
  Status Transaction(const std::function<Status()>& fn);
  // A transaction in two parts: `begin` runs on the caller's thread inside
  // BEGIN IMMEDIATE (so it holds the write lock: what it takes is ordered
  // with every other connection's commits), then `finish` and the COMMIT
  // (ROLLBACK when it fails) run on this connection's writer thread, then
  // `ended` (may be null) with the outcome; the call returns at once, so the
  // caller's next work overlaps the write. Returns null, having written
  // nothing, when BEGIN or `begin` fails (*status says why). Until the write
  // is done every use of this Database waits for it.
  std::shared_ptr<PendingWrite> TransactionInBackground(const std::function<Status()>& begin,
                                                        std::function<Status()> finish,
                                                        std::function<void(const Status&)> ended, Status* status);
  // By default the commit that takes the write-ahead log past 1,000 pages
  // copies it into the database (a few ms for a big operation, on the path of
  // that commit). A server turns that off on its connections and calls
  // CheckpointWal between operations instead.
  Status DisableAutoCheckpoint() { return Exec("PRAGMA wal_autocheckpoint=0"); }
  // The log's size, in pages, past which a commit copies it into the database.
  Status SetAutoCheckpointPages(int pages) { return Exec("PRAGMA wal_autocheckpoint=" + std::to_string(pages)); }
  // Copies what it can of the log into the database without waiting for
  // other connections (SQLite's PASSIVE checkpoint).
  Status CheckpointWal() { return Exec("PRAGMA wal_checkpoint(PASSIVE)"); }
  // PRAGMA user_version: the schema version (store/schema.h).
  Status UserVersion(int* version);
  Status SetUserVersion(int version);

  const std::string& path() const { return path_; }

 private:
  friend class Statement;
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  Status Error(std::string_view what) const;
  // Blocks while the writer thread has the connection (not on that thread).
  void WaitForWriter();
  void WriterLoop();
  sqlite3* db_;
  std::string path_;
  std::map<std::string, std::unique_ptr<Statement>, std::less<>> cached_;  // finalized before db_ closes

  // The writer thread, started by the first TransactionInBackground.
  // writing_ is true from the hand-over until the COMMIT is done.
  std::mutex writer_mu_;
  std::condition_variable writer_cv_;
  std::atomic<bool> writing_{false};
  std::function<void()> writer_job_;
  bool writer_stop_ = false;
  std::thread writer_;
};

}  // namespace ms
