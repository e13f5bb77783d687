// The update tests' harness (update_test.cc, change_set_test.cc,
// stack_policy_update_test.cc): a StackService over an in-memory store, the
// update fakes (update_fakes.h) and a virtual clock, with seed 000's
// templates.
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "service_fixture.h"
#include "stack/stack_service.h"
#include "store/stack_tables.h"
#include "update_fakes.h"

namespace update_harness {

using ms::StackRecord;
using ms::StackService;
using ms::Status;
using Lines = std::vector<std::string>;

struct Harness : ms::testing::ServiceFixture<ms::testing::UpdFakeProviders> {
  std::string Create(const std::string& name, const std::string& body,
                     std::vector<ms::ParameterInput> params = {}) {
    ms::CreateStackInput in;
    in.stack_name = name;
    in.template_body = body;
    in.parameters = std::move(params);
    const std::string id = CreateWith(in);
    REQUIRE(ms::StackStatusName(Stack(id).status) == std::string("CREATE_COMPLETE"));
    return id;
  }

  Status StartUpdate(const std::string& name, const std::string& body, std::vector<ms::ParameterInput> params = {}) {
    ms::UpdateStackInput in;
    in.stack_name = name;
    in.template_body = body;
    in.use_previous_template = body.empty();
    in.parameters = std::move(params);
    std::string id;
    return service->StartUpdate(in, &id);
  }

  // update-stack run to the end; returns the events it made.
  Lines Update(const std::string& id, const std::string& body, std::vector<ms::ParameterInput> params = {}) {
    const size_t before = Events(id).size();
    Status s = StartUpdate(id, body, std::move(params));
    INFO(s.message());
    REQUIRE(s.ok());
    s = service->Run(id);
    INFO(s.message());
    REQUIRE(s.ok());
    return Events(id, before);
  }

  StackRecord Stack(const std::string& name_or_id) {
    StackRecord s;
    REQUIRE(service->FindStack(name_or_id, &s).ok());
    return s;
  }

  // logical ID -> "STATUS physical_id"
  std::map<std::string, std::string> Resources(const std::string& id) {
    std::vector<ms::ResourceRecord> rs;
    REQUIRE(service->Resources(id, &rs).ok());
    std::map<std::string, std::string> out;
    for (const auto& r : rs) out[r.logical_id] = std::string(ms::ResourceStatusName(r.status)) + " " + r.physical_id;
    return out;
  }

  Lines Events(const std::string& id, size_t from = 0) {
    std::vector<ms::StackEvent> events;
    REQUIRE(service->Events(id, &events).ok());
    Lines out;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      out.push_back(it->logical_id + " " + it->status + (it->reason.empty() ? "" : " " + it->reason));
    }
    return Lines(out.begin() + static_cast<long>(from), out.end());
  }

  // The physical IDs of the events "<logical> <status>", oldest first.
  std::vector<std::string> EventPhysicalIds(const std::string& id, const std::string& logical_and_status) {
    std::vector<ms::StackEvent> events;
    REQUIRE(service->Events(id, &events).ok());
    std::vector<std::string> out;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if (it->logical_id + " " + it->status == logical_and_status) out.push_back(it->physical_id);
    }
    return out;
  }
};

inline ms::ParameterInput P(const std::string& k, const std::string& v) { return {k, v, false}; }

// Seed 000 runs 4-6: two instances using two parameters.
inline constexpr const char* kTwo = R"({
  "Parameters": {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String"}},
  "Resources": {
    "Instance1": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}},
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}}
  }})";
inline constexpr const char* kTwoNext = R"({
  "Parameters": {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String"}},
  "Resources": {
    "Instance2": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}},
    "Instance3": {"Type": "Test::Upd::Thing", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}, "CreateSeconds": 10}}
  }})";

// Seed 000 runs 7, 8: VPC <- Subnet <- Instance1.
inline constexpr const char* kNet = R"({
  "Parameters": {"CidrBlock": {"Type": "String"}, "ImageId": {"Type": "String"}},
  "Resources": {
    "VPC": {"Type": "Test::Upd::Thing", "Properties": {"CidrBlock": {"Ref": "CidrBlock"}}},
    "Subnet": {"Type": "Test::Upd::Thing", "Properties": {"VpcId": {"Ref": "VPC"}}},
    "Instance1": {"Type": "Test::Upd::Thing", "Properties": {"SubnetId": {"Ref": "Subnet"}, "ImageId": {"Ref": "ImageId"}}}
  }})";

// Seed 000 runs 9, 10: Role <- Policy (through an attribute).
inline std::string RolePolicy(const std::string& role_props) {
  return R"({"Resources": {
    "Role": {"Type": "Test::Upd::Thing", "Properties": )" + role_props + R"(},
    "Policy": {"Type": "Test::Upd::Thing", "Properties": {"Roles": [{"Fn::GetAtt": ["Role", "Arn"]}]}}
  }})";
}

}  // namespace update_harness
