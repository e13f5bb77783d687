// Custom-named resources: CloudFormation does not replace a resource whose
// template gives it a name (BucketName, TableName, ...) and keeps that name,
// since the new resource could not take a name the old one still holds.
// The resource fails the update (UPDATE_FAILED) with AWS's reason and the
// stack rolls back. Which property names a type's resources is catalog data
// (engine/catalog: the registry schema's name property), so a hand-written
// provider gets the same refusal as the generic one.
#pragma once

#include <string>

#include "template/value.h"

namespace ms {

// AWS's reason for refusing to replace a resource custom-named `name`.
// Source: AWS Knowledge Center "cloudformation-custom-name" and user reports
// ("CloudFormation cannot update a stack when a custom-named resource
// requires replacing. Rename mysite-api-phonenumber-dev and update the stack
// again.").
std::string CustomNamedReplacementMessage(const std::string& name);

// The refusal for replacing a resource of `type` going from `old_props` to
// `new_props`, or "" when the replacement may go ahead: the type has a name
// property, both set it, to the same value.
std::string CustomNamedReplacementRefusal(const std::string& type, const Value& old_props, const Value& new_props);

}  // namespace ms
