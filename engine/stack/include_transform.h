// AWS::Include: template snippets kept in S3, inserted where a template
// names them (CloudFormation user guide, "AWS::Include transform"). A
// create, an update or a change set processes its template this way before
// anything checks it, and the stack keeps the processed template (what
// GetTemplate answers by default, TemplateStage Processed) beside the one
// submitted. ValidateTemplate and GetTemplateSummary do not run it
// (template/include_declarations.h).
//
//   Transform: {Name: AWS::Include, Parameters: {Location: s3://B/K}}
//       (alone or an item of the Transform list): the snippet's keys join
//       the template's top level, and the entry leaves the Transform list;
//   {"Fn::Transform": {Name: AWS::Include, Parameters: {Location: ...}}}
//       as a key of a map (Resources, a resource, its Properties, Mappings,
//       ...) or a value of its own: the snippet's keys take its place.
// Not in the Parameters section. The snippet is read from the simulated S3
// (ProviderSession::S3Object), must be a JSON or YAML object and may not
// use AWS::Include itself.
//
// AWS's messages: "Transform AWS::Include failed with: The location
// parameter is not a valid S3 uri.", "Transform AWS::Include failed with:
// The specified S3 object's content should be valid Yaml/JSON." (also for a
// snippet that includes another). Unverified: an object S3 will not give is
// "Transform AWS::Include failed with: " and S3's message; a snippet key the
// map already has fails the request (AWS's answer to that was not found).
#pragma once

#include <string>

#include "base/status.h"
#include "stack/operation.h"

namespace ms {

// Replaces *body with its processed text (JSON) when it uses AWS::Include;
// leaves it as it is otherwise. *included: whether it did.
Status ExpandIncludes(const OperationContext& ctx, std::string* body, bool* included);

}  // namespace ms
