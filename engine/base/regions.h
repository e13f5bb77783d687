// AWS's region names, as botocore's endpoints.json lists them (every
// partition), and what AWS answers a request scoped to another name.
#pragma once

#include <string>
#include <string_view>

namespace ms {

// True for a region AWS has (us-east-1, eu-west-3, cn-north-1, us-gov-west-1, ...).
bool IsAwsRegion(std::string_view region);

// AWS's answer to a request whose SigV4 credential scope names a region it
// does not have (error code SignatureDoesNotMatch, HTTP 403):
// "Credential should be scoped to a valid region, not 'us-foo-1'. " — the
// trailing space is AWS's.
std::string InvalidRegionMessage(std::string_view region);
inline constexpr const char* kInvalidRegionCode = "SignatureDoesNotMatch";

}  // namespace ms
