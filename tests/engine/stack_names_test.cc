// Stack names (records/stack_name), AWS's constraint messages
// (base/constraint_errors) and the stack lock's file (store/stack_lock): a
// name is checked before it names anything on disk, and the file is named
// by a hash of it and gone once the lock is released.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "base/constraint_errors.h"
#include "records/stack_name.h"
#include "store/stack_lock.h"

namespace fs = std::filesystem;

namespace {

const std::string kNamePattern =
    "' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: "
    "[a-zA-Z][-a-zA-Z0-9]*";

// A fresh directory for a state file; the state file's path in it.
std::string StateIn(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("moonstack_stack_names_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return (dir / "state.db").string();
}

size_t FilesIn(const fs::path& dir) {
  if (!fs::exists(dir)) return 0;
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("constraint errors read as AWS's, one or several", "[base]") {
  ms::ConstraintErrors errors;
  CHECK(errors.ToStatus().ok());
  errors.Add("x", "tags.1.member.key", ms::MaxLengthConstraint(128));
  CHECK(errors.ToStatus().message() ==
        "1 validation error detected: Value 'x' at 'tags.1.member.key' failed to satisfy constraint: Member must "
        "have length less than or equal to 128");
  errors.Add("", "tags.2.member.key", ms::MinLengthConstraint(1));
  CHECK(errors.ToStatus().code() == ms::Status::Code::kValidation);
  CHECK(errors.ToStatus().message() ==
        "2 validation errors detected: Value 'x' at 'tags.1.member.key' failed to satisfy constraint: Member must "
        "have length less than or equal to 128; Value '' at 'tags.2.member.key' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1");
  CHECK(ms::Utf8Length("d\xc3\xa9j\xc3\xa0") == 4);  // "déjà": 6 bytes, 4 characters
}

TEST_CASE("stack names: AWS's pattern and length, for a new name and for a name or ID", "[stack]") {
  CHECK(ms::IsStackName("web-1"));
  CHECK(ms::CheckStackName("web-1").ok());
  CHECK(ms::CheckStackName(std::string(128, 'a')).ok());
  const std::vector<std::string> bad_names = {"", "1web", "a_b", "a/b", ".", "../../z", "/tmp/x/y",
                                              std::string("a\0b", 3)};
  for (const std::string& bad : bad_names) {
    INFO(bad);
    CHECK_FALSE(ms::IsStackName(bad));
    CHECK(ms::CheckStackName(bad).message() == "1 validation error detected: Value '" + bad + kNamePattern);
  }
  const std::string long_name(129, 'a');
  CHECK_FALSE(ms::IsStackName(long_name));
  CHECK(ms::CheckStackName(long_name).message() ==
        "1 validation error detected: Value '" + long_name +
            "' at 'stackName' failed to satisfy constraint: Member must have length less than or equal to 128");
  const std::string long_bad = std::string(129, 'a') + "_";
  CHECK(ms::CheckStackName(long_bad).message() ==
        "2 validation errors detected: Value '" + long_bad + kNamePattern + "; Value '" + long_bad +
            "' at 'stackName' failed to satisfy constraint: Member must have length less than or equal to 128");

  // describe, delete, update...: a stack ID is a name too.
  CHECK(ms::CheckStackNameOrId("web").ok());
  CHECK(ms::CheckStackNameOrId("arn:aws:cloudformation:us-east-1:123456789012:stack/web/0a1b-2c").ok());
  CHECK(ms::CheckStackNameOrId("a/b").message() ==
        "1 validation error detected: Value 'a/b' at 'stackName' failed to satisfy constraint: Member must satisfy "
        "regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*");
  CHECK(ms::CheckStackNameOrId("arn:aws:cloudformation:x:1:stack/a b/c").code() == ms::Status::Code::kValidation);
  CHECK(ms::CheckStackNameOrId(long_name).message() == "Stack name cannot exceed 128 characters");
  CHECK(ms::CheckNameMember("cs_1", "changeSetName").message() ==
        "1 validation error detected: Value 'cs_1' at 'changeSetName' failed to satisfy constraint: Member must "
        "satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*");
}

TEST_CASE("stack lock: a name that is no stack name touches nothing on disk", "[store]") {
  const std::string state = StateIn("refused");
  const fs::path dir = fs::path(state).parent_path();
  for (const std::string& bad : std::vector<std::string>{"../escaped", dir.string() + "/absolute", "a/b", ".", ".."}) {
    INFO(bad);
    std::unique_ptr<ms::StackLock> lock;
    ms::Status s = ms::StackLock::TryAcquire(state, "us-east-1", bad, &lock);
    CHECK(s.message() == "1 validation error detected: Value '" + bad + kNamePattern);
    CHECK(lock == nullptr);
  }
  CHECK_FALSE(fs::exists(dir / "escaped"));
  CHECK_FALSE(fs::exists(dir / "absolute"));
  CHECK_FALSE(fs::exists(state + ".locks"));
  std::unique_ptr<ms::StackLock> lock;
  CHECK(ms::StackLock::TryAcquire(state, "us-east-1", std::string(300, 'a'), &lock).message() ==
        "1 validation error detected: Value '" + std::string(300, 'a') +
            "' at 'stackName' failed to satisfy constraint: Member must have length less than or equal to 128");
}

TEST_CASE("stack lock: named by a hash, exclusive, its file removed on release", "[store]") {
  const std::string state = StateIn("hashed");
  const fs::path locks = state + ".locks";
  const std::string path = ms::StackLock::LockFilePath(state, "us-east-1", "web");
  CHECK(fs::path(path).parent_path() == locks);
  CHECK(fs::path(path).filename().string().find("web") == std::string::npos);
  CHECK(ms::StackLock::LockFilePath(state, "us-east-1", "web") == path);  // stable
  CHECK(ms::StackLock::LockFilePath(state, "us-east-1", "Web") != path);  // names are case sensitive
  CHECK(ms::StackLock::LockFilePath(state, "us-west-2", "web") != path);  // stacks are per region

  std::unique_ptr<ms::StackLock> held, again;
  REQUIRE(ms::StackLock::TryAcquire(state, "us-east-1", "web", &held).ok());
  REQUIRE(held != nullptr);
  CHECK(fs::exists(path));
  // flock excludes another open file description, in this process as in another.
  REQUIRE(ms::StackLock::TryAcquire(state, "us-east-1", "web", &again).ok());
  CHECK(again == nullptr);
  held.reset();
  CHECK_FALSE(fs::exists(path));
  CHECK(FilesIn(locks) == 0);

  // Churn leaves no file behind.
  for (int i = 0; i < 50; ++i) {
    std::unique_ptr<ms::StackLock> l;
    REQUIRE(ms::StackLock::TryAcquire(state, "us-east-1", "s" + std::to_string(i), &l).ok());
    REQUIRE(l != nullptr);
  }
  CHECK(FilesIn(locks) == 0);
}

TEST_CASE("stack lock: a file left by a crashed holder is taken over, then removed", "[store]") {
  const std::string state = StateIn("crashed");
  const std::string path = ms::StackLock::LockFilePath(state, "us-east-1", "web");
  fs::create_directories(fs::path(path).parent_path());
  { std::ofstream(path) << ""; }  // a holder that died: the kernel dropped its flock, the file stays
  std::unique_ptr<ms::StackLock> lock;
  REQUIRE(ms::StackLock::TryAcquire(state, "us-east-1", "web", &lock).ok());
  CHECK(lock != nullptr);
  lock.reset();
  CHECK_FALSE(fs::exists(path));
}
