// base/strings: the helpers every comma list and message list goes through.
#include <catch2/catch.hpp>

#include "base/strings.h"

using Strings = std::vector<std::string>;

TEST_CASE("SplitCommaList splits as CommaDelimitedList does", "[base]") {
  CHECK(ms::SplitCommaList("a,b") == Strings{"a", "b"});
  // Each member is trimmed; one more member than commas, so empties stay.
  CHECK(ms::SplitCommaList(" a ,\tb\n, c") == Strings{"a", "b", "c"});
  CHECK(ms::SplitCommaList("a,,b,") == Strings{"a", "", "b", ""});
  CHECK(ms::SplitCommaList("") == Strings{""});
  CHECK(ms::SplitCommaList(" ") == Strings{""});
}

TEST_CASE("Trim and Join", "[base]") {
  CHECK(ms::Trim(" \t x y \r\n") == "x y");
  CHECK(ms::Trim("   ").empty());
  CHECK(ms::Trim("\n x \n", " \t") == "\n x \n");
  CHECK(ms::Join({}, ", ").empty());
  CHECK(ms::Join({"a"}, ", ") == "a");
  CHECK(ms::Join({"a", "b", "c"}, ", ") == "a, b, c");
}

TEST_CASE("ParseInteger takes whole decimal integers only", "[base]") {
  int64_t v = 0;
  CHECK((ms::ParseInteger("42", &v) && v == 42));
  CHECK((ms::ParseInteger("-7", &v) && v == -7));
  CHECK_FALSE(ms::ParseInteger("", &v));
  CHECK_FALSE(ms::ParseInteger("+1", &v));
  CHECK_FALSE(ms::ParseInteger(" 1", &v));
  CHECK_FALSE(ms::ParseInteger("1.5", &v));
  CHECK_FALSE(ms::ParseInteger("12abc", &v));
  CHECK_FALSE(ms::ParseInteger("99999999999999999999", &v));
}
