// How drift detection compares a resource's expected properties (as last
// deployed: evaluated and coerced) with the actual ones a provider's `read`
// reports, as CloudFormation does:
// - only properties the template sets are checked (a property the provider
//   reports that the template leaves out is a default, not drift);
// - scalars compare by their text (AWS normalises 5 and "5", true and
//   "true"); a JSON string compares with the object it encodes (a policy
//   document given as text or as an object);
// - inside a set property, map keys only on one side are ADD or REMOVE;
// - lists of tags ({Key, Value} maps) are matched by Key, in any order, and
//   AWS's own tags ("aws:" keys) are never an ADD, nor are the stack's tags
//   (create-stack --tags) with their stack values where the template's list
//   leaves them out: CloudFormation put them there (AWS reported them as
//   drift until 2022, cloudformation-coverage-roadmap#218, not since); other
//   lists are equal when they hold the same elements in any order, else
//   compared element by element (extra elements ADD, missing ones REMOVE).
// Paths are JSON Pointers from the properties: "/Tags/0/Value" (a tag's
// index is its index in the expected list; an added one's in the actual).
#pragma once

#include <vector>

#include "records/drift.h"
#include "records/stack.h"
#include "template/value.h"

namespace ms {

// The differences between `expected` and `actual` (both property maps), in
// the order of the expected properties; empty: in sync.
// `stack_tags`: the stack's tags (see above).
std::vector<PropertyDifference> CompareProperties(const Value& expected, const Value& actual,
                                                  const std::vector<StackTag>& stack_tags = {});

// ExpectedValue / ActualValue's text of a value: a scalar's text, else JSON.
std::string DriftValueText(const Value& v);

}  // namespace ms
