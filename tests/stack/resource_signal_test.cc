// CreationPolicy ResourceSignal (engine/stack/resource_signals.h) with the
// fake provider (fake_providers.h), in virtual time: signals succeeding,
// failing, timing out, counted once per UniqueId; a malformed Timeout; a
// waiting resource cancelled by a failing sibling; a wait resumed after a
// restart without calling create again.
#include <catch2/catch.hpp>

#include <map>

#include "fake_providers.h"
#include "service_fixture.h"
#include "stack/resource_signals.h"
#include "stack/stack_service.h"
#include "store/stack_tables.h"
#include "template/parse.h"

using ms::StackService;
using ms::Status;

namespace {

constexpr int64_t kStart = 1700000000000;

// Sends signals when events happen: "<Logical> <STATUS>" -> signals to W.
struct Signaller : ms::OperationObserver {
  ms::World* world = nullptr;
  ms::Clock* clock = nullptr;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> on;  // -> (UniqueId, Status)
  void OnEvent(const ms::StackEvent& e) override {
    auto it = on.find(e.logical_id + " " + e.status);
    if (it == on.end()) return;
    for (const auto& [id, status] : it->second) {
      ms::PutResourceSignal(world, e.stack_name, "W", {id, status, e.stack_id, clock->NowMs()});
    }
  }
};

struct Harness : ms::testing::ServiceFixture<ms::testing::FakeProviders> {
  Signaller signaller;

  Harness() : ServiceFixture(kStart, &signaller) {
    signaller.world = &world;
    signaller.clock = clock.get();
  }

  std::string Start(const std::string& name, const std::string& body) {
    ms::CreateStackInput in;
    in.stack_name = name;
    in.template_body = body;
    std::string id;
    Status s = service->StartCreate(in, &id);
    INFO(s.message());
    REQUIRE(s.ok());
    return id;
  }
  void Run(const std::string& id) {
    Status s = service->Run(id);
    INFO(s.message());
    REQUIRE(s.ok());
  }

  // "+<seconds since kStart> Logical STATUS[ reason]" per event, oldest first.
  std::vector<std::string> Events(const std::string& id) {
    std::vector<ms::StackEvent> events;
    REQUIRE(service->Events(id, &events).ok());
    std::vector<std::string> out;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      out.push_back("+" + std::to_string((it->timestamp_ms - kStart) / 1000) + " " + it->logical_id + " " +
                    it->status + (it->reason.empty() ? "" : " " + it->reason));
    }
    return out;
  }
  std::string StackStatus(const std::string& id) {
    ms::StackRecord s;
    REQUIRE(service->FindStack(id, &s).ok());
    return ms::StackStatusName(s.status);
  }
};

std::string Waiting(const std::string& policy, const std::string& others = "") {
  return R"({"Resources": {"W": {"Type": "Test::Fake::Thing", "CreationPolicy": )" + policy + "}" + others + "}}";
}

}  // namespace

TEST_CASE("ISO 8601 durations of a CreationPolicy Timeout", "[stack][signal]") {
  int64_t s = -1;
  CHECK((ms::ParseSignalDuration("PT1H30M", &s) && s == 5400));
  CHECK((ms::ParseSignalDuration("PT10M", &s) && s == 600));
  CHECK((ms::ParseSignalDuration("PT45S", &s) && s == 45));
  CHECK((ms::ParseSignalDuration("PT1H2M3S", &s) && s == 3723));
  CHECK((ms::ParseSignalDuration("PT0S", &s) && s == 0));
  for (const char* bad : {"", "PT", "P1D", "PT5m", "PT1M1H", "PT1H1H", "10", "PT-5M", "PT5", "pt5m", "PT5M "}) {
    INFO(bad);
    CHECK_FALSE(ms::ParseSignalDuration(bad, &s));
  }
  bool has = false;
  ms::SignalPolicy p;
  ms::Value none = ms::Value::MakeMap();
  REQUIRE(ms::ParseSignalPolicy(none, &has, &p).ok());
  CHECK_FALSE(has);
  ms::Value defaults = ms::Value::MakeMap();
  defaults.set("ResourceSignal", ms::Value::MakeMap());
  REQUIRE(ms::ParseSignalPolicy(defaults, &has, &p).ok());
  CHECK(has);
  CHECK(p.count == 1);
  CHECK(p.timeout_seconds == 300);
}

TEST_CASE("signals: Count 2 SUCCESS signals with two UniqueIds complete the resource", "[stack][signal]") {
  Harness h;
  // T1 and T2 finish 20 s and 40 s in; each sends one signal as it does.
  h.signaller.on["T1 CREATE_COMPLETE"] = {{"i-first", "SUCCESS"}};
  h.signaller.on["T2 CREATE_COMPLETE"] = {{"i-second", "SUCCESS"}};
  std::string id = h.Start("sig1", Waiting(R"({"ResourceSignal": {"Count": 2, "Timeout": "PT10M"}})",
                                           R"(, "T1": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 20}},
                                              "T2": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 40}})"));
  h.Run(id);
  CHECK(h.Events(id) == std::vector<std::string>{
                            "+0 sig1 CREATE_IN_PROGRESS User Initiated",
                            "+0 W CREATE_IN_PROGRESS",
                            "+0 T1 CREATE_IN_PROGRESS",
                            "+0 T2 CREATE_IN_PROGRESS",
                            "+0 W CREATE_IN_PROGRESS Resource creation Initiated",
                            "+0 T1 CREATE_IN_PROGRESS Resource creation Initiated",
                            "+0 T2 CREATE_IN_PROGRESS Resource creation Initiated",
                            "+20 T1 CREATE_COMPLETE",
                            "+25 W CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-first",
                            "+40 T2 CREATE_COMPLETE",
                            "+45 W CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-second",
                            "+45 W CREATE_COMPLETE",
                            "+45 sig1 CREATE_COMPLETE",
                        });
}

TEST_CASE("signals: a FAILURE signal fails the resource and the stack rolls back", "[stack][signal]") {
  Harness h;
  h.signaller.on["T1 CREATE_COMPLETE"] = {{"i-bad", "FAILURE"}};
  std::string id = h.Start("sig2", Waiting(R"({"ResourceSignal": {"Timeout": "PT10M"}})",
                                           R"(, "T1": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 20}})"));
  h.Run(id);
  CHECK(h.Events(id) == std::vector<std::string>{
                            "+0 sig2 CREATE_IN_PROGRESS User Initiated",
                            "+0 W CREATE_IN_PROGRESS",
                            "+0 T1 CREATE_IN_PROGRESS",
                            "+0 W CREATE_IN_PROGRESS Resource creation Initiated",
                            "+0 T1 CREATE_IN_PROGRESS Resource creation Initiated",
                            "+20 T1 CREATE_COMPLETE",
                            "+25 W CREATE_FAILED Received FAILURE signal with UniqueId i-bad",
                            "+25 sig2 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [W]. ",
                            "+25 T1 DELETE_IN_PROGRESS",
                            "+25 W DELETE_IN_PROGRESS",
                            "+25 T1 DELETE_COMPLETE",
                            "+25 W DELETE_COMPLETE",
                            "+25 sig2 ROLLBACK_COMPLETE",
                        });
  CHECK(h.providers.live().empty());
}

TEST_CASE("signals: no signal within the Timeout fails the resource exactly when it falls due", "[stack][signal]") {
  Harness h;
  std::string id = h.Start("sig3", Waiting(R"({"ResourceSignal": {"Timeout": "PT10M"}})"));
  h.Run(id);
  CHECK(h.Events(id) == std::vector<std::string>{
                            "+0 sig3 CREATE_IN_PROGRESS User Initiated",
                            "+0 W CREATE_IN_PROGRESS",
                            "+0 W CREATE_IN_PROGRESS Resource creation Initiated",
                            "+600 W CREATE_FAILED Failed to receive 1 resource signal(s) within the specified duration",
                            "+600 sig3 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [W]. ",
                            "+600 W DELETE_IN_PROGRESS",
                            "+600 W DELETE_COMPLETE",
                            "+600 sig3 ROLLBACK_COMPLETE",
                        });
  std::vector<ms::StackEvent> events;
  REQUIRE(h.service->Events(id, &events).ok());
  int64_t in_progress = 0, failed = 0;
  for (const ms::StackEvent& e : events) {
    if (e.logical_id == "W" && e.status == "CREATE_IN_PROGRESS" && e.reason.empty()) in_progress = e.timestamp_ms;
    if (e.logical_id == "W" && e.status == "CREATE_FAILED") failed = e.timestamp_ms;
  }
  CHECK(failed - in_progress == 600000);
}

TEST_CASE("signals: a second signal with the same UniqueId replaces the first and counts once", "[stack][signal]") {
  Harness h;
  std::string id = h.Start("sig4", Waiting(R"({"ResourceSignal": {"Count": 2, "Timeout": "PT1M"}})"));
  ms::PutResourceSignal(&h.world, "sig4", "W", {"i-same", "SUCCESS", id, kStart});
  ms::PutResourceSignal(&h.world, "sig4", "W", {"i-same", "SUCCESS", id, kStart});
  h.Run(id);
  CHECK(h.Events(id) == std::vector<std::string>{
                            "+0 sig4 CREATE_IN_PROGRESS User Initiated",
                            "+0 W CREATE_IN_PROGRESS",
                            "+0 W CREATE_IN_PROGRESS Resource creation Initiated",
                            "+0 W CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-same",
                            "+60 W CREATE_FAILED Failed to receive 2 resource signal(s) within the specified duration",
                            "+60 sig4 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [W]. ",
                            "+60 W DELETE_IN_PROGRESS",
                            "+60 W DELETE_COMPLETE",
                            "+60 sig4 ROLLBACK_COMPLETE",
                        });
}

TEST_CASE("signals: sent to another stack of the same name, or before the wait began, do not count",
          "[stack][signal]") {
  Harness h;
  std::string id = h.Start("sig5", Waiting(R"({"ResourceSignal": {"Timeout": "PT1M"}})"));
  ms::PutResourceSignal(&h.world, "sig5", "W", {"i-old", "SUCCESS", "", kStart - 1});
  ms::PutResourceSignal(&h.world, "sig5", "W",
                        {"i-other", "SUCCESS", "arn:aws:cloudformation:us-east-1:123456789012:stack/sig5/other", kStart});
  h.Run(id);
  CHECK(h.StackStatus(id) == "ROLLBACK_COMPLETE");
  // A signal by name (cfn-signal --stack <name>) counts.
  std::string id2 = h.Start("sig6", Waiting(R"({"ResourceSignal": {"Timeout": "PT1M"}})"));
  ms::PutResourceSignal(&h.world, "sig6", "W", {"i-byname", "SUCCESS", "", h.clock->NowMs()});
  h.Run(id2);
  CHECK(h.StackStatus(id2) == "CREATE_COMPLETE");
}

TEST_CASE("signals: a malformed Timeout fails the resource", "[stack][signal]") {
  Harness h;
  std::string id = h.Start("sig7", Waiting(R"({"ResourceSignal": {"Timeout": "10 minutes"}})"));
  h.Run(id);
  CHECK(h.Events(id) == std::vector<std::string>{
                            "+0 sig7 CREATE_IN_PROGRESS User Initiated",
                            "+0 W CREATE_IN_PROGRESS",
                            "+0 W CREATE_IN_PROGRESS Resource creation Initiated",
                            "+0 W CREATE_FAILED CreationPolicy ResourceSignal Timeout '10 minutes' is not an ISO 8601 "
                            "duration of the form PT#H#M#S",
                            "+0 sig7 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [W]. ",
                            "+0 W DELETE_IN_PROGRESS",
                            "+0 W DELETE_COMPLETE",
                            "+0 sig7 ROLLBACK_COMPLETE",
                        });
  std::string id2 = h.Start("sig8", Waiting(R"({"ResourceSignal": {"Timeout": "PT13H"}})"));
  h.Run(id2);
  CHECK(h.Events(id2)[3] ==
        "+0 W CREATE_FAILED CreationPolicy ResourceSignal Timeout 'PT13H' exceeds the maximum of 12 hours (PT12H)");
}

TEST_CASE("signals: a waiting resource is cancelled when a sibling fails, and rolled back", "[stack][signal]") {
  Harness h;
  std::string id = h.Start("sig9", Waiting(R"({"ResourceSignal": {"Timeout": "PT1H"}})",
                                           R"(, "F": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 20, "CreateFails": "boom"}})"));
  h.Run(id);
  CHECK(h.Events(id) == std::vector<std::string>{
                            "+0 sig9 CREATE_IN_PROGRESS User Initiated",
                            "+0 W CREATE_IN_PROGRESS",
                            "+0 F CREATE_IN_PROGRESS",
                            "+0 W CREATE_IN_PROGRESS Resource creation Initiated",
                            "+0 F CREATE_IN_PROGRESS Resource creation Initiated",
                            "+20 F CREATE_FAILED boom",
                            "+20 W CREATE_FAILED Resource creation cancelled",
                            "+20 sig9 ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [F, W]. ",
                            // W stops waiting at its next look (every 5 s), then the rollback starts.
                            "+25 F DELETE_IN_PROGRESS",
                            "+25 W DELETE_IN_PROGRESS",
                            "+25 F DELETE_COMPLETE",
                            "+25 W DELETE_COMPLETE",
                            "+25 sig9 ROLLBACK_COMPLETE",
                        });
  CHECK(h.providers.live().empty());
}

TEST_CASE("signals: after a restart a resource waiting for signals resumes the wait, create is not called again",
          "[stack][signal]") {
  Harness h;
  std::string id = h.Start("sig10", Waiting(R"({"ResourceSignal": {"Timeout": "PT10M"}})"));
  // What a crash while W waited leaves in the store: created, journal "signal".
  ms::ResourceRecord rec;
  rec.stack_id = id;
  rec.logical_id = "W";
  rec.type = "Test::Fake::Thing";
  rec.physical_id = "W-1";
  rec.status = ms::ResourceStatus::kCreateInProgress;
  rec.reason = "Resource creation Initiated";
  rec.updated_ms = kStart;
  rec.properties = ms::Value::MakeMap();
  rec.pending_hook = "signal";
  rec.progress = ms::Value::MakeMap();
  rec.progress.set("since_ms", ms::Value::Integer(kStart));
  rec.progress.set("reported", ms::Value::MakeList());
  ms::StoreBatch batch;
  batch.resources.push_back(&rec);
  REQUIRE(ms::CommitBatch(h.db.get(), nullptr, &batch).ok());
  ms::PutResourceSignal(&h.world, "sig10", "W", {"i-late", "SUCCESS", "", kStart + 1000});
  h.Run(id);
  CHECK(h.providers.calls() == 0);
  CHECK(h.Events(id) == std::vector<std::string>{
                            "+0 sig10 CREATE_IN_PROGRESS User Initiated",
                            "+0 W CREATE_IN_PROGRESS Received SUCCESS signal with UniqueId i-late",
                            "+0 W CREATE_COMPLETE",
                            "+0 sig10 CREATE_COMPLETE",
                        });
  std::vector<ms::ResourceRecord> records;
  REQUIRE(h.service->Resources(id, &records).ok());
  REQUIRE(records.size() == 1);
  CHECK(records[0].pending_hook.empty());
  CHECK(records[0].physical_id == "W-1");
}

TEST_CASE("signals: types the world auto-signals complete at once", "[stack][signal]") {
  Harness h;
  ms::Value cfg = ms::Value::MakeMap();
  cfg.set("creation_policy_auto_signal_types", ms::Value::StringList({"Test::Fake::Thing"}));
  h.world.Put("config", "cloudformation", ms::WorldRecord(std::move(cfg)));
  std::string id = h.Start("sig11", Waiting(R"({"ResourceSignal": {"Count": 3, "Timeout": "PT1M"}})"));
  h.Run(id);
  CHECK(h.Events(id).back() == "+0 sig11 CREATE_COMPLETE");
  CHECK_FALSE(ms::AutoSignalled(ms::World(), "AWS::AutoScaling::AutoScalingGroup"));  // its instances signal
  CHECK_FALSE(ms::AutoSignalled(ms::World(), "AWS::EC2::Instance"));
}

TEST_CASE("signals: AutoScalingCreationPolicy MinSuccessfulInstancesPercent tolerates failures", "[stack][signal]") {
  auto policy = [](const std::string& json) {
    ms::Value v;
    REQUIRE(ms::ParseJson(json, &v).ok());
    bool has = false;
    ms::SignalPolicy p;
    ms::Status s = ms::ParseSignalPolicy(v, &has, &p);
    INFO(s.message());
    REQUIRE(s.ok());
    REQUIRE(has);
    return p;
  };
  // "if you update five instances with a minimum successful percentage of
  // 50, three instances must signal success"
  ms::SignalPolicy half = policy(R"({"ResourceSignal": {"Count": 5, "Timeout": "PT10M"},
                                     "AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": "50"}})");
  CHECK(half.Needed() == 3);
  auto sig = [](const std::string& id, const std::string& status) {
    return ms::ResourceSignal{id, status, "", kStart};
  };
  // Two failures of five leave three to succeed: still waiting, then complete.
  ms::SignalVerdict v = ms::Decide(half, {sig("i-1", "FAILURE"), sig("i-2", "FAILURE"), sig("i-3", "SUCCESS")}, {},
                                   kStart, kStart + 1000);
  CHECK(v.kind == ms::SignalVerdict::Kind::kWaiting);
  v = ms::Decide(half, {sig("i-1", "FAILURE"), sig("i-2", "FAILURE"), sig("i-3", "SUCCESS"), sig("i-4", "SUCCESS"),
                        sig("i-5", "SUCCESS")},
                 {}, kStart, kStart + 1000);
  CHECK(v.kind == ms::SignalVerdict::Kind::kComplete);
  CHECK(v.received == std::vector<std::string>{"i-3", "i-4", "i-5"});
  // A third failure leaves too few.
  v = ms::Decide(half, {sig("i-1", "FAILURE"), sig("i-2", "FAILURE"), sig("i-3", "FAILURE")}, {}, kStart,
                 kStart + 1000);
  CHECK(v.kind == ms::SignalVerdict::Kind::kFailed);
  CHECK(v.reason == "Received FAILURE signal with UniqueId i-3");
  // Rounded to the nearest tenth of a percent: 33.33% of 3 is 0.9999 -> 1.
  CHECK(policy(R"({"ResourceSignal": {"Count": 3}, "AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": 33.33}})")
            .Needed() == 1);
  CHECK(policy(R"({"ResourceSignal": {"Count": 4}, "AutoScalingCreationPolicy": {"MinSuccessfulInstancesPercent": 0}})")
            .Needed() == 0);
  // Without the Auto Scaling part, every one of the Count must succeed.
  CHECK(policy(R"({"ResourceSignal": {"Count": 4}})").Needed() == 4);
}
