// Dynamic references in resource properties, resolved when the resource is
// created or updated (as CloudFormation does):
//   {{resolve:ssm:NAME[:VERSION]}}          a String / StringList parameter
//   {{resolve:ssm-secure:NAME[:VERSION]}}   a SecureString parameter (only in
//                                           the properties AWS lists: see
//                                           secure_reference_places.h)
//   {{resolve:secretsmanager:SECRET-ID[:SecretString[:JSON-KEY[:VERSION-STAGE[:VERSION-ID]]]]}}
//       SECRET-ID a name or a full ARN; the JSON key picks one value of a
//       JSON-object secret; the version defaults to AWSCURRENT.
// The values come from the simulated SSM and Secrets Manager through the
// provider session (`SessionResolvers`). Secure values never reach events:
// the resource's events show the reference (`HasSecureReference`).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "provider/provider.h"
#include "template/value.h"

namespace ms {

// name (with ":VERSION" when given) -> value; false when there is no such parameter.
using SsmResolver = std::function<bool(std::string_view name, std::string* value)>;
// (secret id, version stage, version id) -> SecretString, or false with Secrets Manager's message.
using SecretResolver = std::function<bool(std::string_view secret_id, std::string_view version_stage,
                                          std::string_view version_id, std::string* value, std::string* error)>;

struct DynamicReferenceResolvers {
  SsmResolver ssm;
  SsmResolver ssm_secure;
  SecretResolver secret;
};

// Replaces every dynamic reference inside the strings of `v`.
Status ResolveDynamicReferences(Value* v, const DynamicReferenceResolvers& resolvers);
// Only `{{resolve:ssm:...}}` resolvable (the others are not found).
Status ResolveDynamicReferences(Value* v, const SsmResolver& ssm);

// The resolvers reading `session`'s simulated world in `region`.
DynamicReferenceResolvers SessionResolvers(ProviderSession* session, const std::string& region,
                                           const std::string& account);

// Whether a string inside `v` holds an ssm-secure or secretsmanager reference.
bool HasSecureReference(const Value& v);
// Whether it holds any `{{resolve:...}}` reference (read only when the
// resource is made: the template's text is not the value).
bool HasDynamicReference(const Value& v);

}  // namespace ms
