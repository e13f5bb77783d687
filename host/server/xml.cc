#include "server/xml.h"

namespace ms::server {

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\r': out += "&#xD;"; break;  // kept verbatim by XML parsers, which normalise a bare CR
      default: out += c;
    }
  }
  return out;
}

void XmlWriter::Open(std::string_view tag, std::string_view xmlns) {
  out_ += '<';
  out_ += tag;
  if (!xmlns.empty()) {
    out_ += " xmlns=\"";
    out_ += XmlEscape(xmlns);
    out_ += '"';
  }
  out_ += '>';
  open_.emplace_back(tag);
}

void XmlWriter::Close() {
  out_ += "</" + open_.back() + ">";
  open_.pop_back();
}

void XmlWriter::Text(std::string_view tag, std::string_view text) {
  out_ += '<';
  out_ += tag;
  out_ += '>';
  out_ += XmlEscape(text);
  out_ += "</";
  out_ += tag;
  out_ += '>';
}

void XmlWriter::Optional(std::string_view tag, std::string_view text) {
  if (!text.empty()) Text(tag, text);
}

void XmlWriter::Empty(std::string_view tag) {
  out_ += '<';
  out_ += tag;
  out_ += "/>";
}

void XmlWriter::Members(std::string_view tag, const std::vector<std::string>& values) {
  if (values.empty()) return Empty(tag);
  Open(tag);
  for (const std::string& v : values) Text("member", v);
  Close();
}

}  // namespace ms::server
