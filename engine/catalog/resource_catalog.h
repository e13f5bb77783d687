// ResourceCatalog: what AWS knows about resource types.
//
// For every AWS resource type in us-east-1: the attributes Fn::GetAtt accepts
// and the top-level properties with their registry-schema flags (required,
// create-only = "update requires replacement", read-only, write-only).
//
// The data is engine/catalog/aws_resource_types.tsv, generated from cfn-lint's
// copy of the CloudFormation registry schemas by tools/gen_resource_catalog.py
// and embedded into the library at build time (engine/catalog/embed.cmake), so
// nothing is read from disk at run time.
//
// Open-ended types:
//  - Custom::<Name> and AWS::CloudFormation::CustomResource accept any
//    attribute (and any property);
//  - AWS::CloudFormation::Stack accepts Outputs.<Name>.
// Module types (A::B::C::MODULE) are not in the catalog: Find returns nullptr.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ms {

struct ResourceTypeInfo {
  struct Property {
    std::string name;
    bool required = false;
    bool create_only = false;         // changing it requires replacement
    bool create_only_nested = false;  // some path below it is create-only
    bool read_only = false;           // output only: a template may not set it
    bool write_only = false;          // never returned (so never a GetAtt value)
    bool names_resource = false;      // the resource's custom name (BucketName, QueueName, ...)
  };

  std::string type;                             // e.g. "AWS::KMS::Key"
  std::vector<std::string> attributes;          // exact GetAtt names, sorted ("Endpoint.Address")
  std::vector<std::string> attribute_patterns;  // globs: '*' matches any run of characters
  std::vector<Property> properties;             // top-level, sorted by name
  bool open_properties = false;                 // accepts property names not listed
  // The property that names the resource (BucketName, QueueName, ...), empty
  // when the type takes no custom name. A resource that sets it is
  // "custom-named": CloudFormation refuses to replace it under that name.
  std::string name_property;

  // True when Fn::GetAtt [<resource of this type>, name] names a known attribute.
  bool HasAttribute(std::string_view name) const;
  // True when any attribute is accepted (custom resources).
  bool AcceptsAnyAttribute() const;
  // nullptr when the type has no such top-level property.
  const Property* FindProperty(std::string_view name) const;
};

class ResourceCatalog {
 public:
  // The embedded AWS catalog, parsed on first use (thread-safe).
  static const ResourceCatalog& Aws();

  // The embedded catalog text (the .tsv file's contents).
  static std::string AwsText();

  // Parses catalog text (format: tools/gen_resource_catalog.py). Returns false
  // and sets *error on malformed input.
  static bool Parse(std::string_view text, ResourceCatalog* out, std::string* error);

  ResourceCatalog() = default;
  ResourceCatalog(ResourceCatalog&&) = default;
  ResourceCatalog& operator=(ResourceCatalog&&) = default;
  ResourceCatalog(const ResourceCatalog&) = delete;
  ResourceCatalog& operator=(const ResourceCatalog&) = delete;

  // The type's entry, or nullptr when AWS does not know the type. Any valid
  // Custom::<Name> (alphanumerics and _@-, at most 60 characters) yields the
  // entry of AWS::CloudFormation::CustomResource.
  const ResourceTypeInfo* Find(std::string_view type) const;

  // All types, sorted by name.
  const std::vector<ResourceTypeInfo>& types() const { return types_; }
  size_t size() const { return types_.size(); }

  // "Custom::<Name>" with a valid name.
  static bool IsCustomType(std::string_view type);

 private:
  std::vector<ResourceTypeInfo> types_;
  // Keys view types_[i].type; types_ is never modified after Parse, and moving
  // a vector keeps its elements in place.
  std::unordered_map<std::string_view, size_t> index_;
  size_t custom_resource_ = static_cast<size_t>(-1);
};

}  // namespace ms
