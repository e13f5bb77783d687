// AWS::Include's declarations as the template language sees them, before
// (or without) running the transform: stack/include_transform.h runs it for
// a create, an update or a change set; ValidateTemplate and
// GetTemplateSummary only declare it, as AWS does (DeclaredTransforms
// ["AWS::Include"], no snippet fetched), and check what the template says
// without its snippets (LoadTemplateDeclarations).
#pragma once

#include <vector>

#include "base/status.h"
#include "template/template.h"
#include "template/value.h"

namespace ms {

inline constexpr int kMaxIncludeDepth = 200;  // a template nested deeper is refused by the parsers first

// {"Name": "AWS::Include", "Parameters": {...}}: an include's declaration.
bool IsIncludeDeclaration(const Value& v);

// Moves a Transform section's entries (one transform, or a list of them)
// into its include declarations and the other transforms, each in order.
void SplitTransforms(Value* section, std::vector<Value>* includes, std::vector<Value>* others);

// Whether `v` declares an include anywhere: in a Transform section (alone or
// an item of its list) or as a map's Fn::Transform.
bool DeclaresInclude(const Value& v);

// The parts of a template whose snippets are not inserted: its format
// version, description, metadata, parameters, transforms (its includes as
// one "AWS::Include") and the resources it names itself (type, properties and
// metadata as written, nothing evaluated). No resource is required and no
// reference checked: the snippets may hold what they name.
Status LoadTemplateDeclarations(Value root, Template* out);

}  // namespace ms
