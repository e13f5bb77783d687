// A port of the aws CLI's output formatters (awscli 1.x: formatter.py,
// text.py, table.py). The structure follows theirs function by function so
// that their quirks carry over: the table's column scaling, its vertical
// redraw when too wide, the text format's shared column set for a list of
// objects, Python's str() of values. Where the aws CLI fails with a Python
// exception (mixed lists it cannot lay out), stdout gets what it had written
// by then: nothing for a table, the lines so far for text.
#include "cli/output.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

namespace ms::cli {
namespace {

// ---------------------------------------------------------------------------
// Unicode facts of the Python that runs the aws CLI (generated tables).

struct CodeRange {
  char32_t first, last;
};
struct UpperRun {
  char32_t first, last;
  int stride, delta;
};
struct UpperSpecial {
  char32_t cp;
  const char* upper;  // UTF-8
};

#include "cli/output_unicode.inc"

template <size_t N>
bool InRanges(const CodeRange (&ranges)[N], char32_t cp) {
  auto it = std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                             [](char32_t c, const CodeRange& r) { return c < r.first; });
  return it != std::begin(ranges) && cp <= (it - 1)->last;
}

// Decodes one UTF-8 sequence at s[*i], advancing *i. A malformed byte is
// taken as one character of its own (Python never sees one: json refuses it).
char32_t NextCodePoint(std::string_view s, size_t* i) {
  unsigned char c = static_cast<unsigned char>(s[*i]);
  int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || *i + len > s.size()) {
    ++*i;
    return c;
  }
  char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < len; ++k) {
    unsigned char cc = static_cast<unsigned char>(s[*i + k]);
    if ((cc & 0xC0) != 0x80) {
      ++*i;
      return c;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  *i += len;
  return cp;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// table.py get_text_length: columns on screen, East Asian wide, full-width
// and ambiguous characters counting two.
int TextWidth(std::string_view s) {
  int width = 0;
  for (size_t i = 0; i < s.size();) width += InRanges(kWideRanges, NextCodePoint(s, &i)) ? 2 : 1;
  return width;
}

// Python's str.upper() (text.py upper-cases identifiers).
std::string PyUpper(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t start = i;
    char32_t cp = NextCodePoint(s, &i);
    if (cp >= 'a' && cp <= 'z') {
      out.push_back(static_cast<char>(cp - 32));
      continue;
    }
    if (cp < 0x80) {
      out.append(s.substr(start, i - start));
      continue;
    }
    const UpperSpecial* special = std::find_if(std::begin(kUpperSpecials), std::end(kUpperSpecials),
                                               [cp](const UpperSpecial& u) { return u.cp == cp; });
    if (special != std::end(kUpperSpecials)) {
      out += special->upper;
      continue;
    }
    auto run = std::upper_bound(std::begin(kUpperRuns), std::end(kUpperRuns), cp,
                                [](char32_t c, const UpperRun& r) { return c < r.first; });
    if (run != std::begin(kUpperRuns)) {
      const UpperRun& r = *(run - 1);
      if (cp <= r.last && (cp - r.first) % r.stride == 0) {
        AppendUtf8(static_cast<char32_t>(static_cast<int64_t>(cp) + r.delta), &out);
        continue;
      }
    }
    out.append(s.substr(start, i - start));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Python's str() and repr() of JSON values.

// float.__repr__: the shortest digits that read back as the same double;
// positional when the decimal exponent is in [-4, 16), else d.ddde+XX.
std::string PyFloatRepr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // "-1.2345e+03"
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  int exp10 = std::stoi(sci.substr(e + 1));
  int decpt = exp10 + 1;  // digits d1d2... mean 0.d1d2... * 10^decpt
  int n = static_cast<int>(digits.size());
  std::string out = sign;
  if (decpt <= -4 || decpt > 16) {
    out += digits.substr(0, 1);
    if (n > 1) out += "." + digits.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    out += ebuf;
  } else if (decpt <= 0) {
    out += "0." + std::string(-decpt, '0') + digits;
  } else if (decpt >= n) {
    out += digits + std::string(decpt - n, '0') + ".0";
  } else {
    out += digits.substr(0, decpt) + "." + digits.substr(decpt);
  }
  return out;
}

std::string PyIntStr(const Json& j) {
  return j.is_number_unsigned() ? std::to_string(j.get<uint64_t>()) : std::to_string(j.get<int64_t>());
}

// repr() of a str: single quotes unless it holds ' and no ", escapes for the
// quote, backslash and the characters str.isprintable() rejects.
std::string PyReprString(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size();) {
    size_t start = i;
    char32_t cp = NextCodePoint(s, &i);
    char buf[16];
    if (cp == static_cast<char32_t>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < ' ' || cp == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else if (cp < 0x7F || !InRanges(kNonPrintableRanges, cp)) {
      out.append(s.substr(start, i - start));
    } else {
      const char* fmt = cp <= 0xFF ? "\\x%02x" : cp <= 0xFFFF ? "\\u%04x" : "\\U%08x";
      std::snprintf(buf, sizeof buf, fmt, static_cast<unsigned>(cp));
      out += buf;
    }
  }
  out += quote;
  return out;
}

std::string PyRepr(const Json& j);

// str(): a string as is, containers as their repr.
std::string PyStr(const Json& j) {
  switch (j.type()) {
    case Json::value_t::string: return j.get_ref<const std::string&>();
    case Json::value_t::boolean: return j.get<bool>() ? "True" : "False";
    case Json::value_t::null: return "None";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return PyIntStr(j);
    case Json::value_t::number_float: return PyFloatRepr(j.get<double>());
    default: return PyRepr(j);
  }
}

std::string PyRepr(const Json& j) {
  if (j.is_string()) return PyReprString(j.get_ref<const std::string&>());
  if (j.is_object()) {
    std::string out = "{";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!first) out += ", ";
      first = false;
      out += PyReprString(it.key()) + ": " + PyRepr(it.value());
    }
    return out + "}";
  }
  if (j.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < j.size(); ++i) {
      if (i > 0) out += ", ";
      out += PyRepr(j[i]);
    }
    return out + "]";
  }
  return PyStr(j);
}

bool IsScalar(const Json& j) { return !j.is_object() && !j.is_array(); }

// Python truthiness (formatter.py: `if not current`).
bool IsFalsy(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return true;
    case Json::value_t::boolean: return !j.get<bool>();
    case Json::value_t::string: return j.get_ref<const std::string&>().empty();
    case Json::value_t::number_integer: return j.get<int64_t>() == 0;
    case Json::value_t::number_unsigned: return j.get<uint64_t>() == 0;
    case Json::value_t::number_float: return j.get<double>() == 0.0;
    default: return j.empty();
  }
}

// Raised where the aws CLI's Python raises: the output stops there.
struct AwsCliCrash : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------
// JSON: json.dump(response, indent=4, ensure_ascii=False).

void DumpJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      case '\b': *out += "\\b"; break;
      case '\f': *out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          *out += buf;
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void DumpJson(const Json& j, int level, std::string* out) {
  const std::string inner((level + 1) * 4, ' ');
  switch (j.type()) {
    case Json::value_t::object: {
      if (j.empty()) {
        *out += "{}";
        return;
      }
      *out += "{\n";
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) *out += ",\n";
        first = false;
        *out += inner;
        DumpJsonString(it.key(), out);
        *out += ": ";
        DumpJson(it.value(), level + 1, out);
      }
      *out += "\n" + std::string(level * 4, ' ') + "}";
      return;
    }
    case Json::value_t::array: {
      if (j.empty()) {
        *out += "[]";
        return;
      }
      *out += "[\n";
      for (size_t i = 0; i < j.size(); ++i) {
        if (i > 0) *out += ",\n";
        *out += inner;
        DumpJson(j[i], level + 1, out);
      }
      *out += "\n" + std::string(level * 4, ' ') + "]";
      return;
    }
    case Json::value_t::string: DumpJsonString(j.get_ref<const std::string&>(), out); return;
    case Json::value_t::boolean: *out += j.get<bool>() ? "true" : "false"; return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: *out += PyIntStr(j); return;
    case Json::value_t::number_float: {
      double d = j.get<double>();
      if (std::isnan(d)) *out += "NaN";
      else if (std::isinf(d)) *out += d < 0 ? "-Infinity" : "Infinity";
      else *out += PyFloatRepr(d);
      return;
    }
    default: *out += "null"; return;
  }
}

// ---------------------------------------------------------------------------
// Text: awscli/text.py.

class TextFormatter {
 public:
  explicit TextFormatter(std::string* out) : out_(*out) {}

  // _format_text; identifier and scalar_keys are Python's None when null.
  void Format(const Json& item, const std::string* identifier, const std::vector<std::string>* scalar_keys) {
    if (item.is_object()) {
      FormatDict(scalar_keys, item, identifier);
    } else if (item.is_array()) {
      FormatList(item, identifier);
    } else {
      out_ += PyStr(item) + "\n";
    }
  }

 private:
  void FormatList(const Json& item, const std::string* identifier) {
    if (item.empty()) return;
    bool any_dict = std::any_of(item.begin(), item.end(), [](const Json& e) { return e.is_object(); });
    bool any_list = std::any_of(item.begin(), item.end(), [](const Json& e) { return e.is_array(); });
    if (any_dict) {
      // _all_scalar_keys: every element's scalar keys, sorted; one column set
      // for the whole list, so rows line up (a missing key prints as "").
      std::set<std::string> keys;
      for (const Json& e : item) {
        if (!e.is_object()) throw AwsCliCrash("'list' object has no attribute 'items'");
        for (auto it = e.begin(); it != e.end(); ++it)
          if (IsScalar(it.value())) keys.insert(it.key());
      }
      std::vector<std::string> all_keys(keys.begin(), keys.end());
      for (const Json& e : item) Format(e, identifier, &all_keys);
    } else if (any_list) {
      std::vector<const Json*> scalars, non_scalars;
      for (const Json& e : item) (IsScalar(e) ? scalars : non_scalars).push_back(&e);
      if (!scalars.empty()) FormatScalarList(scalars, identifier);
      for (const Json* e : non_scalars) Format(*e, identifier, nullptr);
    } else {
      std::vector<const Json*> all;
      for (const Json& e : item) all.push_back(&e);
      FormatScalarList(all, identifier);
    }
  }

  void FormatScalarList(const std::vector<const Json*>& elements, const std::string* identifier) {
    if (identifier != nullptr) {
      const std::string upper = PyUpper(*identifier);
      for (const Json* e : elements) out_ += upper + "\t" + PyStr(*e) + "\n";
    } else {
      for (size_t i = 0; i < elements.size(); ++i) out_ += (i > 0 ? "\t" : "") + PyStr(*elements[i]);
      out_ += "\n";
    }
  }

  void FormatDict(const std::vector<std::string>* scalar_keys, const Json& item, const std::string* identifier) {
    // _partition_dict
    std::vector<std::string> scalars;
    std::vector<std::pair<std::string, const Json*>> non_scalars;
    if (scalar_keys == nullptr) {
      std::vector<std::string> keys;
      for (auto it = item.begin(); it != item.end(); ++it) keys.push_back(it.key());
      std::sort(keys.begin(), keys.end());
      for (const std::string& k : keys) {
        const Json& v = item.at(k);
        if (IsScalar(v)) scalars.push_back(PyStr(v));
        else non_scalars.emplace_back(k, &v);
      }
    } else {
      for (const std::string& k : *scalar_keys) scalars.push_back(item.contains(k) ? PyStr(item.at(k)) : "");
      std::set<std::string> remaining;
      for (auto it = item.begin(); it != item.end(); ++it)
        if (!std::binary_search(scalar_keys->begin(), scalar_keys->end(), it.key())) remaining.insert(it.key());
      for (const std::string& k : remaining) non_scalars.emplace_back(k, &item.at(k));
    }
    if (!scalars.empty()) {
      std::string line = identifier != nullptr ? PyUpper(*identifier) : "";
      for (size_t i = 0; i < scalars.size(); ++i) {
        if (i > 0 || identifier != nullptr) line += "\t";
        line += scalars[i];
      }
      out_ += line + "\n";
    }
    for (const auto& [key, value] : non_scalars) Format(*value, &key, nullptr);
  }

  std::string& out_;
};

// ---------------------------------------------------------------------------
// Table: awscli/table.py (MultiTable, Section) driven by formatter.py's
// TableFormatter.

std::string Spaces(int n) { return n > 0 ? std::string(n, ' ') : std::string(); }
std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}
int FloorDiv2(int n) { return n >= 0 ? n / 2 : -((-n + 1) / 2); }

// center_text
std::string CenterText(const std::string& text, int length, const std::string& left_edge,
                       const std::string& right_edge, int text_length) {
  int char_start = FloorDiv2(length) - FloorDiv2(text_length) - 1;
  int length_so_far = TextWidth(left_edge) + char_start + text_length;
  int right_side_spaces = length - TextWidth(right_edge) - length_so_far;
  return left_edge + Spaces(char_start) + text + Spaces(right_side_spaces) + right_edge;
}

// align_left: two spaces of padding when the text fits, none otherwise; a
// text too long for its column is not cut, it pushes the edge out.
std::string AlignLeft(const std::string& text, int length, const std::string& left_edge,
                      const std::string& right_edge, int text_length) {
  const int left_padding = 2;
  int computed_length = text_length + left_padding + TextWidth(left_edge) + TextWidth(right_edge);
  int padding = length - computed_length >= 0 ? left_padding : 0;
  int length_so_far = static_cast<int>(left_edge.size()) + padding + text_length;
  return left_edge + Spaces(padding) + text + Spaces(length - length_so_far - static_cast<int>(right_edge.size())) +
         right_edge;
}

struct Section {
  std::optional<std::string> title;  // nullopt: Python's None
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  int indent_level = 0;
  std::optional<size_t> num_cols;
  std::vector<int> max_widths;

  // str(None) is "None": a section titled None still counts 4 columns.
  int TitleWidth() const { return title ? TextWidth(*title) : 4; }

  std::vector<int> ColumnWidths(int padding, std::optional<int> max_width) const {
    std::vector<int> unscaled;
    for (int w : max_widths) unscaled.push_back(w + padding);
    if (!max_width || unscaled.empty()) return unscaled;
    int sum = 0;
    for (int w : unscaled) sum += w;
    const double scale_factor = *max_width / static_cast<double>(sum);
    std::vector<int> scaled;
    // int(round(x)): Python rounds halves to even, as nearbyint does.
    for (int w : unscaled) scaled.push_back(static_cast<int>(std::nearbyint(scale_factor * w)));
    int off_by = -*max_width;
    for (int w : scaled) off_by += w;
    const int n = static_cast<int>(scaled.size());
    while (off_by != 0) {
      for (int k = 0; k < n; ++k) {
        int i = off_by < 0 ? n - 1 - k : k;
        if (off_by > 0) {
          --scaled[i];
          --off_by;
        } else {
          ++scaled[i];
          ++off_by;
        }
        if (off_by == 0) break;
      }
    }
    return scaled;
  }

  int TotalWidth(int padding, bool with_border, int outer_padding) const {
    int total = 0;
    for (int w : ColumnWidths(0, std::nullopt)) total += w + padding;
    if (with_border) total += 2;
    total += 2 * outer_padding;
    return std::max(TitleWidth() + 2 + 2 * outer_padding, total);
  }

  void AddHeader(const std::vector<std::string>& h) {
    UpdateMaxWidths(h);
    if (!num_cols) num_cols = h.size();
    headers = h;
  }

  void AddRow(const std::vector<std::string>& row) {
    if (!num_cols) num_cols = row.size();
    if (row.size() != *num_cols) throw AwsCliCrash("Row should have a different number of elements");
    rows.push_back(row);
    UpdateMaxWidths(row);
  }

  void UpdateMaxWidths(const std::vector<std::string>& row) {
    if (max_widths.empty()) {
      for (const std::string& el : row) max_widths.push_back(TextWidth(el));
      return;
    }
    if (row.size() > max_widths.size()) throw AwsCliCrash("list index out of range");
    for (size_t i = 0; i < row.size(); ++i) max_widths[i] = std::max(TextWidth(row[i]), max_widths[i]);
  }
};

class TableFormatter {
 public:
  explicit TableFormatter(const RenderOptions& options) : options_(options) {}

  // TableFormatter._build_table; false when there is nothing to print.
  bool Build(const std::optional<std::string>& title, const Json& current, int indent_level = 0) {
    if (IsFalsy(current)) return false;
    if (title) NewSection(title, indent_level);
    if (current.is_array()) {
      if (current[0].is_object()) {
        SubTableFromList(current, indent_level, title);
      } else {
        for (const Json& item : current) {
          if (IsScalar(item)) {
            Add({PyStr(item)});
          } else if (item.is_object()) {
            // Every element of a dict is scalar: iterating it gives its keys.
            std::vector<std::string> keys;
            for (auto it = item.begin(); it != item.end(); ++it) keys.push_back(it.key());
            Add(keys);
          } else if (std::all_of(item.begin(), item.end(), IsScalar)) {
            std::vector<std::string> row;
            for (const Json& el : item) row.push_back(PyStr(el));
            Add(row);
          } else {
            Build(std::nullopt, item);
          }
        }
      }
    }
    if (current.is_object()) SubTableFromDict(current, indent_level);
    return true;
  }

  // MultiTable.render
  std::string Render() {
    int max_width = MaxWidth();
    if (max_width > options_.terminal_width) {
      ConvertToVerticalTable();
      max_width = MaxWidth();
    }
    Write(std::string(std::max(max_width, 0), '-') + "\n");
    for (const Section& s : sections_) RenderSection(s, max_width);
    return out_;
  }

 private:
  static void GroupScalarKeys(const Json& current, std::set<std::string>* headers, std::set<std::string>* more) {
    if (!current.is_object()) throw AwsCliCrash("string indices must be integers");
    for (auto it = current.begin(); it != current.end(); ++it)
      (IsScalar(it.value()) ? headers : more)->insert(it.key());
  }

  void SubTableFromDict(const Json& current, int indent_level) {
    std::set<std::string> h, m;
    GroupScalarKeys(current, &h, &m);
    std::vector<std::string> headers(h.begin(), h.end());
    if (headers.size() == 1) {
      // A dict with a single scalar: one row "key | value", no header row.
      Add({headers[0], PyStr(current.at(headers[0]))});
    } else if (!headers.empty()) {
      Current().AddHeader(headers);
      std::vector<std::string> row;
      for (const std::string& k : headers) row.push_back(PyStr(current.at(k)));
      Add(row);
    }
    for (const std::string& key : m) Build(key, current.at(key), indent_level + 1);
  }

  void SubTableFromList(const Json& current, int indent_level, const std::optional<std::string>& title) {
    std::set<std::string> h, m;
    for (const Json& item : current) GroupScalarKeys(item, &h, &m);
    std::vector<std::string> headers(h.begin(), h.end());
    Current().AddHeader(headers);
    bool first = true;
    for (const Json& element : current) {
      // Each element with nested values gets its own copy of the section,
      // so its nested tables follow its row.
      if (!first && !m.empty()) {
        NewSection(title, indent_level);
        Current().AddHeader(headers);
      }
      first = false;
      std::vector<std::string> row;
      for (const std::string& k : headers) row.push_back(element.contains(k) ? PyStr(element.at(k)) : "");
      Add(row);
      for (const std::string& key : m)
        if (element.contains(key)) Build(key, element.at(key), indent_level + 1);
    }
  }

  Section& Current() {
    if (sections_.empty()) throw AwsCliCrash("'NoneType' object has no attribute 'add_row'");
    return sections_.back();
  }
  void Add(const std::vector<std::string>& row) { Current().AddRow(row); }

  void NewSection(const std::optional<std::string>& title, int indent_level) {
    sections_.emplace_back();
    sections_.back().title = title;
    sections_.back().indent_level = indent_level;
  }

  int MaxWidth() const {
    int max_width = 0;
    bool first = true;
    for (const auto& s : sections_) {
      int w = s.TotalWidth(4, true, s.indent_level);
      if (first || w > max_width) max_width = w;
      first = false;
    }
    return max_width;
  }

  // convert_to_vertical_table: a section with a header and one row becomes
  // rows of "header | value".
  void ConvertToVerticalTable() {
    for (auto& s : sections_) {
      if (s.rows.size() != 1 || s.headers.empty()) continue;
      Section v;
      v.title = s.title;
      v.indent_level = s.indent_level;
      for (size_t i = 0; i < std::min(s.headers.size(), s.rows[0].size()); ++i)
        v.AddRow({s.headers[i], s.rows[0][i]});
      s = v;
    }
  }

  // Every write to a stream colorama wraps (color on) is followed by a reset.
  void Write(const std::string& text) {
    out_ += text;
    if (options_.color) out_ += "\x1b[0m";
  }

  // IndentedStream.write: the nested table's side bars on both sides.
  void WriteIndented(const std::string& text, int indent_level) {
    const std::string bars = Repeat(IndentationChar(), indent_level);
    Write(bars);
    if (!text.empty() && text.back() == '\n') {
      Write(text.substr(0, text.size() - 1));
      Write(bars);
      Write("\n");
    } else {
      Write(text);
    }
  }

  std::string IndentationChar() const { return options_.color ? "\x1b[2m\x1b[33m|\x1b[0m" : "|"; }
  std::string StyleRowElement(const std::string& text) const {
    return options_.color ? "\x1b[1m\x1b[34m" + text + "\x1b[0m" : text;
  }

  void RenderSection(const Section& s, int max_width) {
    max_width -= s.indent_level * 2;
    // Title.
    if (s.title && !s.title->empty()) {
      WriteIndented(CenterText(*s.title, max_width, "|", "|", TextWidth(*s.title)) + "\n", s.indent_level);
      if (s.headers.empty() && s.rows.empty())
        WriteIndented("+" + std::string(std::max(max_width - 2, 0), '-') + "+\n", s.indent_level);
    }
    // Column titles.
    if (!s.headers.empty()) {
      std::vector<int> widths = s.ColumnWidths(4, max_width);
      std::string current;
      for (size_t i = 0; i < std::min(widths.size(), s.headers.size()); ++i)
        current += CenterText(s.headers[i], widths[i], i == 0 ? "|" : "", "|", TextWidth(s.headers[i]));
      WriteLineBreak(widths, s.indent_level);
      WriteIndented(current + "\n", s.indent_level);
    }
    // Rows.
    if (s.rows.empty()) return;
    std::vector<int> widths = s.ColumnWidths(4, max_width);
    if (widths.empty()) return;
    WriteLineBreak(widths, s.indent_level);
    for (const auto& row : s.rows) {
      std::string current;
      for (size_t i = 0; i < std::min(widths.size(), row.size()); ++i)
        current += AlignLeft(StyleRowElement(row[i]), widths[i], i == 0 ? "|" : "", "|", TextWidth(row[i]));
      WriteIndented(current + "\n", s.indent_level);
    }
    WriteLineBreak(widths, s.indent_level);
  }

  // +-------+---------+
  void WriteLineBreak(const std::vector<int>& widths, int indent_level) {
    std::string line;
    for (size_t i = 0; i < widths.size(); ++i) {
      int dashes = i == 0 ? widths[i] - 2 : widths[i] - 1;
      line += (i == 0 ? "+" : "") + std::string(std::max(dashes, 0), '-') + "+";
    }
    WriteIndented(line + "\n", indent_level);
  }

  RenderOptions options_;
  std::vector<Section> sections_;
  std::string out_;
};

}  // namespace

bool ParseOutputFormat(std::string_view name, OutputFormat* format) {
  if (name == "json") *format = OutputFormat::kJson;
  else if (name == "text") *format = OutputFormat::kText;
  else if (name == "table") *format = OutputFormat::kTable;
  else return false;
  return true;
}

RenderOptions StdoutRenderOptions() {
  RenderOptions options;
  struct winsize ws {};
  // Python unpacks the window size as signed shorts.
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) options.terminal_width = static_cast<int16_t>(ws.ws_col);
  options.terminal = isatty(STDOUT_FILENO) != 0;
  options.color = options.terminal;
  return options;
}

std::string RenderJsonDocument(const Json& j) {
  std::string out;
  DumpJson(j, 0, &out);
  return out + "\n";
}

std::string RenderOutput(const Json& response, OutputFormat format, const std::string& operation_title) {
  return RenderOutput(response, format, operation_title, RenderOptions{});
}

std::string RenderOutput(const Json& response, OutputFormat format, const std::string& operation_title,
                         const RenderOptions& options) {
  // colorama.init(), run when the coloured table styler is made (before the
  // response is looked at), resets a terminal's colours when the aws CLI
  // exits, whatever was printed.
  const std::string at_exit =
      format == OutputFormat::kTable && options.color && options.terminal ? "\x1b[0m" : "";
  // Formatter._remove_request_id: `'ResponseMetadata' in response`, then
  // `del response['ResponseMetadata']`. Python fails on that for anything but
  // an object without the key: null, booleans and numbers are not containers,
  // a list holding that string or a string containing it cannot be indexed
  // by it. Then the aws CLI prints nothing.
  const Json* data = &response;
  Json stripped;
  static const std::string kMetadata = "ResponseMetadata";
  switch (response.type()) {
    case Json::value_t::object:
      if (response.contains(kMetadata)) {
        stripped = response;
        stripped.erase(kMetadata);
        data = &stripped;
      }
      break;
    case Json::value_t::array:
      for (const Json& e : response)
        if (e.is_string() && e.get_ref<const std::string&>() == kMetadata) return at_exit;
      break;
    case Json::value_t::string:
      if (response.get_ref<const std::string&>().find(kMetadata) != std::string::npos) return at_exit;
      break;
    default: return at_exit;
  }
  switch (format) {
    case OutputFormat::kJson:
      if (data->is_object() && data->empty()) return "";
      return RenderJsonDocument(*data);
    case OutputFormat::kText: {
      std::string out;
      try {
        TextFormatter(&out).Format(*data, nullptr, nullptr);
      } catch (const AwsCliCrash&) {
      }
      return out;
    }
    case OutputFormat::kTable: {
      try {
        TableFormatter table(options);
        if (!table.Build(operation_title, *data)) return at_exit;
        return table.Render() + at_exit;
      } catch (const AwsCliCrash&) {
        return at_exit;
      }
    }
  }
  return "";
}

void PrintOutput(const Json& response, OutputFormat format, const std::string& operation_title) {
  std::cout << RenderOutput(response, format, operation_title, StdoutRenderOptions()) << std::flush;
}

}  // namespace ms::cli
