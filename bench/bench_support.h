// What the whole-stack benchmarks share (bench_stack, bench_update): timing
// and process figures read off /proc and getrusage, a throw-away store, and
// the layered DAG their generated templates follow.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/status.h"
#include "provider/provider.h"
#include "store/database.h"
#include "store/schema.h"

namespace bench {

using SteadyClock = std::chrono::steady_clock;

inline double Secs(SteadyClock::time_point a, SteadyClock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

inline void Die(const ms::Status& s, const char* what) {
  if (s.ok()) return;
  std::fprintf(stderr, "%s failed: %s\n", what, s.message().c_str());
  std::exit(1);
}

// --- process figures ----------------------------------------------------------------

// A /proc/self/status field in kB, or -1.
inline long StatusKb(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  const size_t len = std::strlen(field);
  while (std::getline(f, line)) {
    if (line.compare(0, len, field) == 0 && line.size() > len && line[len] == ':') {
      return std::strtol(line.c_str() + len + 1, nullptr, 10);
    }
  }
  return -1;
}

// Resets VmHWM to the current RSS (Linux >= 4.0); false when not allowed.
inline bool ResetPeakRss() {
  std::ofstream f("/proc/self/clear_refs");
  if (!f) return false;
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}

inline double Mb(long kb) { return kb / 1024.0; }

// CPU seconds (user + system) of the whole process (RUSAGE_SELF), or of the
// calling thread (RUSAGE_THREAD).
inline double CpuSeconds(int who) {
  rusage u{};
  getrusage(who, &u);
  auto s = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

// Seconds the calling thread has spent runnable but waiting for a CPU
// (/proc/thread-self/schedstat, field 2): on a shared machine, wall - cpu is
// mostly this, not the engine blocking.
inline double RunQueueSeconds() {
  std::ifstream f("/proc/thread-self/schedstat");
  unsigned long long run_ns = 0, wait_ns = 0;
  if (!(f >> run_ns >> wait_ns)) return 0;
  return wait_ns / 1e9;
}

inline uint64_t FileBytes(const std::filesystem::path& p) {
  std::error_code ec;
  auto n = std::filesystem::file_size(p, ec);
  return ec ? 0 : n;
}

// A fresh store (ms::OpenStore: a file, WAL) in a temp directory, removed on
// destruction.
struct TempStore {
  std::filesystem::path dir;
  std::unique_ptr<ms::Database> db;

  explicit TempStore(const char* prefix) {
    std::string tmpl = (std::filesystem::temp_directory_path() / (std::string(prefix) + ".XXXXXX")).string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      std::perror("mkdtemp");
      std::exit(1);
    }
    dir = tmpl;
    Die(ms::OpenStore((dir / "state.db").string(), &db), "OpenStore");
  }
  ~TempStore() {
    db.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  uint64_t Bytes() const { return FileBytes(dir / "state.db") + FileBytes(dir / "state.db-wal"); }

  int64_t Events(const std::string& stack_id) {
    std::unique_ptr<ms::Statement> st;
    // An events row is a chunk: a JSON array of events (schema 7).
    Die(db->Prepare("SELECT COALESCE(SUM(json_array_length(data)), 0) FROM events WHERE stack = " +
                        std::string(ms::kStackKeyOfId),
                    &st),
        "count events");
    st->Bind(1, stack_id);
    bool row = false;
    Die(st->Step(&row), "count events");
    return row ? st->Int(0) : 0;
  }
};

// --- fake providers -------------------------------------------------------------------

// A provider session that takes properties as given and updates everything
// in place: the benchmarks' fakes only say what their calls do.
class PassThroughSession : public ms::ProviderSession {
 public:
  ms::Status Validate(std::string_view, const ms::HookContext&, const ms::Value& props, ms::Value* coerced) override {
    *coerced = props;
    return ms::Status::OK();
  }
  ms::Status DecideUpdate(std::string_view, std::string_view, const ms::Value&, const ms::Value&,
                          const ms::HookContext&, ms::UpdateBehavior* out) override {
    *out = ms::UpdateBehavior::kNone;
    return ms::Status::OK();
  }
};

// --- the generated stacks' shape -------------------------------------------------------

// n resources in `layers` layers (sizes differ by at most one); every
// resource of layer k > 0 has 1-3 distinct parents in layer k-1 (always
// smaller indices). Deterministic (fixed seed).
struct LayeredDag {
  int n = 0, layers = 0;
  std::vector<int> layer_of;              // per resource
  std::vector<std::vector<int>> parents;  // per resource
  size_t edges = 0;

  LayeredDag(int n_, int layers_) : n(n_), layers(layers_), layer_of(n_), parents(n_) {
    std::mt19937 rng(12345);
    std::vector<std::vector<int>> by_layer(layers);
    for (int i = 0; i < n; ++i) {
      layer_of[i] = static_cast<int>(static_cast<size_t>(i) * layers / n);
      by_layer[layer_of[i]].push_back(i);
    }
    for (int i = 0; i < n; ++i) {
      if (layer_of[i] == 0) continue;
      const std::vector<int>& prev = by_layer[layer_of[i] - 1];
      const int want = std::min<int>(1 + static_cast<int>(rng() % 3), static_cast<int>(prev.size()));
      std::vector<int>& ps = parents[i];
      while (static_cast<int>(ps.size()) < want) {
        int p = prev[rng() % prev.size()];
        if (std::find(ps.begin(), ps.end(), p) == ps.end()) ps.push_back(p);
      }
      edges += ps.size();
    }
  }

  // Its logical ID: "L<layer>R<index>".
  std::string Name(int i) const { return "L" + std::to_string(layer_of[i]) + "R" + std::to_string(i); }
};

}  // namespace bench
