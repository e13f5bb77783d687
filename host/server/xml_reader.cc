#include "server/xml_reader.h"

#include <cctype>
#include <cstdlib>

namespace ms::server {
namespace {

constexpr int kMaxDepth = 64;  // S3's documents are a few levels deep

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  bool Document(XmlElement* root, std::string* error) {
    SkipMisc();
    if (!Element(root, 0)) {
      *error = error_.empty() ? "The XML you provided was not well-formed" : error_;
      return false;
    }
    SkipMisc();
    if (pos_ != s_.size()) {
      *error = "The XML you provided was not well-formed";
      return false;
    }
    return true;
  }

 private:
  // Whitespace, <?...?>, <!-- ... -->, <!DOCTYPE ...>.
  void SkipMisc() {
    while (true) {
      while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (s_.compare(pos_, 2, "<?") == 0) {
        Skip("?>");
      } else if (s_.compare(pos_, 4, "<!--") == 0) {
        Skip("-->");
      } else if (s_.compare(pos_, 2, "<!") == 0) {
        Skip(">");
      } else {
        return;
      }
    }
  }
  void Skip(std::string_view end) {
    size_t at = s_.find(end, pos_);
    pos_ = at == std::string_view::npos ? s_.size() : at + end.size();
  }

  static std::string LocalName(std::string_view qname) {
    size_t colon = qname.find(':');
    return std::string(colon == std::string_view::npos ? qname : qname.substr(colon + 1));
  }

  bool Element(XmlElement* e, int depth) {
    if (depth > kMaxDepth || pos_ >= s_.size() || s_[pos_] != '<') return false;
    size_t end = s_.find('>', pos_);
    if (end == std::string_view::npos) return false;
    std::string_view tag = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    const bool empty = !tag.empty() && tag.back() == '/';
    if (empty) tag.remove_suffix(1);
    std::string_view qname = tag.substr(0, tag.find_first_of(" \t\r\n"));
    if (qname.empty()) return false;
    e->name = LocalName(qname);
    if (empty) return true;
    while (pos_ < s_.size()) {
      if (s_.compare(pos_, 4, "<!--") == 0) {
        Skip("-->");
      } else if (s_.compare(pos_, 9, "<![CDATA[") == 0) {
        size_t close = s_.find("]]>", pos_);
        if (close == std::string_view::npos) return false;
        e->text.append(s_.substr(pos_ + 9, close - pos_ - 9));
        pos_ = close + 3;
      } else if (s_.compare(pos_, 2, "</") == 0) {
        size_t close = s_.find('>', pos_);
        if (close == std::string_view::npos) return false;
        std::string_view closing = s_.substr(pos_ + 2, close - pos_ - 2);
        while (!closing.empty() && std::isspace(static_cast<unsigned char>(closing.back()))) closing.remove_suffix(1);
        pos_ = close + 1;
        return closing == qname;
      } else if (s_[pos_] == '<') {
        e->children.emplace_back();
        if (!Element(&e->children.back(), depth + 1)) return false;
      } else {
        size_t next = s_.find('<', pos_);
        if (next == std::string_view::npos) return false;
        if (!Text(s_.substr(pos_, next - pos_), &e->text)) return false;
        pos_ = next;
      }
    }
    return false;
  }

  bool Text(std::string_view raw, std::string* out) {
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        *out += raw[i];
        continue;
      }
      size_t semi = raw.find(';', i);
      if (semi == std::string_view::npos) return false;
      std::string_view ent = raw.substr(i + 1, semi - i - 1);
      if (ent == "amp") *out += '&';
      else if (ent == "lt") *out += '<';
      else if (ent == "gt") *out += '>';
      else if (ent == "quot") *out += '"';
      else if (ent == "apos") *out += '\'';
      else if (!ent.empty() && ent[0] == '#') {
        const std::string num(ent.substr(1));
        unsigned long cp = num[0] == 'x' ? std::strtoul(num.c_str() + 1, nullptr, 16) : std::strtoul(num.c_str(), nullptr, 10);
        AppendUtf8(cp, out);
      } else {
        return false;
      }
      i = semi;
    }
    return true;
  }

  static void AppendUtf8(unsigned long cp, std::string* out) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (cp >> 18));
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

const XmlElement* XmlElement::Child(std::string_view child_name) const {
  for (const XmlElement& c : children) {
    if (c.name == child_name) return &c;
  }
  return nullptr;
}

bool ParseXml(std::string_view text, XmlElement* root, std::string* error) {
  return Parser(text).Document(root, error);
}

}  // namespace ms::server
