// Corpus tests for the parsers: every good template parses, the JSON/YAML twins
// listed in MANIFEST.tsv parse to the same structure, and the bad templates
// whose error is a parse error fail with AWS's message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "template/parse.h"
#include "test_util.h"

namespace ms {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = std::string(MOONSTACK_SHARED_DIR) + "/corpus";

Status ParseFile(const std::string& path, Value* out) {
  return ParseTemplateText(test::ReadFile(path), out);
}

// The twins were written by hand, so scalars differ in type but not in text
// ("80" vs 80), JSON writes `"Fn::GetAZs": null` where YAML has `!GetAZs ''`,
// and GetAtt is a dotted string in one and a two-element list in the other.
// Normalizing all of that leaves only real structural differences.
Value Normalize(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      return Value::String("");
    case Value::Kind::kBool:
    case Value::Kind::kNumber:
    case Value::Kind::kString:
    case Value::Kind::kUnknown:
      return Value::String(v.scalar_text());
    case Value::Kind::kList: {
      Value::List items;
      for (const Value& item : v.list()) items.push_back(Normalize(item));
      return Value::MakeList(std::move(items));
    }
    case Value::Kind::kMap:
      break;
  }
  if (v.function_name() == "Fn::GetAtt" && v.map()[0].value.is_string()) {
    // "A.B.C" is resource A, attribute "B.C": split at the first dot.
    const std::string& s = v.map()[0].value.str();
    size_t dot = s.find('.');
    Value::List parts;
    parts.push_back(Value::String(s.substr(0, dot)));
    if (dot != std::string::npos) parts.push_back(Value::String(s.substr(dot + 1)));
    Value::Map m;
    m.push_back(Member{"Fn::GetAtt", Value::MakeList(std::move(parts))});
    return Value::MakeMap(std::move(m));
  }
  Value::Map members;
  for (const Member& m : v.map()) members.push_back(Member{m.key, Normalize(m.value)});
  return Value::MakeMap(std::move(members));
}

// Where two normalized values first differ, as a path, or "" if they are equal.
std::string FirstDifference(const Value& a, const Value& b, const std::string& path) {
  if (a.kind() != b.kind()) {
    return path + ": " + KindName(a.kind()) + " vs " + KindName(b.kind());
  }
  if (a.is_list()) {
    if (a.list().size() != b.list().size()) {
      return path + ": " + std::to_string(a.list().size()) + " vs " +
             std::to_string(b.list().size()) + " items";
    }
    for (size_t i = 0; i < a.list().size(); ++i) {
      std::string d = FirstDifference(a.list()[i], b.list()[i], path + "/" + std::to_string(i));
      if (!d.empty()) return d;
    }
    return "";
  }
  if (a.is_map()) {
    for (const Member& m : a.map()) {
      const Value* other = b.find(m.key);
      if (!other) return path + "/" + m.key + ": missing in the second";
      std::string d = FirstDifference(m.value, *other, path + "/" + m.key);
      if (!d.empty()) return d;
    }
    for (const Member& m : b.map()) {
      if (!a.find(m.key)) return path + "/" + m.key + ": missing in the first";
    }
    return "";
  }
  if (a != b) return path + ": " + a.ToJson() + " vs " + b.ToJson();
  return "";
}

std::vector<std::vector<std::string>> ReadManifest() {
  std::istringstream in(test::ReadFile(kCorpus + "/MANIFEST.tsv"));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, '\t')) cols.push_back(field);
    if (!cols.empty()) rows.push_back(std::move(cols));
  }
  return rows;
}

// Pairs of corpus-relative paths, each pair once, from notes saying
// "TWIN of <file name in the same directory>: ...".
std::set<std::pair<std::string, std::string>> TwinPairs() {
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& row : ReadManifest()) {
    const std::string& path = row[0];
    const std::string& notes = row.back();
    size_t at = notes.find("TWIN of ");
    if (path.rfind("good/", 0) != 0 || at == std::string::npos) continue;
    at += 8;
    std::string name = notes.substr(at, notes.find(':', at) - at);
    std::string twin = fs::path(path).parent_path().string() + "/" + name;
    pairs.insert(std::minmax(path, twin));
  }
  return pairs;
}

std::vector<std::string> TemplateFiles(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string ext = entry.path().extension().string();
    if (ext == ".json" || ext == ".yaml" || ext == ".yml" || ext == ".template") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST_CASE("JSON and YAML twins in the corpus parse to the same structure", "[twins][corpus]") {
  auto pairs = TwinPairs();
  CHECK(pairs.size() >= 9);
  for (const auto& [first, second] : pairs) {
    INFO(first << " <-> " << second);
    Value a, b;
    Status sa = ParseFile(kCorpus + "/" + first, &a);
    Status sb = ParseFile(kCorpus + "/" + second, &b);
    INFO(sa.message() << " | " << sb.message());
    REQUIRE(sa.ok());
    REQUIRE(sb.ok());
    CHECK(FirstDifference(Normalize(a), Normalize(b), "") == "");
  }
}

TEST_CASE("Twin normalization equates scalar types, null and GetAtt forms", "[twins]") {
  Value json = test::Doc(R"({"a": 80, "b": null, "c": {"Fn::GetAtt": ["Db", "Endpoint.Address"]},
                             "d": true})");
  Value yaml = test::Doc("a: '80'\nb: ''\nc: !GetAtt Db.Endpoint.Address\nd: 'true'\n");
  CHECK(FirstDifference(Normalize(json), Normalize(yaml), "") == "");
  Value other = test::Doc("a: '81'\nb: ''\nc: !GetAtt Db.Endpoint.Address\nd: 'true'\n");
  CHECK(FirstDifference(Normalize(json), Normalize(other), "") == "/a: \"80\" vs \"81\"");
}

TEST_CASE("Every template under corpus/good parses to a map", "[parse][corpus]") {
  auto files = TemplateFiles(kCorpus + "/good");
  CHECK(files.size() >= 50);
  for (const std::string& file : files) {
    INFO(file);
    Value v;
    Status s = ParseFile(file, &v);
    INFO(s.message());
    CHECK(s.ok());
    CHECK(v.is_map());
  }
}

TEST_CASE("Corpus templates with parse errors fail with AWS's message", "[parse][corpus]") {
  struct Case {
    const char* path;
    const char* message;
  };
  const Case cases[] = {
      {"bad/cfn-lint/bad/json_parse.json",
       "Template format error: JSON not well-formed. (line 5, column 12)"},
      {"bad/cfn-lint/bad/duplicate.json",
       "Template format error: JSON not well-formed. Duplicate key 'MySNSTopic' (line 17, column 3)"},
      {"bad/cfn-lint/bad/duplicate.yaml",
       "Template format error: YAML not well-formed. Duplicate key 'mySnsTopic' (line 9, column 3)"},
      {"bad/cfn-lint/bad/template.yaml",
       "Template format error: YAML not well-formed. (line 12, column 9)"},
      // cfn-lint reads any !X as Fn::X and flags it later; we reject unknown tags.
      {"bad/cfn-lint/bad/outputs/configuration.yaml",
       "Template format error: YAML not well-formed. Unknown tag !BadFunc (line 46, column 12)"},
  };
  for (const Case& c : cases) {
    INFO(c.path);
    Value v;
    CHECK(ParseFile(kCorpus + "/" + c.path, &v).message() == c.message);
  }
  // The other bad templates are bad in meaning, not in syntax.
  for (const std::string& file : TemplateFiles(kCorpus + "/bad")) {
    if (file.find("/_expected_cfnlint/") != std::string::npos) continue;
    bool parse_error = false;
    for (const Case& c : cases) parse_error |= file == kCorpus + "/" + c.path;
    if (parse_error) continue;
    INFO(file);
    Value v;
    Status s = ParseFile(file, &v);
    INFO(s.message());
    CHECK(s.ok());
  }
}

}  // namespace
}  // namespace ms
