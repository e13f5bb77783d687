// Where `{{resolve:ssm-secure:...}}` may appear: only in the resource
// properties AWS lists ("Resources that support dynamic parameter patterns
// for secure strings", CloudFormation User Guide): IAM users' login password,
// RDS / Redshift master passwords, ElastiCache's AuthToken, ... Anywhere else
// (a Lambda environment variable, a custom resource) the request is refused,
// synchronously, with AWS's "SSM Secure reference is not supported in:
// [AWS::Lambda::Function/Properties/Environment/Variables/API_KEY]", every
// place listed.
#pragma once

#include "base/status.h"
#include "template/template.h"

namespace ms {

Status CheckSecureReferencePlaces(const Template& t);

}  // namespace ms
