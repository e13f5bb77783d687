#include "stack/secure_reference_places.h"

#include <string>
#include <vector>

namespace ms {
namespace {

// type, property path (list items skipped): AWS's table, in its order.
struct Place {
  std::string_view type;
  std::string_view path;
};
constexpr Place kPlaces[] = {
    {"AWS::DirectoryService::MicrosoftAD", "Password"},
    {"AWS::DirectoryService::SimpleAD", "Password"},
    {"AWS::ElastiCache::ReplicationGroup", "AuthToken"},
    {"AWS::IAM::User", "LoginProfile/Password"},
    {"AWS::KinesisFirehose::DeliveryStream", "RedshiftDestinationConfiguration/Password"},
    {"AWS::OpsWorks::App", "AppSource/Password"},
    {"AWS::OpsWorks::Stack", "CustomCookbooksSource/Password"},
    {"AWS::OpsWorks::Stack", "RdsDbInstances/DbPassword"},
    {"AWS::RDS::DBCluster", "MasterUserPassword"},
    {"AWS::RDS::DBInstance", "MasterUserPassword"},
    {"AWS::Redshift::Cluster", "MasterUserPassword"},
};

bool Allowed(std::string_view type, std::string_view path) {
  for (const Place& p : kPlaces) {
    if (p.type == type && p.path == path) return true;
  }
  return false;
}

// An intrinsic function's key (its arguments belong to the property holding it).
bool IsFunction(const Value& v) {
  if (!v.is_map() || v.map().size() != 1) return false;
  const std::string& k = v.map()[0].key;
  return k == "Ref" || k.rfind("Fn::", 0) == 0;
}

// Every place under `v` (at `path`) holding an ssm-secure reference AWS does not allow.
void Collect(std::string_view type, const Value& v, const std::string& path, std::vector<std::string>* out) {
  if (v.is_string()) {
    if (v.str().find("{{resolve:ssm-secure:") != std::string::npos && !Allowed(type, path)) {
      out->push_back(std::string(type) + "/Properties/" + path);
    }
  } else if (v.is_list()) {
    for (const Value& item : v.list()) Collect(type, item, path, out);
  } else if (IsFunction(v)) {
    Collect(type, v.map()[0].value, path, out);
  } else if (v.is_map()) {
    for (const Member& m : v.map()) Collect(type, m.value, path.empty() ? m.key : path + "/" + m.key, out);
  }
}

}  // namespace

Status CheckSecureReferencePlaces(const Template& t) {
  std::vector<std::string> refused;
  for (const ResourceDecl& r : t.resources) {
    if (r.properties.is_map()) Collect(r.type, r.properties, "", &refused);
  }
  if (refused.empty()) return Status::OK();
  std::string list;
  for (const std::string& place : refused) list += (list.empty() ? "" : ",") + place;
  return Status::Validation("SSM Secure reference is not supported in: [" + list + "]");
}

}  // namespace ms
