// TemplateURL: where CreateStack, UpdateStack, CreateChangeSet,
// ValidateTemplate, GetTemplateSummary and AWS::CloudFormation::Stack find a
// template that is not given as TemplateBody.
//
// Accepted, as AWS accepts them: an S3 object's URL, virtual-hosted
// (https://BUCKET.s3.amazonaws.com/KEY, https://BUCKET.s3.REGION.amazonaws.com/KEY,
// https://BUCKET.s3-REGION.amazonaws.com/KEY) or path-style
// (https://s3.amazonaws.com/BUCKET/KEY, https://s3.REGION.amazonaws.com/BUCKET/KEY,
// https://s3-REGION.amazonaws.com/BUCKET/KEY), read from the simulated S3
// with its GetObject (through ProviderSession::S3Object: the engine never
// runs the sim itself); and, where the context allows it (the embedded CLI,
// never `serve`), file://PATH.
//
// AWS's messages: "TemplateURL must be a supported URL.", "S3 error: Domain
// name specified in B is not a valid S3 domain" (an s3:// URL), S3's own
// error after "S3 error: ", "Template may not exceed 1048576 bytes in size.".
#pragma once

#include <string>

#include "base/status.h"
#include "stack/operation.h"

namespace ms {

// The largest template a TemplateURL may name (AWS's quota: 1 MB).
inline constexpr size_t kMaxTemplateUrlBytes = 1048576;

struct TemplateLocation {
  std::string file_path;  // file://PATH (allowed contexts only); else empty
  std::string bucket;
  std::string key;        // percent-decoded, without the query string
};

// Splits a TemplateURL; AWS's ValidationError when it names no S3 object
// (or a file where files are not allowed).
Status ParseTemplateUrl(const std::string& url, bool allow_file, TemplateLocation* out);

// Reads the template `url` names (ctx.allow_file_template_urls says
// whether file:// is one).
Status ReadTemplateUrl(const OperationContext& ctx, const std::string& url, std::string* body);

}  // namespace ms
