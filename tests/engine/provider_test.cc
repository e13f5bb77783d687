// The provider interface's small helpers.
#include <catch2/catch.hpp>

#include "provider/provider.h"

using ms::UpdateBehavior;

TEST_CASE("update behaviours parse, print and order by severity", "[provider]") {
  UpdateBehavior b;
  REQUIRE(ms::ParseUpdateBehavior("some", &b));
  CHECK(b == UpdateBehavior::kSome);
  CHECK_FALSE(ms::ParseUpdateBehavior("Replacement", &b));
  CHECK(std::string(ms::UpdateBehaviorName(UpdateBehavior::kUnsupported)) == "unsupported");
  CHECK(std::string(ms::UpdateBehaviorAwsName(UpdateBehavior::kSome)) == "Some interruptions");
  CHECK(UpdateBehavior::kNone < UpdateBehavior::kSome);
  CHECK(UpdateBehavior::kSome < UpdateBehavior::kReplace);
  CHECK(UpdateBehavior::kReplace < UpdateBehavior::kUnsupported);
}

TEST_CASE("a type schema finds its properties and attributes", "[provider]") {
  ms::TypeSchema s;
  s.properties.push_back({"VpcId", "string", "", true, false, UpdateBehavior::kReplace, {}, false, {}});
  s.attributes = {"SubnetId"};
  REQUIRE(s.FindProperty("VpcId") != nullptr);
  CHECK(s.FindProperty("VpcId")->required);
  CHECK(s.FindProperty("Nope") == nullptr);
  CHECK(s.HasAttribute("SubnetId"));
  CHECK_FALSE(s.HasAttribute("VpcId"));
}
