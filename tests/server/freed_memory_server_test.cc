// `moonstack serve` gives the memory an operation freed back to the system
// once no operation runs (server/freed_memory.h): jemalloc itself never
// does (host/jemalloc_conf.cc, dirty_decay_ms:-1), so without it a server
// at rest would hold the peak of its widest operation.
#include <fstream>

#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

// The server's resident set now (VmRSS), in KiB.
long RssKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

TEST_CASE("serve gives an operation's freed memory back once no operation runs", "[server]") {
#ifdef MOONSTACK_JEMALLOC
  Server s("freed_memory", "0", {"--max-template-body", "8000000", "--max-body-bytes", "32000000"});
  const long at_start = RssKiB(s.pid());
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
  long lowest = RssKiB(s.pid());
  const long after_create = lowest;
  for (int i = 0; i < 40 && after_create - lowest < (after_create - at_start) / 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    lowest = std::min(lowest, RssKiB(s.pid()));
  }
  INFO("RSS at start " << at_start / 1024 << " MiB, after the create " << after_create / 1024 << " MiB, then "
                       << lowest / 1024 << " MiB");
  CHECK(after_create - at_start > 20 * 1024);  // the create did allocate
  // Within 4 s (the returner looks once a second), at least a quarter of
  // what the create added is given back: the world keeps the 3,000
  // parameters, SQLite its page cache.
  CHECK(after_create - lowest >= (after_create - at_start) / 4);
#else
  SUCCEED("sanitizer and fuzzing builds keep their own allocator");
#endif
}

}  // namespace
}  // namespace ms::test::server
