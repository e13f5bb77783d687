// XmlElement: the XML request bodies of the rest-xml protocol (S3's
// <Delete>, <CompleteMultipartUpload>, <CreateBucketConfiguration>, ...)
// read into a tree. Elements, text and the five entities and numeric
// references; attributes, comments, processing instructions and DOCTYPEs are
// skipped. Not a validating parser: what S3 would refuse as MalformedXML is
// refused here too (unclosed or mismatched tags, text outside the root).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ms::server {

struct XmlElement {
  std::string name;  // local name: a namespace prefix is dropped
  std::string text;  // the element's own text, entities decoded
  std::vector<XmlElement> children;

  // The first child named `name`, or nullptr.
  const XmlElement* Child(std::string_view child_name) const;
};

// The document's root element; false (and *error) when it is not well formed.
bool ParseXml(std::string_view text, XmlElement* root, std::string* error);

}  // namespace ms::server
