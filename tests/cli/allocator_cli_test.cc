// The moonstack program's allocator: jemalloc with host/jemalloc_conf.cc's
// options — freed pages kept for reuse, never given back on its own (serve
// gives them back between operations: server/freed_memory.h), one arena
// every thread shares, transparent huge pages.
#include <catch2/catch.hpp>

#include <string>

#include "test_util.h"

TEST_CASE("the moonstack program's jemalloc keeps freed pages for reuse in one arena", "[cli]") {
#ifdef MOONSTACK_JEMALLOC
  // stats_print is added to the program's own options, not instead of them.
  ms::test::CommandResult r =
      ms::test::RunCommand(std::string("MALLOC_CONF=stats_print:true ") + MOONSTACK_BINARY + " --help 2>&1");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("opt.dirty_decay_ms: -1 ") != std::string::npos);
  CHECK(r.out.find("opt.muzzy_decay_ms: 0 ") != std::string::npos);
  CHECK(r.out.find("opt.narenas: 1\n") != std::string::npos);  // one arena the threads share
  CHECK(r.out.find("opt.thp: \"always\"") != std::string::npos);
#else
  SUCCEED("sanitizer and fuzzing builds keep their own allocator");
#endif
}
