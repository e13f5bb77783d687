// Walking botocore shapes (service_models.h) to turn the wire's documents
// into the sim's request shape (a Value keyed by member names) and the sim's
// answer back into the wire's document, one function pair per document kind:
// a query form (query and ec2 protocols), XML (responses of query/ec2,
// rest-xml both ways), JSON (json and rest-json).
#pragma once

#include <map>
#include <string>

#include "server/service_models.h"
#include "server/xml.h"
#include "server/xml_reader.h"
#include "template/value.h"

namespace ms::server {

// A member or list/map element reference: {"shape", "locationName", "flattened", ...}.
using ShapeRef = ModelJson;

// The shape a reference names (an empty object when the model lacks it).
const ModelJson& ShapeOf(const ServiceModel& m, const ShapeRef& ref);
std::string RefString(const ShapeRef& ref, const char* key);
// A scalar of type `type` from its text: booleans and numbers typed, blobs
// base64-decoded when `base64_blobs`, timestamps as the sim keeps them (ISO).
Value ScalarFromText(const std::string& type, const std::string& text, bool base64_blobs);
// A scalar as text for XML or a header: booleans "true"/"false", blobs
// base64 when `base64_blobs`, timestamps in `timestamp_format`.
std::string ScalarToText(const std::string& type, const Value& v, bool base64_blobs,
                         const std::string& timestamp_format);

// Query forms: the members of `shape` read from `form` under `prefix` ("" at
// the top). `ec2`: the ec2 protocol's names (queryName, capitalized
// locationName) and lists (Name.N).
Value ReadQueryForm(const ServiceModel& m, const ModelJson& shape, const std::map<std::string, std::string>& form,
                    bool ec2);

// XML: the members of `value` (a structure of `shape`) as child elements.
void WriteXmlMembers(const ServiceModel& m, const ModelJson& shape, const Value& value, XmlWriter* w);
// XML: a structure of `shape` from `element`'s children.
Value ReadXmlMembers(const ServiceModel& m, const ModelJson& shape, const XmlElement& element);

// JSON: `value` as the wire's JSON for `shape` (timestamps in epoch
// seconds, blobs in base64), appended to *out.
void WriteJson(const ServiceModel& m, const ModelJson& shape, const Value& value, std::string* out);
// JSON: the wire's parsed JSON for `shape` in the sim's shape (timestamps ISO, blobs decoded).
Value ReadJson(const ServiceModel& m, const ModelJson& shape, const Value& wire);

// The sim's answer with its lists as lists: Lua cannot tell an empty list
// from an empty table, so an empty map where `shape` (an operation's
// output, a structure) has a list becomes an empty list, at any depth.
// What the JSON of `moonstack world call` shows; the wire encoders walk the
// shapes themselves. Members the model lacks are kept as they are.
Value ListsByShape(const ServiceModel& m, const ModelJson& shape, const Value& value);

}  // namespace ms::server
