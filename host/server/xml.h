// XmlWriter: the little XML the CloudFormation Query API answers with —
// nested elements and escaped text, no attributes beyond a namespace.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ms::server {

// Escapes &, <, >, " and ' for element text.
std::string XmlEscape(std::string_view text);

class XmlWriter {
 public:
  // <tag> (with xmlns="..." when given); closed by the matching Close().
  void Open(std::string_view tag, std::string_view xmlns = {});
  void Close();
  // <tag>text</tag>, the text escaped.
  void Text(std::string_view tag, std::string_view text);
  // Text() unless text is empty: optional members are left out.
  void Optional(std::string_view tag, std::string_view text);
  void Bool(std::string_view tag, bool value) { Text(tag, value ? "true" : "false"); }
  // <tag/>: an empty list or structure.
  void Empty(std::string_view tag);
  // A list of strings: <tag><member>a</member>...</tag>.
  void Members(std::string_view tag, const std::vector<std::string>& values);

  const std::string& str() const { return out_; }

 private:
  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace ms::server
