// QueryRequest: the parameters of an AWS Query API request (a form-encoded
// POST body: Action=DescribeStacks&Version=2010-05-15&StackName=web), with
// the protocol's list encoding: `Capabilities.member.1=...`, and lists of
// structures as `Parameters.member.1.ParameterKey=...`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ms::server {

// Decodes application/x-www-form-urlencoded text ('+' is a space, %XX a
// byte) into *params. False, with the name in *duplicate, when a name comes
// twice (Action=A&Action=B), or is in *params already (a request's URL query
// and its body are read into one map): the request is refused rather than
// one of the values picked.
bool ParseForm(std::string_view text, std::map<std::string, std::string>* params, std::string* duplicate);

// The region of a SigV4 Authorization header's credential scope
// ("Credential=AKID/20240101/eu-west-1/cloudformation/aws4_request"), or
// `fallback` when there is none. The signature itself is not checked.
std::string RegionFromAuthorization(std::string_view header, const std::string& fallback);

// The account a request is for: its access key ID when that is 12 digits
// (as LocalStack reads it: `aws_access_key_id=111122223333` works in that
// account), else `fallback` (records/stack_scope.h's default).
std::string AccountOfAccessKey(std::string_view access_key_id, const std::string& fallback);
// The same from a SigV4 Authorization header ("Credential=AKID/...").
std::string AccountFromAuthorization(std::string_view header, const std::string& fallback);

class QueryRequest {
 public:
  explicit QueryRequest(std::map<std::string, std::string> params) : params_(std::move(params)) {}

  // The value of `name`, or "" when absent.
  std::string Get(const std::string& name) const;
  std::optional<std::string> Find(const std::string& name) const;
  bool Has(const std::string& name) const { return params_.count(name) != 0; }
  // "true" (any case) is true; absent or anything else is false.
  bool Flag(const std::string& name) const;
  // name.member.1, name.member.2, ... until the first gap.
  std::vector<std::string> List(const std::string& name) const;
  // The structures of name.member.N.<field>: one map (field -> value) per N,
  // from 1 until the first N with no field at all.
  std::vector<std::map<std::string, std::string>> Structs(const std::string& name) const;

 private:
  std::map<std::string, std::string> params_;
};

}  // namespace ms::server
