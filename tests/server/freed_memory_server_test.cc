// `moonstack serve` gives the memory an operation freed back to the system
// once no operation runs (server/freed_memory.h): jemalloc itself never
// does (host/jemalloc_conf.cc, dirty_decay_ms:-1), so without it a server
// at rest would hold the peak of its widest operation.
#include <fstream>

#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

// A size in the server's /proc status (VmRSS: now, VmHWM: its peak), in KiB.
long StatusKiB(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

TEST_CASE("serve gives an operation's freed memory back once no operation runs", "[server]") {
#ifdef MOONSTACK_JEMALLOC
  Server s("freed_memory", "0", {"--max-template-body", "8000000", "--max-body-bytes", "32000000"});
  const long at_start = StatusKiB(s.pid(), "VmRSS");
  // 3,000 parameters of 1,000 characters: a 3.3 MB template whose parse,
  // checkpoints and events the create allocates and frees.
  json r = s.Python(R"(
import time
resources = {'P%04d' % i: {'Type': 'AWS::SSM::Parameter', 'Properties': {'Type': 'String', 'Value': 'v' * 1000}}
             for i in range(3000)}
cf.create_stack(StackName='wide', TemplateBody=json.dumps({'Resources': resources}))
while cf.describe_stacks(StackName='wide')['Stacks'][0]['StackStatus'] == 'CREATE_IN_PROGRESS':
    time.sleep(0.05)
print(json.dumps({'status': cf.describe_stacks(StackName='wide')['Stacks'][0]['StackStatus']}))
)");
  REQUIRE(r["status"] == "CREATE_COMPLETE");
  // The peak, whenever it was: the memory may be given back before this
  // thread reads the RSS (a loaded machine).
  const long peak = StatusKiB(s.pid(), "VmHWM");
  long lowest = StatusKiB(s.pid(), "VmRSS");
  for (int i = 0; i < 40 && peak - lowest < (peak - at_start) / 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    lowest = std::min(lowest, StatusKiB(s.pid(), "VmRSS"));
  }
  INFO("RSS at start " << at_start / 1024 << " MiB, at its peak " << peak / 1024 << " MiB, then " << lowest / 1024
                       << " MiB");
  CHECK(peak - at_start > 20 * 1024);  // the create did allocate
  // Within 4 s (the returner looks once a second), at least a quarter of
  // what the create added is given back: the world keeps the 3,000
  // parameters, SQLite its page cache.
  CHECK(peak - lowest >= (peak - at_start) / 4);
#else
  SUCCEED("sanitizer and fuzzing builds keep their own allocator");
#endif
}

}  // namespace
}  // namespace ms::test::server
