// ResourceSchemas: each AWS resource type's property schema, as JSON text.
//
// The data is engine/catalog/aws_resource_schemas.jsonl (one JSON object per
// type, format in tools/gen_resource_catalog.py), embedded at build time like
// the catalog (engine/catalog/embed.cmake). Nothing is parsed at start-up:
// the first lookup indexes the lines by type (one pass over the embedded
// text, no JSON parsing), and callers parse only the types they use
// (host/lua hands a type's schema to lib/generic.lua when it first serves
// that type).
#pragma once

#include <string_view>

namespace ms {

class ResourceSchemas {
 public:
  // The JSON line of `type` (an object whose first key is "type"), or an
  // empty view when the type has none. The view stays valid for the life of
  // the process. Thread-safe.
  static std::string_view Json(std::string_view type);

  // Whether the type's registry schema says it is taggable
  // (tagging.taggable): CloudFormation propagates the stack's tags to it.
  static bool Taggable(std::string_view type);

  // How many types have a schema (indexes on first use).
  static size_t size();
};

}  // namespace ms
