// Drift detection (stack/drift_detection.h) over a C++ fake provider
// (drift_fakes.h) in virtual time: detections, resource drifts, filters and
// the describe calls' drift information, saved in the store.
#include <catch2/catch.hpp>

#include "drift_fakes.h"
#include "service_fixture.h"
#include "stack/drift_detection.h"
#include "template/parse.h"

namespace {

const char* kTemplate = R"({
  "Resources": {
    "Queue": {"Type": "Test::Drift::Thing", "Properties": {"Size": 5, "Tags": [{"Key": "team", "Value": "a"}]}},
    "Other": {"Type": "Test::Drift::Thing", "Properties": {"Name": "o"}},
    "Blob": {"Type": "Test::Drift::Opaque", "Properties": {"Name": "b"}}
  }
})";

struct Harness : ms::testing::ServiceFixture<ms::testing::DriftProviders> {
  ms::DriftDetection drift{*service};

  std::string Create(const std::string& body = kTemplate) {
    ms::CreateStackInput in;
    in.stack_name = "s";
    in.template_body = body;
    return CreateWith(in);
  }
  void SetActual(const std::string& physical_id, const std::string& json) {
    ms::Value v;
    REQUIRE(ms::ParseJson(json, &v).ok());
    providers.actual[physical_id] = v;
  }
  std::string Detect(std::vector<std::string> logical_ids = {}) {
    std::string id;
    ms::Status s = drift.DetectStack("s", logical_ids, &id);
    INFO(s.message());
    REQUIRE(s.ok());
    return id;
  }
  // "Logical STATUS" per drift, in resource order.
  std::vector<std::string> Drifts(std::vector<std::string> filters = {}) {
    std::vector<ms::ResourceDrift> drifts;
    ms::Status s = drift.ResourceDrifts("s", filters, &drifts);
    INFO(s.message());
    REQUIRE(s.ok());
    std::vector<std::string> out;
    for (const auto& d : drifts) out.push_back(d.logical_id + " " + d.status);
    return out;
  }
};

}  // namespace

TEST_CASE("Drift detection: before any detection everything is NOT_CHECKED") {
  Harness h;
  const std::string id = h.Create();
  ms::DriftInformation info;
  REQUIRE(h.drift.StackInformation(id, &info).ok());
  CHECK(info.status == "NOT_CHECKED");
  CHECK(info.last_check_ms == 0);
  std::map<std::string, ms::DriftInformation> resources;
  REQUIRE(h.drift.ResourceInformation(id, &resources).ok());
  CHECK(resources.empty());
  CHECK(h.Drifts().empty());
}

TEST_CASE("Drift detection: an unchanged stack is IN_SYNC, a type without read NOT_CHECKED") {
  Harness h;
  const std::string stack_id = h.Create();
  const std::string id = h.Detect();
  ms::StackDriftDetection det;
  REQUIRE(h.drift.Detection(id, &det).ok());
  CHECK(det.stack_id == stack_id);
  CHECK(det.detection_status == "DETECTION_COMPLETE");
  CHECK(det.stack_drift_status == "IN_SYNC");
  CHECK(det.drifted_count == 0);
  CHECK(det.timestamp_ms == 1700000000000);
  CHECK(h.Drifts() == std::vector<std::string>{"Queue IN_SYNC", "Other IN_SYNC", "Blob NOT_CHECKED"});
  ms::DriftInformation info;
  REQUIRE(h.drift.StackInformation(stack_id, &info).ok());
  CHECK(info.status == "IN_SYNC");
  CHECK(info.last_check_ms == 1700000000000);
}

TEST_CASE("Drift detection: out-of-band changes are MODIFIED with their differences, a gone resource DELETED") {
  Harness h;
  const std::string stack_id = h.Create();
  h.SetActual("Queue-id", R"({"Size": 7, "Tags": [{"Key": "team", "Value": "b"}], "Extra": 1})");
  h.providers.actual.erase("Other-id");
  const std::string id = h.Detect();
  ms::StackDriftDetection det;
  REQUIRE(h.drift.Detection(id, &det).ok());
  CHECK(det.stack_drift_status == "DRIFTED");
  CHECK(det.drifted_count == 2);
  CHECK(h.Drifts() == std::vector<std::string>{"Queue MODIFIED", "Other DELETED", "Blob NOT_CHECKED"});
  CHECK(h.Drifts({"DELETED", "IN_SYNC"}) == std::vector<std::string>{"Other DELETED"});

  std::vector<ms::ResourceDrift> drifts;
  REQUIRE(h.drift.ResourceDrifts("s", {"MODIFIED"}, &drifts).ok());
  REQUIRE(drifts.size() == 1);
  const ms::ResourceDrift& q = drifts[0];
  CHECK(q.physical_id == "Queue-id");
  CHECK(q.type == "Test::Drift::Thing");
  CHECK(q.expected_properties == R"({"Size":5,"Tags":[{"Key":"team","Value":"a"}]})");
  CHECK(q.actual_properties == R"({"Size":7,"Tags":[{"Key":"team","Value":"b"}],"Extra":1})");
  REQUIRE(q.differences.size() == 2);
  CHECK(q.differences[0].path == "/Size");
  CHECK(q.differences[0].expected_value == "5");
  CHECK(q.differences[0].actual_value == "7");
  CHECK(q.differences[0].difference_type == "NOT_EQUAL");
  CHECK(q.differences[1].path == "/Tags/0/Value");
  CHECK(q.differences[1].expected_value == "a");
  CHECK(q.differences[1].actual_value == "b");

  std::map<std::string, ms::DriftInformation> resources;
  REQUIRE(h.drift.ResourceInformation(stack_id, &resources).ok());
  CHECK(resources["Queue"].status == "MODIFIED");
  CHECK(resources["Other"].status == "DELETED");
}

TEST_CASE("Drift detection: one resource, and a read that fails makes the detection DETECTION_FAILED") {
  Harness h;
  h.Create(R"({"Resources": {
    "Good": {"Type": "Test::Drift::Thing", "Properties": {"Name": "g"}},
    "Bad": {"Type": "Test::Drift::Thing", "Properties": {"ReadFails": "Access denied"}}}})");
  h.SetActual("Good-id", R"({"Name": "changed"})");
  ms::ResourceDrift one;
  REQUIRE(h.drift.DetectResource("s", "Good", &one).ok());
  CHECK(one.status == "MODIFIED");
  // A resource detection does not make a stack detection.
  CHECK(h.Drifts() == std::vector<std::string>{"Good MODIFIED"});

  ms::StackDriftDetection det;
  REQUIRE(h.drift.Detection(h.Detect(), &det).ok());
  CHECK(det.detection_status == "DETECTION_FAILED");
  CHECK(det.reason == "Failed to detect drift on resources [Bad]");
  CHECK(det.stack_drift_status == "DRIFTED");
  CHECK(h.Drifts({"NOT_CHECKED"}) == std::vector<std::string>{"Bad NOT_CHECKED"});
}

TEST_CASE("Drift detection: AWS's errors for unknown resources, detections and filters") {
  Harness h;
  h.Create();
  std::string id;
  CHECK(h.drift.DetectStack("s", {"Nope"}, &id).message() == "Resource Nope does not exist for stack s");
  ms::ResourceDrift one;
  CHECK(h.drift.DetectResource("s", "Nope", &one).message() == "Resource Nope does not exist for stack s");
  CHECK(h.drift.DetectStack("missing", {}, &id).message() == "Stack with id missing does not exist");
  ms::StackDriftDetection det;
  CHECK(h.drift.Detection("0000", &det).message() == "Drift detection with id 0000 does not exist");
  std::vector<ms::ResourceDrift> drifts;
  CHECK(h.drift.ResourceDrifts("s", {"DRIFTED"}, &drifts).message() ==
        "1 validation error detected: Value '[DRIFTED]' at 'stackResourceDriftStatusFilters' failed to satisfy "
        "constraint: Member must satisfy constraint: [Member must satisfy enum value set: [IN_SYNC, MODIFIED, "
        "DELETED, NOT_CHECKED]]");
  // Only the named resources are checked.
  h.Detect({"Other"});
  CHECK(h.Drifts() == std::vector<std::string>{"Other IN_SYNC"});
}

TEST_CASE("Drift detection: write-only properties are neither expected nor compared") {
  Harness h;
  h.Create(R"({"Resources": {
    "Queue": {"Type": "Test::Drift::Thing", "Properties": {"Size": 5, "Password": "p1"}},
    "Other": {"Type": "Test::Drift::Thing", "Properties": {"Size": 1, "Password": "p2"}}}})");
  h.SetActual("Queue-id", R"({"Size": 5})");                    // a read never returns it
  h.SetActual("Other-id", R"({"Size": 1, "Password": "changed"})");  // nor is it compared when it does
  h.Detect();
  CHECK(h.Drifts() == std::vector<std::string>{"Queue IN_SYNC", "Other IN_SYNC"});
  std::vector<ms::ResourceDrift> drifts;
  REQUIRE(h.drift.ResourceDrifts("s", {}, &drifts).ok());
  REQUIRE(drifts.size() == 2);
  CHECK(drifts[0].expected_properties == R"({"Size":5})");
  CHECK(drifts[1].actual_properties == R"({"Size":1})");
}
