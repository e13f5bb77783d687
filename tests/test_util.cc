#include "test_util.h"

#include <sys/wait.h>

#include <cstdio>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "template/parse.h"

namespace ms::test {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Value Doc(const std::string& text) {
  Value v;
  Status s = ParseTemplateText(text, &v);
  INFO(s.message());
  REQUIRE(s.ok());
  return v;
}

ParameterValues Params(const Template& t, const std::map<std::string, std::string>& values) {
  // Only the declarations with a value: ResolveParameters rejects the rest.
  Template with_values;
  for (const ParameterDecl& d : t.parameters) {
    if (d.default_value || values.count(d.name)) with_values.parameters.push_back(d);
  }
  std::vector<ParameterInput> given;
  for (const auto& [name, text] : values) given.push_back(ParameterInput{name, text});
  ParameterValues out;
  Status s = ResolveParameters(with_values, given, {}, &out);
  INFO(s.message());
  REQUIRE(s.ok());
  return out;
}

CommandResult RunCommand(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WEXITSTATUS(status), out};
}

}  // namespace ms::test
