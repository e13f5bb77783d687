// Tests for the template text parsers: ParseJson, ParseYaml, ParseTemplateText.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "template/parse.h"
#include "test_util.h"

namespace ms {
namespace {

Value Json(const std::string& text) {
  Value v;
  Status s = ParseJson(text, &v);
  INFO(text);
  INFO(s.message());
  REQUIRE(s.ok());
  return v;
}

std::string JsonError(const std::string& text) {
  Value v;
  Status s = ParseJson(text, &v);
  INFO(text);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == Status::Code::kValidation);
  return s.message();
}

Value Yaml(const std::string& text) {
  Value v;
  Status s = ParseYaml(text, &v);
  INFO(text);
  INFO(s.message());
  REQUIRE(s.ok());
  return v;
}

std::string YamlError(const std::string& text) {
  Value v;
  Status s = ParseYaml(text, &v);
  INFO(text);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == Status::Code::kValidation);
  return s.message();
}

std::string JsonMsg(int line, int column, const std::string& detail = "") {
  return "Template format error: JSON not well-formed." + (detail.empty() ? "" : " " + detail) +
         " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
}

std::string YamlMsg(int line, int column, const std::string& detail = "") {
  return "Template format error: YAML not well-formed." + (detail.empty() ? "" : " " + detail) +
         " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
}

Value Str(const std::string& s) { return Value::String(s); }
Value Num(const std::string& s) { return Value::Number(s); }

Value Fn(const std::string& key, Value arg) {
  Value::Map m;
  m.push_back(Member{key, std::move(arg)});
  return Value::MakeMap(std::move(m));
}

Value List(std::vector<Value> items) { return Value::MakeList(std::move(items)); }

void CheckPos(const Value& v, uint32_t line, uint32_t column) {
  INFO(v.ToJson());
  CHECK(v.pos().line == line);
  CHECK(v.pos().column == column);
}

// ---------------------------------------------------------------- JSON

TEST_CASE("JSON values keep their kinds and number text", "[parse][json]") {
  Value v = Json(R"({"s": "x", "n": 1.10, "i": -0, "e": 1E+5, "t": true, "f": false,
                     "z": null, "l": [], "m": {}})");
  REQUIRE(v.is_map());
  REQUIRE(v.map().size() == 9);
  CHECK(*v.find("s") == Str("x"));
  CHECK(v.find("n")->is_number());
  CHECK(v.find("n")->str() == "1.10");
  CHECK(v.find("i")->str() == "-0");
  CHECK(v.find("e")->str() == "1E+5");
  CHECK(*v.find("t") == Value::Bool(true));
  CHECK(*v.find("f") == Value::Bool(false));
  CHECK(v.find("z")->is_null());
  CHECK(*v.find("l") == List({}));
  CHECK(v.find("m")->is_map());
  // Document order is kept.
  CHECK(v.map()[0].key == "s");
  CHECK(v.map()[8].key == "m");
}

TEST_CASE("JSON records 1-based line and column of every node", "[parse][json]") {
  Value v = Json("{\n  \"a\": [1, {\"b\": true}],\n\t\"c\": \"x\"\n}");
  CheckPos(v, 1, 1);
  const Value& a = *v.find("a");
  CheckPos(a, 2, 8);
  CheckPos(a.list()[0], 2, 9);
  CheckPos(a.list()[1], 2, 12);
  CheckPos(*a.list()[1].find("b"), 2, 18);
  CheckPos(*v.find("c"), 3, 7);
  // CRLF line ends count once.
  Value w = Json("{\r\n\"a\":\r\n 5}");
  CheckPos(*w.find("a"), 3, 2);
}

TEST_CASE("JSON string escapes, including surrogate pairs, become UTF-8", "[parse][json]") {
  Value v = Json(R"(["\"\\\/\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "a\u0000b", "é€😀"])");
  const Value::List& l = v.list();
  CHECK(l[0].str() == "\"\\/\b\f\n\r\t");
  CHECK(l[1].str() == "\xC3\xA9\xE2\x82\xAC");
  CHECK(l[2].str() == "\xF0\x9F\x98\x80");
  CHECK(l[3].str() == std::string("a\0b", 3));
  CHECK(l[4].str() == "é€😀");
}

TEST_CASE("JSON rejects broken escapes and unpaired surrogates", "[parse][json]") {
  CHECK(JsonError(R"(["\x"])") == JsonMsg(1, 5));
  CHECK(JsonError(R"(["\u12G4"])") == JsonMsg(1, 8));
  CHECK(JsonError(R"(["\ud83d"])") == JsonMsg(1, 4));       // high surrogate alone
  CHECK(JsonError(R"(["\ud83dx"])") == JsonMsg(1, 4));
  CHECK(JsonError(R"(["\ude00"])") == JsonMsg(1, 4));       // low surrogate alone
  CHECK(JsonError(R"(["\ud83d\u0041"])") == JsonMsg(1, 10)); // not a low surrogate
}

TEST_CASE("JSON syntax errors use AWS's wording and position", "[parse][json]") {
  // The message AWS returned for this very input (localstack's recorded test).
  CHECK(JsonError(R"({"this is invalid JSON"="bobbins"})") == JsonMsg(1, 25));
  CHECK(JsonError("") == JsonMsg(1, 1));
  CHECK(JsonError("  \n ") == JsonMsg(2, 2));
  CHECK(JsonError("{} x") == JsonMsg(1, 5));            // trailing garbage
  CHECK(JsonError("{}{}") == JsonMsg(1, 4));
  CHECK(JsonError(R"({"a": 1,})") == JsonMsg(1, 10));   // trailing comma
  CHECK(JsonError("[1,]") == JsonMsg(1, 5));
  CHECK(JsonError(R"({"a": 1)") == JsonMsg(1, 8));      // end of input
  CHECK(JsonError(R"({"a)") == JsonMsg(1, 4));          // unterminated string
  CHECK(JsonError(R"({"a": 01})") == JsonMsg(1, 9));    // leading zero
  CHECK(JsonError(R"({"a": 1.})") == JsonMsg(1, 10));
  CHECK(JsonError(R"({"a": -})") == JsonMsg(1, 9));
  CHECK(JsonError(R"({"a": .5})") == JsonMsg(1, 8));
  CHECK(JsonError(R"({"a": 1e})") == JsonMsg(1, 10));
  CHECK(JsonError(R"({"a": tru})") == JsonMsg(1, 11));
  CHECK(JsonError(R"({"a": nul)") == JsonMsg(1, 10));
  CHECK(JsonError(R"({'a': 1})") == JsonMsg(1, 3));     // single quotes
  CHECK(JsonError(R"({a: 1})") == JsonMsg(1, 3));
  CHECK(JsonError("{\"a\": \"x\ny\"}") == JsonMsg(1, 10)); // raw newline in a string
  CHECK(JsonError("{\"a\": \"x\ty\"}") == JsonMsg(1, 10)); // raw tab in a string
  CHECK(JsonError("{\"a\": \"\xFF\"}") == JsonMsg(1, 9));  // invalid UTF-8
  CHECK(JsonError("{\"a\": \"\xC0\xAF\"}") == JsonMsg(1, 9)); // overlong encoding
  CHECK(JsonError("{\n  \"a\": 1,\n  \"b\" 2\n}") == JsonMsg(3, 8));
  CHECK(JsonError("{\"a\": 1} // comment") == JsonMsg(1, 11));
}

TEST_CASE("JSON rejects duplicate keys, at the second occurrence", "[parse][json]") {
  CHECK(JsonError(R"({"a": 1, "b": 2, "a": 3})") == JsonMsg(1, 18, "Duplicate key 'a'"));
  CHECK(JsonError("{\"R\": {\n  \"x\": {\"T\": 1},\n  \"x\": {}\n}}") ==
        JsonMsg(3, 3, "Duplicate key 'x'"));
  // Deeply nested, and found before a later syntax error.
  CHECK(JsonError(R"({"a": [{"b": {"c": 1, "c": 2}}]} oops)") ==
        JsonMsg(1, 23, "Duplicate key 'c'"));
  // Escapes are decoded before comparing.
  CHECK(JsonError(R"({"ab": 1, "a\u0062": 2})") == JsonMsg(1, 11, "Duplicate key 'ab'"));
  // The same key in sibling maps is fine.
  Value v = Json(R"({"a": {"x": 1}, "b": {"x": 2}})");
  CHECK(v.map().size() == 2);
}

TEST_CASE("JSON duplicate detection works in large maps", "[parse][json]") {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",";
  Value v = Json(text.substr(0, text.size() - 1) + "}");
  CHECK(v.map().size() == 100);
  CHECK(JsonError(text + "\"k7\": 0}") == JsonMsg(1, static_cast<int>(text.size()) + 1,
                                                  "Duplicate key 'k7'"));
}

std::string Nested(int depth, const std::string& open, const std::string& close) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += open;
  s += "1";
  for (int i = 0; i < depth; ++i) s += close;
  return s;
}

TEST_CASE("JSON nesting is limited to 512 levels", "[parse][json]") {
  Value v = Json(Nested(512, "[", "]"));
  CHECK(v.is_list());
  CHECK(JsonError(Nested(513, "[", "]")) == JsonMsg(1, 513, "Nesting deeper than 512 levels"));
  std::string objects = Nested(513, "{\"a\":", "}");
  CHECK(JsonError(objects).find("Nesting deeper than 512 levels") != std::string::npos);
  // Far beyond the limit: an error, not a stack overflow.
  CHECK(JsonError(std::string(1000000, '[')) == JsonMsg(1, 513, "Nesting deeper than 512 levels"));
}

TEST_CASE("JSON skips a UTF-8 byte order mark", "[parse][json]") {
  Value v = Json("\xEF\xBB\xBF{\"a\": 1}");
  CheckPos(*v.find("a"), 1, 7);
}

TEST_CASE("JSON parses any top-level value", "[parse][json]") {
  CHECK(Json("  [1, \"x\"] ") == List({Num("1"), Str("x")}));
  CHECK(Json("\"x\"") == Str("x"));
  CHECK(Json("null").is_null());
}

// A template of 10,000 resources parses correctly (speed: bench/bench_template).
TEST_CASE("JSON parses a 10,000-resource template", "[parse][json]") {
  std::string text = "{\"AWSTemplateFormatVersion\": \"2010-09-09\", \"Resources\": {\n";
  for (int i = 0; i < 10000; ++i) {
    if (i) text += ",\n";
    std::string id = std::to_string(i);
    text += "  \"Topic" + id + "\": {\"Type\": \"AWS::SNS::Topic\", \"Properties\": {\"TopicName\": "
            "{\"Fn::Sub\": \"topic-" + id + "-${AWS::Region}\"}, \"Tags\": [{\"Key\": \"n\", "
            "\"Value\": {\"Fn::GetAtt\": [\"Queue" + id + "\", \"Arn\"]}}], \"Size\": " + id +
            ".50}, \"DependsOn\": [\"A\", \"B\"]}";
  }
  text += "\n}}";
  Value v = Json(text);
  CHECK(v.find("Resources")->map().size() == 10000);
  CheckPos(*v.find("Resources")->find("Topic9999"), 10001, 16);
}

// ---------------------------------------------------------------- YAML

TEST_CASE("YAML plain scalars follow the core schema, dates and Yes stay strings", "[parse][yaml]") {
  Value v = Yaml(
      "version: 2010-09-09\n"
      "yes: Yes\nno: No\non: on\noff: off\ny: y\n"
      "t1: true\nt2: True\nt3: TRUE\nf1: false\nf2: False\nf3: FALSE\n"
      "n1: null\nn2: Null\nn3: NULL\nn4: ~\nn5:\n"
      "i: 42\nneg: -5\nf: 1.10\nexp: 1e3\nzero: 0\n"
      "account: 012345678901\nhex: 0x1F\noct: 0o17\nplus: +1\ndot: .5\ninf: .inf\nnan: .NaN\n"
      "q1: 'true'\nq2: \"123\"\nq3: ''\nq4: 'null'\n");
  auto get = [&](const char* k) {
    const Value* p = v.find(k);
    INFO(k);
    REQUIRE(p);
    return *p;
  };
  CHECK(get("version") == Str("2010-09-09"));
  for (const char* k : {"yes", "no", "on", "off", "y"}) {
    INFO(k);
    CHECK(get(k).is_string());
  }
  CHECK(get("yes") == Str("Yes"));
  for (const char* k : {"t1", "t2", "t3"}) CHECK(get(k) == Value::Bool(true));
  for (const char* k : {"f1", "f2", "f3"}) CHECK(get(k) == Value::Bool(false));
  for (const char* k : {"n1", "n2", "n3", "n4", "n5"}) CHECK(get(k).is_null());
  CHECK(get("i") == Num("42"));
  CHECK(get("neg") == Num("-5"));
  CHECK(get("f") == Num("1.10"));
  CHECK(get("exp") == Num("1e3"));
  CHECK(get("zero") == Num("0"));
  CHECK(get("account") == Str("012345678901"));
  CHECK(get("hex") == Str("0x1F"));
  CHECK(get("oct") == Str("0o17"));
  CHECK(get("plus") == Str("+1"));
  CHECK(get("dot") == Str(".5"));
  CHECK(get("inf") == Str(".inf"));
  CHECK(get("nan") == Str(".NaN"));
  CHECK(get("q1") == Str("true"));
  CHECK(get("q2") == Str("123"));
  CHECK(get("q3") == Str(""));
  CHECK(get("q4") == Str("null"));
}

TEST_CASE("YAML block scalars and multi-line strings", "[parse][yaml]") {
  Value v = Yaml("a: |\n  line1\n  line2\nb: >-\n  folded\n  text\nc: \"x\\ty\"\n");
  CHECK(*v.find("a") == Str("line1\nline2\n"));
  CHECK(*v.find("b") == Str("folded text"));
  CHECK(*v.find("c") == Str("x\ty"));
}

TEST_CASE("YAML short-form tags become long-form intrinsic maps", "[parse][yaml]") {
  CHECK(Yaml("!Ref X") == Fn("Ref", Str("X")));
  CHECK(Yaml("!Condition C") == Fn("Condition", Str("C")));
  const char* functions[] = {"Sub", "Join", "If", "Equals", "And", "Or", "Not", "FindInMap",
                             "Select", "Split", "GetAZs", "Base64", "Cidr", "ImportValue",
                             "Transform", "Length", "ToJsonString", "GetAtt", "Contains",
                             "EachMemberEquals", "EachMemberIn", "RefAll", "ValueOf",
                             "ValueOfAll", "GetStackOutput"};
  for (const char* f : functions) {
    INFO(f);
    std::string name = f;
    CHECK(Yaml("!" + name + " x") == Fn("Fn::" + name, Str("x")));
    CHECK(Yaml("!" + name + " [a, 1]") == Fn("Fn::" + name, List({Str("a"), Num("1")})));
    CHECK(Yaml("!" + name + " {k: v}") == Fn("Fn::" + name, Yaml("{k: v}")));
  }
}

TEST_CASE("YAML tagged scalars are strings, whatever they look like", "[parse][yaml]") {
  CHECK(Yaml("!Ref 123") == Fn("Ref", Str("123")));
  CHECK(Yaml("!Sub true") == Fn("Fn::Sub", Str("true")));
  CHECK(Yaml("!Ref null") == Fn("Ref", Str("null")));
  CHECK(Yaml("!GetAZs ''") == Fn("Fn::GetAZs", Str("")));
  CHECK(Yaml("a: !GetAZs\nb: 1") == Yaml("a: {Fn::GetAZs: ''}\nb: 1"));
  CHECK(Yaml("[!GetAZs ]") == List({Fn("Fn::GetAZs", Str(""))}));
}

TEST_CASE("YAML !GetAtt keeps a dotted string, and a sequence as a list", "[parse][yaml]") {
  CHECK(Yaml("!GetAtt A.B") == Fn("Fn::GetAtt", Str("A.B")));
  CHECK(Yaml("!GetAtt Db.Endpoint.Address") == Fn("Fn::GetAtt", Str("Db.Endpoint.Address")));
  CHECK(Yaml("!GetAtt [Db, Endpoint.Address]") ==
        Fn("Fn::GetAtt", List({Str("Db"), Str("Endpoint.Address")})));
  CHECK(Yaml("!GetAtt\n  - A\n  - B\n") == Fn("Fn::GetAtt", List({Str("A"), Str("B")})));
}

TEST_CASE("YAML nested short-form tags", "[parse][yaml]") {
  CHECK(Yaml("!Join ['', [!Ref A, !GetAtt B.C]]") ==
        Fn("Fn::Join", List({Str(""), List({Fn("Ref", Str("A")), Fn("Fn::GetAtt", Str("B.C"))})})));
  CHECK(Yaml("!Select [0, !GetAZs {Ref: 'AWS::Region'}]") ==
        Fn("Fn::Select", List({Num("0"), Fn("Fn::GetAZs", Fn("Ref", Str("AWS::Region")))})));
  // YAML allows one tag per node, so short forms cannot be stacked directly.
  CHECK(YamlError("!GetAZs !Ref AWS::Region") == YamlMsg(1, 9));
  Value v = Yaml(
      "Value: !If\n"
      "  - IsProd\n"
      "  - !Sub\n"
      "    - '${A}-${B}'\n"
      "    - B: !Ref B\n"
      "  - !Ref AWS::NoValue\n");
  CHECK(v == Json(R"({"Value": {"Fn::If": ["IsProd",
                      {"Fn::Sub": ["${A}-${B}", {"B": {"Ref": "B"}}]},
                      {"Ref": "AWS::NoValue"}]}})"));
}

TEST_CASE("YAML tags give positions to the wrapper and the argument", "[parse][yaml]") {
  Value v = Yaml("A:\n  B: !Ref X\n");
  const Value& ref = *v.find("A")->find("B");
  CheckPos(ref, 2, 6);
  CheckPos(*ref.find("Ref"), 2, 6);
}

TEST_CASE("YAML unknown tags are errors naming the tag", "[parse][yaml]") {
  CHECK(YamlError("A: !Foo x") == YamlMsg(1, 4, "Unknown tag !Foo"));
  CHECK(YamlError("A:\n  - !ref x") == YamlMsg(2, 5, "Unknown tag !ref"));  // case matters
  CHECK(YamlError("A: !Foo [x]") == YamlMsg(1, 4, "Unknown tag !Foo"));
  CHECK(YamlError("A: !Foo {x: 1}") == YamlMsg(1, 4, "Unknown tag !Foo"));
  CHECK(YamlError("A: !Rain::Embed x") == YamlMsg(1, 4, "Unknown tag !Rain::Embed"));
  CHECK(YamlError("A: !!binary aGk=") == YamlMsg(1, 4, "Unknown tag !!binary"));
  CHECK(YamlError("A: !<tag:example.com,2000:x> y") ==
        YamlMsg(1, 4, "Unknown tag tag:example.com,2000:x"));
}

TEST_CASE("YAML standard tags force a type", "[parse][yaml]") {
  CHECK(Yaml("!!str 123") == Str("123"));
  CHECK(Yaml("!!str true") == Str("true"));
  CHECK(Yaml("!!int 5") == Num("5"));
  CHECK(Yaml("!!float 1.5") == Num("1.5"));
  CHECK(Yaml("!!bool True") == Value::Bool(true));
  CHECK(Yaml("!!null null").is_null());
  CHECK(Yaml("!!seq [a]") == List({Str("a")}));
  CHECK(Yaml("!!map {a: b}") == Yaml("{a: b}"));
  CHECK(Yaml("! 12") == Str("12"));  // the non-specific tag: a string
  CHECK(YamlError("a: !!int abc") == YamlMsg(1, 4, "Invalid !!int value 'abc'"));
  CHECK(YamlError("a: !!map [x]") == YamlMsg(1, 4, "Tag !!map does not apply to a sequence"));
}

TEST_CASE("YAML records 1-based line and column of every node", "[parse][yaml]") {
  Value v = Yaml(
      "Resources:\n"
      "  Bucket:\n"
      "    Type: AWS::S3::Bucket\n"
      "    Properties:\n"
      "      Tags: [ {Key: k, Value: 'v'} ]\n");
  const Value& bucket = *v.find("Resources")->find("Bucket");
  CheckPos(v, 1, 1);
  CheckPos(bucket, 3, 5);
  CheckPos(*bucket.find("Type"), 3, 11);
  const Value& tags = *bucket.find("Properties")->find("Tags");
  CheckPos(tags, 5, 13);
  CheckPos(tags.list()[0], 5, 15);
  CheckPos(*tags.list()[0].find("Value"), 5, 31);
}

TEST_CASE("YAML map keys are strings, numbers keep their text", "[parse][yaml]") {
  Value v = Yaml("80: http\n1.10: x\ntrue: t\nTrue: T\n~: n\n\"q\": 1\n!!str 7: s\n");
  std::vector<std::string> keys;
  for (const Member& m : v.map()) keys.push_back(m.key);
  CHECK(keys == std::vector<std::string>{"80", "1.10", "true", "True", "~", "q", "7"});
  CHECK(*v.find("80") == Str("http"));
  CHECK(YamlError("? [a]\n: b") == YamlMsg(1, 3, "Map keys must be scalars"));
  CHECK(YamlError("{a: 1}: b") == YamlMsg(1, 1, "Map keys must be scalars"));
  CHECK(YamlError("!Ref a: b") == YamlMsg(1, 1, "Map keys must be plain strings"));
}

TEST_CASE("YAML rejects duplicate keys with their position", "[parse][yaml]") {
  CHECK(YamlError("a: 1\nb: 2\na: 3\n") == YamlMsg(3, 1, "Duplicate key 'a'"));
  CHECK(YamlError("R:\n  X:\n    T: 1\n    P: 2\n    T: 3\n") == YamlMsg(5, 5, "Duplicate key 'T'"));
  CHECK(YamlError("l: [{a: 1, a: 2}]") == YamlMsg(1, 12, "Duplicate key 'a'"));
  CHECK(YamlError("'a': 1\na: 2") == YamlMsg(2, 1, "Duplicate key 'a'"));  // quoting aside
  CHECK(YamlError("80: 1\n\"80\": 2") == YamlMsg(2, 1, "Duplicate key '80'"));
  std::string big;
  for (int i = 0; i < 100; ++i) big += "k" + std::to_string(i) + ": 1\n";
  CHECK(Yaml(big).map().size() == 100);
  CHECK(YamlError(big + "k42: 2\n") == YamlMsg(101, 1, "Duplicate key 'k42'"));
  // Same key in sibling maps is fine.
  CHECK(Yaml("a: {x: 1}\nb: {x: 1}").map().size() == 2);
}

// CloudFormation's message for any alias; it carries no position.
const char kAliasesNotAllowed[] =
    "Template error: YAML aliases are not allowed in CloudFormation templates";

TEST_CASE("YAML aliases are rejected with AWS's message", "[parse][yaml]") {
  CHECK(YamlError("Base: &tags\n  - {Key: a, Value: !Ref X}\nCopy: *tags\n") ==
        kAliasesNotAllowed);
  CHECK(YamlError("a: &n hello\nb: [x, *n]\n") == kAliasesNotAllowed);
  CHECK(YamlError("a: &k name\n*k : v") == kAliasesNotAllowed);  // as a key
  CHECK(YamlError("a: &x [1, *x]") == kAliasesNotAllowed);        // inside its own node
  CHECK(YamlError("a: *nope") == kAliasesNotAllowed);             // undefined anchor
  // A merge key needs an alias, so merges are out too.
  CHECK(YamlError("base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n") == kAliasesNotAllowed);
  // Nine levels of ten aliases each would expand to a billion nodes: the first
  // alias stops it.
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    laughs += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) laughs += (i ? ", *" : "*") + prev;
    laughs += "]\n";
  }
  CHECK(YamlError(laughs) == kAliasesNotAllowed);
}

TEST_CASE("YAML anchors without aliases are accepted and ignored", "[parse][yaml]") {
  Value v = Yaml(
      "Base: &tags\n"
      "  - {Key: a, Value: !Ref X}\n"
      "Name: &n hello\n"
      "&k Key: &v value\n"
      "Ref: &r !Ref Y\n"
      "Empty: &e\n");
  CHECK(v == Yaml(
                 "Base:\n"
                 "  - {Key: a, Value: !Ref X}\n"
                 "Name: hello\n"
                 "Key: value\n"
                 "Ref: !Ref Y\n"
                 "Empty:\n"));
  // Redefining an anchor is harmless too.
  CHECK(Yaml("a: &x 1\nb: &x 2\n") == Yaml("a: 1\nb: 2\n"));
}

TEST_CASE("YAML accepts exactly one document", "[parse][yaml]") {
  CHECK(Yaml("---\na: 1\n") == Yaml("a: 1"));
  CHECK(Yaml("---\na: 1\n...\n") == Yaml("a: 1"));
  CHECK(Yaml("%YAML 1.2\n---\na: 1\n") == Yaml("a: 1"));
  CHECK(YamlError("a: 1\n---\nb: 2\n") == YamlMsg(2, 1));
  CHECK(Yaml("").is_null());
  CHECK(Yaml("# only a comment\n").is_null());
}

TEST_CASE("YAML syntax errors use AWS's wording and yaml-cpp's position", "[parse][yaml]") {
  CHECK(YamlError("a: b\n- c") == YamlMsg(2, 1));
  CHECK(YamlError("a: [1, 2") == YamlMsg(1, 9));     // where the ']' belonged
  CHECK(YamlError("a: {b: 1\n\n") == YamlMsg(1, 9));
  CHECK(YamlError("\xEF\xBB\xBF" "a: 1\nb: [") == YamlMsg(2, 5));
  CHECK(YamlError("[") == YamlMsg(1, 2));
  CHECK(YamlError("a: [x, [") == YamlMsg(1, 9));
  CHECK(YamlError("\t- a") == YamlMsg(1, 2));
  CHECK(YamlError("a: \"\\q\"") == YamlMsg(1, 7));
  CHECK(YamlError("a: 'x") == YamlMsg(1, 6));
  CHECK(YamlError("a:\n  b: 1\n c: 2\n") == YamlMsg(3, 2));
  CHECK(YamlError("a: b: c") == YamlMsg(1, 5));
  CHECK(YamlError("a: \xFF\n") == YamlMsg(1, 4, "Invalid UTF-8"));
  // NUL bytes would make yaml-cpp guess UTF-16 or UTF-32.
  CHECK(YamlError(std::string("A\0\0\0: b", 7)) == YamlMsg(1, 2, "Invalid character"));
  CHECK(YamlError("\xFF\xFE" "a\0:\0") == YamlMsg(1, 1, "Invalid UTF-8"));
  // Inputs that once hung or crashed yaml-cpp.
  for (const char* bad : {"[:", "{:", "[[:", "{!\xdb:", "!2\n-", "- [a", "&a [*a"}) {
    Value v;
    ParseYaml(bad, &v);  // any result, as long as it returns
  }
}

TEST_CASE("YAML nesting is limited", "[parse][yaml]") {
  CHECK(Yaml(Nested(100, "[", "]")).is_list());
  std::string deep_block;
  for (int i = 0; i < 100; ++i) deep_block += std::string(2 * i, ' ') + "k:\n";
  CHECK(Yaml(deep_block).is_map());
  for (const std::string& text :
       {Nested(100000, "[", "]"), Nested(100000, "{a: ", "}"), std::string(100000, '[')}) {
    CHECK(YamlError(text).find("YAML not well-formed.") != std::string::npos);
  }
  std::string too_deep;
  for (int i = 0; i < 3000; ++i) too_deep += std::string(i, ' ') + "- \n";
  CHECK(YamlError(too_deep).find("Nesting too deep") != std::string::npos);
}

TEST_CASE("YAML tags count toward the nesting limit", "[parse][yaml]") {
  // Each tag becomes a map: the 257th tagged sequence would be level 514.
  CHECK(YamlError(Nested(300, "!If [", "]")) == YamlMsg(1, 1281, "Nesting too deep"));
  CHECK(Yaml(Nested(250, "!If [", "]")).is_map());
}

TEST_CASE("YAML parses a JSON document the same way as the JSON parser", "[parse][yaml]") {
  std::string text = R"({"a": [1, 1.10, "x", true, null, {"b": {}}], "c": "2010-09-09"})";
  CHECK(Yaml(text) == Json(text));
}

// ---------------------------------------------------------------- dispatch

TEST_CASE("ParseTemplateText picks JSON for '{', YAML otherwise", "[parse]") {
  Value v;
  REQUIRE(ParseTemplateText(" \n\t{\"a\": 1.10}", &v).ok());
  CHECK(v.find("a")->str() == "1.10");
  REQUIRE(ParseTemplateText("\xEF\xBB\xBF{\"a\": 1}", &v).ok());
  // Looks like YAML flow style, but a template starting with '{' is JSON.
  Status s = ParseTemplateText("{a: 1}", &v);
  CHECK(s.message() == JsonMsg(1, 3));
  REQUIRE(ParseTemplateText("a: !Ref B", &v).ok());
  CHECK(*v.find("a") == Fn("Ref", Str("B")));
  REQUIRE(ParseTemplateText("[1]", &v).ok());
  CHECK(v.is_list());
  CHECK(ParseTemplateText("a: b\n- c", &v).message() == YamlMsg(2, 1));
  CHECK(test::Doc("x: 1") == Yaml("x: 1"));
}

TEST_CASE("A failed parse leaves the output untouched", "[parse]") {
  Value v = Value::String("keep");
  CHECK_FALSE(ParseJson("{", &v).ok());
  CHECK(v == Str("keep"));
  CHECK_FALSE(ParseYaml("a: [", &v).ok());
  CHECK(v == Str("keep"));
}

}  // namespace
}  // namespace ms
