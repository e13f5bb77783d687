#include "catalog/resource_catalog.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "catalog/embedded_text.h"

// Defined in the .cc that engine/catalog/embed.cmake generates from
// aws_resource_types.tsv: the file's text as consecutive chunks.
namespace ms::catalog_data {
extern const char* const kAwsResourceTypesChunks[];
extern const size_t kAwsResourceTypesChunkSizes[];
extern const size_t kAwsResourceTypesChunkCount;
}  // namespace ms::catalog_data

namespace ms {
namespace {

// '*' matches any run of characters (including none and dots).
bool GlobMatch(std::string_view pattern, std::string_view s) {
  size_t p = 0, i = 0, star = std::string_view::npos, mark = 0;
  while (i < s.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = i;
    } else if (p < pattern.size() && pattern[p] == s[i]) {
      ++p;
      ++i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Splits off the text up to `sep` (or the end) and advances `s` past it.
std::string_view NextField(std::string_view& s, char sep) {
  size_t pos = s.find(sep);
  std::string_view field = s.substr(0, pos);
  s = pos == std::string_view::npos ? std::string_view() : s.substr(pos + 1);
  return field;
}

bool ParseLine(std::string_view line, ResourceTypeInfo* info, std::string* error) {
  std::string_view rest = line;
  std::string_view type = NextField(rest, '\t');
  std::string_view flags = NextField(rest, '\t');
  std::string_view attrs = NextField(rest, '\t');
  std::string_view props = rest;
  if (type.empty() || flags.empty() || props.find('\t') != std::string_view::npos) {
    *error = "malformed catalog line: " + std::string(line.substr(0, 80));
    return false;
  }
  info->type.assign(type);
  for (char f : flags) {
    if (f == 'P') info->open_properties = true;
  }
  while (!attrs.empty()) {
    std::string_view a = NextField(attrs, ',');
    if (a.empty()) continue;
    if (a.find('*') != std::string_view::npos) {
      info->attribute_patterns.emplace_back(a);
    } else {
      info->attributes.emplace_back(a);
    }
  }
  while (!props.empty()) {
    std::string_view p = NextField(props, ',');
    if (p.empty()) continue;
    ResourceTypeInfo::Property prop;
    size_t colon = p.find(':');
    prop.name.assign(p.substr(0, colon));
    if (colon != std::string_view::npos) {
      for (char f : p.substr(colon + 1)) {
        switch (f) {
          case 'R': prop.required = true; break;
          case 'C': prop.create_only = true; break;
          case 'c': prop.create_only_nested = true; break;
          case 'O': prop.read_only = true; break;
          case 'W': prop.write_only = true; break;
          case 'N': prop.names_resource = true; break;
          default:
            *error = "unknown property flag in catalog line for " + info->type;
            return false;
        }
      }
    }
    if (prop.names_resource) info->name_property = prop.name;
    info->properties.push_back(std::move(prop));
  }
  auto by_name = [](const ResourceTypeInfo::Property& a, const ResourceTypeInfo::Property& b) {
    return a.name < b.name;
  };
  if (!std::is_sorted(info->attributes.begin(), info->attributes.end())) {
    std::sort(info->attributes.begin(), info->attributes.end());
  }
  if (!std::is_sorted(info->properties.begin(), info->properties.end(), by_name)) {
    std::sort(info->properties.begin(), info->properties.end(), by_name);
  }
  return true;
}

}  // namespace

bool ResourceTypeInfo::HasAttribute(std::string_view name) const {
  if (name.empty()) return false;
  if (std::binary_search(attributes.begin(), attributes.end(), name,
                         [](const auto& a, const auto& b) { return std::string_view(a) < std::string_view(b); })) {
    return true;
  }
  for (const std::string& pattern : attribute_patterns) {
    if (GlobMatch(pattern, name)) return true;
  }
  return false;
}

bool ResourceTypeInfo::AcceptsAnyAttribute() const {
  for (const std::string& pattern : attribute_patterns) {
    if (pattern == "*") return true;
  }
  return false;
}

const ResourceTypeInfo::Property* ResourceTypeInfo::FindProperty(std::string_view name) const {
  auto it = std::lower_bound(properties.begin(), properties.end(), name,
                             [](const Property& p, std::string_view n) { return std::string_view(p.name) < n; });
  if (it == properties.end() || it->name != name) return nullptr;
  return &*it;
}

bool ResourceCatalog::Parse(std::string_view text, ResourceCatalog* out, std::string* error) {
  ResourceCatalog catalog;
  catalog.types_.reserve(std::count(text.begin(), text.end(), '\n') + 1);
  while (!text.empty()) {
    std::string_view line = NextField(text, '\n');
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    ResourceTypeInfo info;
    if (!ParseLine(line, &info, error)) return false;
    catalog.types_.push_back(std::move(info));
  }
  std::sort(catalog.types_.begin(), catalog.types_.end(),
            [](const ResourceTypeInfo& a, const ResourceTypeInfo& b) { return a.type < b.type; });
  catalog.index_.reserve(catalog.types_.size());
  for (size_t i = 0; i < catalog.types_.size(); ++i) {
    if (!catalog.index_.emplace(catalog.types_[i].type, i).second) {
      *error = "duplicate catalog type " + catalog.types_[i].type;
      return false;
    }
  }
  auto custom = catalog.index_.find("AWS::CloudFormation::CustomResource");
  if (custom != catalog.index_.end()) catalog.custom_resource_ = custom->second;
  *out = std::move(catalog);
  return true;
}

std::string ResourceCatalog::AwsText() {
  return JoinEmbeddedChunks(catalog_data::kAwsResourceTypesChunks, catalog_data::kAwsResourceTypesChunkSizes,
                            catalog_data::kAwsResourceTypesChunkCount);
}

const ResourceCatalog& ResourceCatalog::Aws() {
  // Leaked on purpose: usable during static destruction of other objects.
  static const ResourceCatalog* const catalog = [] {
    auto* c = new ResourceCatalog();
    std::string error;
    if (!Parse(AwsText(), c, &error)) {
      // The embedded data is generated and committed: failing here is a build defect.
      std::fprintf(stderr, "moonstack: embedded AWS resource catalog is invalid: %s\n", error.c_str());
      std::abort();
    }
    return c;
  }();
  return *catalog;
}

bool ResourceCatalog::IsCustomType(std::string_view type) {
  constexpr std::string_view kPrefix = "Custom::";
  if (type.size() <= kPrefix.size() || type.substr(0, kPrefix.size()) != kPrefix) return false;
  std::string_view name = type.substr(kPrefix.size());
  if (name.size() > 60) return false;
  for (char ch : name) {
    bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
              ch == '@' || ch == '-';
    if (!ok) return false;
  }
  return true;
}

const ResourceTypeInfo* ResourceCatalog::Find(std::string_view type) const {
  auto it = index_.find(type);
  if (it != index_.end()) return &types_[it->second];
  if (custom_resource_ < types_.size() && IsCustomType(type)) return &types_[custom_resource_];
  return nullptr;
}

}  // namespace ms
