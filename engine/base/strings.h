// Small string helpers shared across the engine.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ms {

// What Trim removes unless told otherwise: ASCII blanks and line breaks.
inline constexpr std::string_view kBlanks = " \t\r\n";

// `s` without leading and trailing `chars`: a view into `s`, so `s` must
// outlive it.
std::string_view Trim(std::string_view s, std::string_view chars = kBlanks);

// A CommaDelimitedList as CloudFormation reads it: "The total number of
// strings should be one more than the total number of commas. Also, each
// member string is space trimmed." (Parameters reference). So "" is one
// empty element and "a, b," is {"a", "b", ""}.
std::vector<std::string> SplitCommaList(std::string_view text);

// A whole decimal integer ("-12"; no blanks, no "+", no fraction) that
// fits in int64_t; false for anything else.
bool ParseInteger(std::string_view text, int64_t* out);

// `parts` with `sep` between them ("a, b, c" for ", ").
std::string Join(const std::vector<std::string>& parts, std::string_view sep);

}  // namespace ms
