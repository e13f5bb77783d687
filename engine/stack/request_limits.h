// AWS's limits on what a stack request carries besides its template and
// parameters (those are checked where they are read: template/, eval/):
// stack tags. Checked synchronously, before anything is saved.
#pragma once

#include <vector>

#include "base/status.h"
#include "records/stack.h"

namespace ms {

// CreateStack / CreateChangeSet Tags (API reference, Tag and CreateStack):
// at most 50 tags; a key 1 to 128 characters, a value 1 to 256. AWS's
// wording: "1 validation error detected: Value '...' at
// 'tags.1.member.value' failed to satisfy constraint: Member must have
// length less than or equal to 256" (szuecs/kube-static-egress-controller#35),
// every violation listed. Then a key starting with "aws:" (any case), AWS's
// reserved prefix: "aws: prefixed tag key names are not allowed for external
// use." (what CreateStack answered in aws-quickstart/quickstart-amazon-eks#42).
Status CheckStackTags(const std::vector<StackTag>& tags);

}  // namespace ms
