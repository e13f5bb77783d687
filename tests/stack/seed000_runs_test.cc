// Seed 000's runs and the tests that reproduce them (seed000_runs.tsv): every
// run 1-38 is listed exactly once, with a test that exists or a reason.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

TEST_CASE("seed 000: every run has a test or a reason", "[update]") {
  std::ifstream in(std::string(MOONSTACK_SOURCE_DIR) + "/tests/stack/seed000_runs.tsv");
  REQUIRE(in.good());
  std::set<std::string> tests;
  for (const Catch::TestCase& t : Catch::getAllTestCasesSorted(*Catch::getCurrentContext().getConfig())) {
    tests.insert(t.name);
  }
  std::map<int, std::string> runs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string run, test, note;
    std::getline(fields, run, '\t');
    std::getline(fields, test, '\t');
    std::getline(fields, note, '\t');
    INFO(line);
    const int n = std::stoi(run);
    CHECK(runs.count(n) == 0);
    runs[n] = test;
    if (test == "-") {
      CHECK_FALSE(note.empty());  // left out: the reason
    } else {
      CHECK(tests.count(test) == 1);
    }
  }
  CHECK(runs.size() == 38);
  CHECK(runs.begin()->first == 1);
  CHECK(runs.rbegin()->first == 38);
}
