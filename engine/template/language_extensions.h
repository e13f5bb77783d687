// The AWS::LanguageExtensions transform: Fn::ForEach.
//
// When the document's Transform (a string, or a list) names
// AWS::LanguageExtensions, ExpandLanguageExtensions replaces every
//
//   "Fn::ForEach::<LoopName>": [Identifier, Collection, {OutputKey: OutputValue}]
//
// in the Resources, Conditions and Outputs sections, at any depth (a loop in
// a resource's Properties produces properties), by one copy of the fragment
// per item of the collection, in collection order, at the loop's position.
// What the expansion substitutes, as measured against AWS (a plain string is
// NOT substituted, whatever the Fn::ForEach page suggests):
//   - ${Identifier} and &{Identifier} in the fragment's own keys (the
//     OutputKeys); &{} drops the item's non-alphanumeric characters. Keys
//     nested deeper in the fragment keep their placeholders.
//   - ${Identifier} in the string of an Fn::Sub (string or [string, map]
//     form); &{Identifier} there stays literal, ${!Identifier} is an escape.
//   - {"Ref": Identifier} becomes the item itself (a string).
//   - A Ref, a GetAtt argument or a resource's/output's Condition that is an
//     Fn::Sub with no variables left becomes that plain string, so
//     {"Ref": {"Fn::Sub": "Bucket${Name}"}} names one copy's logical ID.
// Loops nest; an inner loop sees the outer identifiers.
//
// A Collection is a literal list of scalars (a {"Ref": OuterIdentifier} item
// is allowed), a {"Ref": ListParameter} (resolved through list_parameter), or
// an Fn::FindInMap over the template's Mappings whose arguments are strings
// or Refs to identifiers.
//
// Errors carry AWS's prefix "Transform AWS::LanguageExtensions failed with: "
// (AWS reports them as the stack's status reason; the caller decides whether
// this is an API error or a failed operation). Measured sentences after the
// prefix: "Fn::ForEach layout is incorrect", "Could not find a collection or
// could not be resolved for Fn::ForEach", "OutputKey 'X' should be
// alphanumeric" (a produced logical ID, condition or output name). Duplicate
// keys, loops outside the three sections, duplicate loop names and missing
// identifiers in an OutputKey use moonstack's wording under the same prefix.
//
// Nothing else is changed: the Transform member stays (the loader handles
// other transforms and get-template shows the original anyway); intrinsic
// functions in DeletionPolicy/UpdateReplacePolicy, Fn::Length and
// Fn::ToJsonString are left for the evaluator. Without the transform the
// document is untouched (an Fn::ForEach key is then the loader's error).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "template/value.h"

namespace ms {

// True when root's Transform is or contains "AWS::LanguageExtensions".
bool UsesLanguageExtensions(const Value& root);

// Expands Fn::ForEach in place, as described above. list_parameter looks up
// a list-typed parameter's items by name (CommaDelimitedList, List<...>); it
// returns false when there is no such parameter or its value is not known.
// On error *root may be partly expanded.
Status ExpandLanguageExtensions(
    Value* root,
    const std::function<bool(std::string_view name, std::vector<std::string>* values)>&
        list_parameter);

}  // namespace ms
