#include "test_util.h"

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

}  // namespace ms::test
