// A TemplateURL that names this server's own S3. The CDK builds a stack's
// TemplateURL from the S3 client's endpoint (aws-cdk's restUrlFromManifest:
// "<endpoint origin>/<bucket>/<key>"), so with AWS_ENDPOINT_URL set it sends
// http://127.0.0.1:4581/BUCKET/KEY, the object it has just uploaded here.
// The engine reads S3 URLs only (stack/template_url.h); this turns such a
// URL into the path-style https://s3.amazonaws.com/BUCKET/KEY it reads from
// the same simulated S3.
#pragma once

#include <string>

#include "server/request_guard.h"

namespace ms::server {

// `url` unchanged unless it is http(s)://HOST[:PORT]/BUCKET/KEY with HOST a
// name this server answers (`policy`, as the request guard decides) and
// PORT its `port` (80 or 443 when absent, by scheme).
std::string ServedTemplateUrl(const std::string& url, const GuardPolicy& policy, int port);

}  // namespace ms::server
