// FreedMemoryReturner: gives the memory `moonstack serve` has freed back to
// the system once a second, but never while an operation runs.
//
// Why not jemalloc's own decay (host/jemalloc_conf.cc): it returns freed
// pages a little at a time from the moment they are freed, so a wide
// operation kept returning the memory it had just freed (the JSON of one
// checkpoint, the parse of its template) and faulting it back in as fresh,
// zeroed pages for the next: 10,000 security groups took 3,130 page faults
// with a 1 s decay, 1,125 without. Between operations the same pages are
// returned at once, so a server at rest holds its live heap, as before.
//
// Without jemalloc (sanitizer builds) it does nothing.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace ms::server {

class FreedMemoryReturner {
 public:
  // `busy` says whether an operation runs now (asked from the thread).
  explicit FreedMemoryReturner(std::function<bool()> busy);
  ~FreedMemoryReturner();  // stops the thread
  FreedMemoryReturner(const FreedMemoryReturner&) = delete;
  FreedMemoryReturner& operator=(const FreedMemoryReturner&) = delete;

  // Whether the program's allocator can give memory back on demand (jemalloc).
  static bool Available();
  // Gives every page freed so far back to the system now.
  static void ReturnNow();

 private:
  void Loop();

  std::function<bool()> busy_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ms::server
