#include "stack/request_limits.h"

#include <cctype>
#include <string>

#include "base/constraint_errors.h"

namespace ms {
namespace {

constexpr size_t kMaxTags = 50;
constexpr size_t kMaxTagKey = 128;
constexpr size_t kMaxTagValue = 256;

// A list of tags as AWS's Java front end prints one: "[{Key: a,Value: b}, ...]".
std::string TagsText(const std::vector<StackTag>& tags) {
  std::string out = "[";
  for (const StackTag& t : tags) {
    if (out.size() > 1) out += ", ";
    out += "{Key: " + t.key + ",Value: " + t.value + "}";
  }
  return out + "]";
}

void CheckLength(const std::string& text, const std::string& member, size_t max, ConstraintErrors* errors) {
  const size_t length = Utf8Length(text);
  if (length < 1) errors->Add(text, member, MinLengthConstraint(1));
  if (length > max) errors->Add(text, member, MaxLengthConstraint(max));
}

// "aws:" in any letter case: the reserved prefix is case-insensitive
// ("CloudFormation resource tagging": "This prefix is case-insensitive").
bool Reserved(const std::string& key) {
  static const char kPrefix[] = "aws:";
  if (key.size() < 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    if (std::tolower(static_cast<unsigned char>(key[i])) != kPrefix[i]) return false;
  }
  return true;
}

}  // namespace

Status CheckStackTags(const std::vector<StackTag>& tags) {
  ConstraintErrors errors;
  if (tags.size() > kMaxTags) errors.Add(TagsText(tags), "tags", MaxLengthConstraint(kMaxTags));
  for (size_t i = 0; i < tags.size(); ++i) {
    const std::string member = "tags." + std::to_string(i + 1) + ".member.";
    CheckLength(tags[i].key, member + "key", kMaxTagKey, &errors);
    CheckLength(tags[i].value, member + "value", kMaxTagValue, &errors);
  }
  MS_RETURN_IF_ERROR(errors.ToStatus());
  for (const StackTag& t : tags) {
    if (Reserved(t.key)) return Status::Validation("aws: prefixed tag key names are not allowed for external use.");
  }
  return Status::OK();
}

}  // namespace ms
