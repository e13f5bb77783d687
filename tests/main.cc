// The test binary's main: Catch2's, run in a temporary directory of this
// process's own. Tests put their files under fs::temp_directory_path() with
// fixed names (moonstack_<suite>_<name>); with TMPDIR pointing at a fresh
// directory per process, two test runs at once (two checkouts, ctest -j)
// never share one. The directory is removed when the run ends.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

int main(int argc, char* argv[]) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("moonstack_tests_" + std::to_string(getpid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!ec) setenv("TMPDIR", dir.c_str(), 1);
  const int result = Catch::Session().run(argc, argv);
  if (!ec) fs::remove_all(dir, ec);
  return result;
}
