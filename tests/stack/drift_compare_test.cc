// CompareProperties (stack/drift_compare.h): expected (as deployed) against
// actual (a provider's read), as CloudFormation's drift detection compares.
#include <catch2/catch.hpp>

#include "stack/drift_compare.h"
#include "template/parse.h"

namespace {

ms::Value Json(const std::string& text) {
  ms::Value v;
  REQUIRE(ms::ParseJson(text, &v).ok());
  return v;
}

// "PATH TYPE expected|actual" per difference.
std::vector<std::string> Diffs(const std::string& expected, const std::string& actual,
                               const std::vector<ms::StackTag>& stack_tags = {}) {
  std::vector<std::string> out;
  for (const ms::PropertyDifference& d : ms::CompareProperties(Json(expected), Json(actual), stack_tags)) {
    out.push_back(d.path + " " + d.difference_type + " " + d.expected_value + "|" + d.actual_value);
  }
  return out;
}

}  // namespace

TEST_CASE("Drift compare: only the properties the template sets are checked") {
  CHECK(Diffs(R"({"A": "x"})", R"({"A": "x", "Default": 30})").empty());
  CHECK(Diffs(R"({"A": "x"})", R"({"A": "y"})") == std::vector<std::string>{"/A NOT_EQUAL x|y"});
  CHECK(Diffs(R"({"A": "x"})", R"({})") == std::vector<std::string>{"/A REMOVE x|"});
}

TEST_CASE("Drift compare: scalars compare by their text, JSON text by its document") {
  CHECK(Diffs(R"({"N": 5, "B": true})", R"({"N": "5", "B": "true"})").empty());
  CHECK(Diffs(R"({"P": {"a": [1, 2]}})", R"({"P": "{\"a\": [1, 2]}"})").empty());
  CHECK(Diffs(R"({"P": {"a": 1}})", R"({"P": "{\"a\": 2}"})") ==
        std::vector<std::string>{R"(/P NOT_EQUAL {"a":1}|{"a": 2})"});
}

TEST_CASE("Drift compare: tags are matched by Key in any order") {
  const std::string expected = R"({"Tags": [{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}]})";
  CHECK(Diffs(expected, R"({"Tags": [{"Key": "b", "Value": "2"}, {"Key": "a", "Value": "1"}]})").empty());
  CHECK(Diffs(expected, R"({"Tags": [{"Key": "b", "Value": "2"}, {"Key": "aws:cloudformation:stack-name",
                                       "Value": "s"}, {"Key": "a", "Value": "1"}]})").empty());
  CHECK(Diffs(expected, R"({"Tags": [{"Key": "b", "Value": "2"}, {"Key": "a", "Value": "9"}]})") ==
        std::vector<std::string>{"/Tags/0/Value NOT_EQUAL 1|9"});
  CHECK(Diffs(expected, R"({"Tags": [{"Key": "a", "Value": "1"}, {"Key": "c", "Value": "3"}]})") ==
        std::vector<std::string>{R"(/Tags/1 REMOVE {"Key":"b","Value":"2"}|)",
                                 R"(/Tags/1 ADD |{"Key":"c","Value":"3"})"});
}

TEST_CASE("Drift compare: nested maps and lists give ADD, REMOVE and NOT_EQUAL paths") {
  CHECK(Diffs(R"({"M": {"a": 1, "b": 2}})", R"({"M": {"a": 1, "c": 3}})") ==
        std::vector<std::string>{"/M/b REMOVE 2|", "/M/c ADD |3"});
  CHECK(Diffs(R"({"L": ["x", "y"]})", R"({"L": ["y", "x"]})").empty());
  CHECK(Diffs(R"({"L": ["x", "y"]})", R"({"L": ["x", "z", "w"]})") ==
        std::vector<std::string>{"/L/1 NOT_EQUAL y|z", "/L/2 ADD |w"});
  CHECK(Diffs(R"({"a/b": 1})", R"({"a/b": 2})") == std::vector<std::string>{"/a~1b NOT_EQUAL 1|2"});
}

TEST_CASE("Drift compare: the stack's tags on a resource are not drift, unless their value changed") {
  const std::vector<ms::StackTag> stack_tags = {{"team", "web"}};
  const std::string expected = R"({"Tags": [{"Key": "own", "Value": "1"}]})";
  CHECK(Diffs(expected, R"({"Tags": [{"Key": "own", "Value": "1"}, {"Key": "team", "Value": "web"}]})", stack_tags)
            .empty());
  // Without the stack's tags, the same read is an ADD (what a tag added out of band is).
  CHECK(Diffs(expected, R"({"Tags": [{"Key": "own", "Value": "1"}, {"Key": "team", "Value": "web"}]})") ==
        std::vector<std::string>{R"(/Tags/1 ADD |{"Key":"team","Value":"web"})"});
  // Changed out of band: no longer the stack's value.
  CHECK(Diffs(expected, R"({"Tags": [{"Key": "own", "Value": "1"}, {"Key": "team", "Value": "ops"}]})", stack_tags) ==
        std::vector<std::string>{R"(/Tags/1 ADD |{"Key":"team","Value":"ops"})"});
  // A tag the template sets itself is the template's, whatever the stack says.
  CHECK(Diffs(R"({"Tags": [{"Key": "team", "Value": "own"}]})", R"({"Tags": [{"Key": "team", "Value": "web"}]})",
              stack_tags) == std::vector<std::string>{"/Tags/0/Value NOT_EQUAL own|web"});
}
