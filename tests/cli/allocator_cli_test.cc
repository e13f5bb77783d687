// The moonstack program's allocator gives freed memory back: jemalloc runs
// with host/jemalloc_conf.cc's options (a background thread returning freed
// pages after 1 s, one arena every thread shares), without which `serve`
// under create/delete churn held several times its live heap
// (bench/serve_churn.py).
#include <catch2/catch.hpp>

#include <string>

#include "test_util.h"

TEST_CASE("the moonstack program's jemalloc returns freed pages from a background thread", "[cli]") {
#ifdef MOONSTACK_JEMALLOC
  // stats_print is added to the program's own options, not instead of them.
  ms::test::CommandResult r =
      ms::test::RunCommand(std::string("MALLOC_CONF=stats_print:true ") + MOONSTACK_BINARY + " --help 2>&1");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("opt.background_thread: true") != std::string::npos);
  CHECK(r.out.find("opt.dirty_decay_ms: 1000 ") != std::string::npos);
  CHECK(r.out.find("opt.muzzy_decay_ms: 0 ") != std::string::npos);
  CHECK(r.out.find("opt.narenas: 1\n") != std::string::npos);  // one arena the threads share
#else
  SUCCEED("sanitizer and fuzzing builds keep their own allocator");
#endif
}
