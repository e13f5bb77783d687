// ParseTemplateText: picks the JSON or the YAML parser, as CloudFormation does.
#include "template/parse.h"

namespace ms {

namespace {

// The first character that is not blank (nor a UTF-8 byte order mark).
char FirstSignificantChar(std::string_view text) {
  size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c;
  }
  return '\0';
}

}  // namespace

// Per parse.h, a template starting with '{' is JSON even where it would also
// be YAML flow style: `{a: 1}` fails as malformed JSON. Everything else is YAML,
// which covers JSON arrays and scalars too.
Status ParseTemplateText(std::string_view text, Value* out) {
  if (FirstSignificantChar(text) == '{') return ParseJson(text, out);
  return ParseYaml(text, out);
}

}  // namespace ms
