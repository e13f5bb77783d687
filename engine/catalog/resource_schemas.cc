#include "catalog/resource_schemas.h"

#include <string>
#include <unordered_map>

#include "catalog/embedded_text.h"

// Defined in the .cc that engine/catalog/embed.cmake generates from
// aws_resource_schemas.jsonl: the file's text as consecutive chunks.
namespace ms::catalog_data {
extern const char* const kAwsResourceSchemasChunks[];
extern const size_t kAwsResourceSchemasChunkSizes[];
extern const size_t kAwsResourceSchemasChunkCount;
}  // namespace ms::catalog_data

namespace ms {
namespace {

// Every line begins {"type":"<TYPE>", (the generator writes "type" first).
constexpr std::string_view kLinePrefix = "{\"type\":\"";

struct Index {
  std::string text;  // the whole file: chunks joined once
  std::unordered_map<std::string_view, std::string_view> by_type;
};

const Index& TheIndex() {
  // Leaked on purpose, like ResourceCatalog::Aws(): usable during static
  // destruction.
  static const Index* const index = [] {
    auto* idx = new Index();
    idx->text = JoinEmbeddedChunks(catalog_data::kAwsResourceSchemasChunks,
                                   catalog_data::kAwsResourceSchemasChunkSizes,
                                   catalog_data::kAwsResourceSchemasChunkCount);
    std::string_view rest = idx->text;
    while (!rest.empty()) {
      size_t end = rest.find('\n');
      std::string_view line = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      if (line.substr(0, kLinePrefix.size()) != kLinePrefix) continue;
      size_t close = line.find('"', kLinePrefix.size());
      if (close == std::string_view::npos) continue;
      idx->by_type.emplace(line.substr(kLinePrefix.size(), close - kLinePrefix.size()), line);
    }
    return idx;
  }();
  return *index;
}

}  // namespace

std::string_view ResourceSchemas::Json(std::string_view type) {
  const Index& idx = TheIndex();
  auto it = idx.by_type.find(type);
  return it == idx.by_type.end() ? std::string_view() : it->second;
}

bool ResourceSchemas::Taggable(std::string_view type) {
  // The generator writes the schema's tagging.taggable as the line's
  // top-level "taggable":true, and keeps no keyword of that name inside a
  // property's schema (tools/gen_resource_catalog.py, KEPT): the text
  // decides without parsing the line.
  return Json(type).find("\"taggable\":true") != std::string_view::npos;
}

size_t ResourceSchemas::size() { return TheIndex().by_type.size(); }

}  // namespace ms
