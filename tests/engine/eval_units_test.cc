// Pieces of the evaluator that need no template: Fn::Cidr's arithmetic,
// Fn::Sub's string syntax, pseudo parameters and the default environment.
#include <catch2/catch.hpp>

#include "eval/cidr.h"
#include "eval/environment.h"
#include "template/sub_string.h"

using ms::CidrSubnets;
using ms::ParseSubString;
using ms::Status;
using ms::SubPart;

namespace {

std::vector<std::string> Cidr(const std::string& block, int64_t count, int64_t bits) {
  std::vector<std::string> out;
  Status s = CidrSubnets(block, count, bits, &out);
  INFO(s.message());
  REQUIRE(s.ok());
  return out;
}

std::string CidrError(const std::string& block, int64_t count, int64_t bits) {
  std::vector<std::string> out;
  Status s = CidrSubnets(block, count, bits, &out);
  return s.ok() ? "OK" : s.message();
}

std::string Parts(const std::string& s) {
  std::vector<SubPart> parts;
  Status st = ParseSubString(s, &parts);
  if (!st.ok()) return "ERROR " + st.message();
  std::string out;
  for (const SubPart& p : parts) out += (p.is_variable ? "var(" : "lit(") + p.text + ")";
  return out;
}

}  // namespace

TEST_CASE("Fn::Cidr splits the AWS documentation's example", "[eval]") {
  CHECK(Cidr("192.168.0.0/24", 6, 5) ==
        std::vector<std::string>{"192.168.0.0/27", "192.168.0.32/27", "192.168.0.64/27",
                                 "192.168.0.96/27", "192.168.0.128/27", "192.168.0.160/27"});
}

TEST_CASE("Fn::Cidr edge sizes", "[eval]") {
  CHECK(Cidr("10.0.0.0/16", 1, 8) == std::vector<std::string>{"10.0.0.0/24"});
  std::vector<std::string> all = Cidr("10.0.0.0/16", 256, 8);
  REQUIRE(all.size() == 256);
  CHECK(all.front() == "10.0.0.0/24");
  CHECK(all.back() == "10.0.255.0/24");
  // /31 subnets (1 host bit) of a /24: 128 fit, 129 do not.
  CHECK(Cidr("10.1.2.0/24", 128, 1).back() == "10.1.2.254/31");
  CHECK(CidrError("10.1.2.0/24", 129, 1) ==
        "Template error: Fn::Cidr cannot fit 129 subnets with 1 cidrBits in 10.1.2.0/24");
  // cidrBits 32 is a /0: only the whole IPv4 space, once.
  CHECK(Cidr("0.0.0.0/0", 1, 32) == std::vector<std::string>{"0.0.0.0/0"});
  CHECK(CidrError("0.0.0.0/0", 2, 32) ==
        "Template error: Fn::Cidr cannot fit 2 subnets with 32 cidrBits in 0.0.0.0/0");
  // A /32 block has no room for subnets with host bits.
  CHECK(CidrError("10.0.0.1/32", 1, 1) ==
        "Template error: Fn::Cidr cannot fit 1 subnets with 1 cidrBits in 10.0.0.1/32");
  // Subnets as large as the block.
  CHECK(Cidr("10.0.0.0/24", 1, 8) == std::vector<std::string>{"10.0.0.0/24"});
  CHECK(CidrError("10.0.0.0/24", 1, 9) ==
        "Template error: Fn::Cidr cannot fit 1 subnets with 9 cidrBits in 10.0.0.0/24");
  // Host bits in the block are ignored.
  CHECK(Cidr("10.0.0.77/24", 2, 7) == std::vector<std::string>{"10.0.0.0/25", "10.0.0.128/25"});
}

TEST_CASE("Fn::Cidr rejects bad arguments", "[eval]") {
  CHECK(CidrError("10.0.0.0/16", 0, 8) == "Template error: Fn::Cidr count must be between 1 and 256");
  CHECK(CidrError("10.0.0.0/16", 257, 8) == "Template error: Fn::Cidr count must be between 1 and 256");
  CHECK(CidrError("10.0.0.0/16", 1, 0) ==
        "Template error: Fn::Cidr cidrBits must be between 1 and 32 for 10.0.0.0/16");
  CHECK(CidrError("10.0.0.0/16", 1, 33) ==
        "Template error: Fn::Cidr cidrBits must be between 1 and 32 for 10.0.0.0/16");
  CHECK(CidrError("2001:db8::/32", 1, 129) ==
        "Template error: Fn::Cidr cidrBits must be between 1 and 128 for 2001:db8::/32");
  for (const char* bad : {"10.0.0/16", "10.0.0.256/16", "10.0.0.0/33", "10.0.0.0", "10.0.0.0/",
                          "a.b.c.d/8", "2001:db8::1::/64", "2001:db8:/64", "12345::/64", ""}) {
    INFO(bad);
    CHECK(CidrError(bad, 1, 1) == "Template error: Fn::Cidr ipBlock " + std::string(bad) +
                                      " is not a valid CIDR block");
  }
}

TEST_CASE("Fn::Cidr on IPv6 blocks", "[eval]") {
  CHECK(Cidr("2001:db8:1234:1a00::/56", 3, 64) ==
        std::vector<std::string>{"2001:db8:1234:1a00::/64", "2001:db8:1234:1a01::/64",
                                 "2001:db8:1234:1a02::/64"});
  std::vector<std::string> all = Cidr("2600:1f16:0:ff00::/56", 256, 64);
  CHECK(all.back() == "2600:1f16:0:ffff::/64");
  CHECK(Cidr("::/0", 1, 128) == std::vector<std::string>{"::/0"});
  CHECK(Cidr("2001:db8::/126", 2, 1) == std::vector<std::string>{"2001:db8::/127", "2001:db8::2/127"});
  // Uppercase, full and embedded-IPv4 spellings parse; output is RFC 5952.
  CHECK(Cidr("2001:0DB8:0000:0000:0000:0000:0000:0000/64", 2, 32) ==
        std::vector<std::string>{"2001:db8::/96", "2001:db8::1:0:0/96"});
  CHECK(Cidr("::ffff:10.0.0.0/120", 2, 4) ==
        std::vector<std::string>{"::ffff:a00:0/124", "::ffff:a00:10/124"});
  CHECK(Cidr("1:0:0:2::/64", 1, 64) == std::vector<std::string>{"1:0:0:2::/64"});
}

TEST_CASE("ParseSubString splits literals and variables", "[eval]") {
  CHECK(Parts("arn:${AWS::Partition}:s3:::${Bucket}/${!Literal}") ==
        "lit(arn:)var(AWS::Partition)lit(:s3:::)var(Bucket)lit(/${Literal})");
  CHECK(Parts("") == "");
  CHECK(Parts("plain $ text {}") == "lit(plain $ text {})");
  CHECK(Parts("${A}${B.Attr.Sub}") == "var(A)var(B.Attr.Sub)");
  CHECK(Parts("${ Spaced }") == "var(Spaced)");
  CHECK(Parts("${!}") == "lit(${})");
  CHECK(Parts("$${A}") == "lit($)var(A)");
  CHECK(Parts("echo ${!HOME} and ${!Var} done") == "lit(echo ${HOME} and ${Var} done)");
}

TEST_CASE("ParseSubString rejects malformed variables with AWS's text", "[eval]") {
  const std::string kNames =
      "ERROR Template error: variable names in Fn::Sub syntax must contain only alphanumeric "
      "characters, underscores, periods, and colons";
  CHECK(Parts("${fe_err:-<none>}") == kNames);
  CHECK(Parts("${a b}") == kNames);
  CHECK(Parts("${}") == kNames);
  CHECK(Parts("${Outer${Inner}}") == kNames);
  CHECK(Parts("tail ${Open") ==
        "ERROR Template error: Fn::Sub string has an unterminated variable reference \"${\"");
}

TEST_CASE("pseudo parameters derive partition and URL suffix from the region", "[eval]") {
  ms::PseudoParameters p;
  CHECK(p.partition() == "aws");
  CHECK(p.url_suffix() == "amazonaws.com");
  p.region = "cn-north-1";
  CHECK(p.partition() == "aws-cn");
  CHECK(p.url_suffix() == "amazonaws.com.cn");
  p.region = "us-gov-west-1";
  CHECK(p.partition() == "aws-us-gov");
  CHECK(p.url_suffix() == "amazonaws.com");
  p.region = "us-isob-east-1";
  CHECK(p.partition() == "aws-iso-b");
  p.region = "us-iso-east-1";
  CHECK(p.partition() == "aws-iso");
  p.region = "eu-west-1";
  CHECK(p.partition() == "aws");
}

TEST_CASE("the default environment: nothing is deployed yet", "[eval]") {
  ms::EvalEnvironment env;
  CHECK(env.ResourceRef("Bucket").ToJson() == R"({"Unknown":["Bucket"]})");
  ms::Value v;
  REQUIRE(env.ResourceAttribute("Bucket", "Arn", &v).ok());
  CHECK(v.ToJson() == R"({"Unknown":["Bucket.Arn"]})");
  REQUIRE(env.ImportValue("shared-vpc", &v).ok());
  CHECK(v.ToJson() == R"({"Unknown":["Export:shared-vpc"]})");
  CHECK(env.AvailabilityZones("eu-west-1") ==
        std::vector<std::string>{"eu-west-1a", "eu-west-1b", "eu-west-1c"});
  CHECK(env.AwsValueExists("AWS::EC2::VPC::Id", "vpc-123"));
  std::string ssm;
  CHECK_FALSE(env.SsmParameter("/x", &ssm));
}
