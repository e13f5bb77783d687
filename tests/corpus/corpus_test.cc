// Every template of ../shared/corpus: good ones validate, bad ones are rejected
// with the error recorded for them.
//
// tests/corpus/needs_context.tsv lists the good templates that need something
// moonstack does not do (or are not valid CloudFormation), with the error they
// get; tests/corpus/bad_expected.tsv gives, for each bad template, the error
// moonstack must report, or DEPLOY-TIME for the few that AWS also accepts at
// validation and rejects only when the resource is created.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "eval/validate.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

const std::string kCorpus = std::string(MOONSTACK_SHARED_DIR) + "/corpus/";

// path (relative to the corpus) -> column 2 of a tab-separated data file.
std::map<std::string, std::string> ReadTable(const std::string& name) {
  std::map<std::string, std::string> table;
  std::ifstream in(std::string(MOONSTACK_SOURCE_DIR) + "/tests/corpus/" + name);
  REQUIRE(in.good());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string path, expected;
    std::getline(fields, path, '\t');
    std::getline(fields, expected, '\t');
    table[path] = expected;
  }
  return table;
}

std::vector<std::string> TemplatesUnder(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(kCorpus + dir)) {
    if (!e.is_regular_file()) continue;
    std::string rel = fs::relative(e.path(), kCorpus).string();
    if (rel.find("_expected_cfnlint") != std::string::npos) continue;
    out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Validate(const std::string& rel) {
  ms::Template t;
  ms::TemplateSummary summary;
  ms::Status s = ms::ValidateTemplate(ms::test::ReadFile(kCorpus + rel), &t, &summary);
  return s.ok() ? "OK" : s.message();
}

}  // namespace

TEST_CASE("every good corpus template validates", "[corpus]") {
  auto needs_context = ReadTable("needs_context.tsv");
  std::vector<std::string> files = TemplatesUnder("good");
  REQUIRE(files.size() > 50);
  for (const std::string& rel : files) {
    INFO(rel);
    std::string result = Validate(rel);
    auto it = needs_context.find(rel);
    if (it == needs_context.end()) {
      CHECK(result == "OK");
    } else {
      CHECK(result == it->second);
    }
  }
}

TEST_CASE("every bad corpus template is rejected with its error", "[corpus]") {
  auto expected = ReadTable("bad_expected.tsv");
  std::vector<std::string> files = TemplatesUnder("bad");
  REQUIRE(files.size() > 30);
  for (const std::string& rel : files) {
    INFO(rel);
    std::string result = Validate(rel);
    auto it = expected.find(rel);
    REQUIRE(it != expected.end());
    if (it->second.rfind("DEPLOY-TIME:", 0) == 0) {
      CHECK(result == "OK");  // AWS's validate-template accepts it too
    } else {
      CHECK(result == it->second);
    }
  }
}

TEST_CASE("the data files name only corpus templates that exist", "[corpus]") {
  for (const char* table : {"needs_context.tsv", "bad_expected.tsv"}) {
    for (const auto& [path, _] : ReadTable(table)) {
      INFO(table << ": " << path);
      CHECK(fs::exists(kCorpus + path));
    }
  }
}
