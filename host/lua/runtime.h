// Runtime: one sandboxed LuaJIT state. ONE PER WORKER THREAD.
//
// A Runtime is not thread-safe: create it, use it and destroy it on one
// thread (the engine's pool gives each Lua worker its own). Everything that
// runs Lua goes through it — loading modules, calling provider hooks — so
// every call gets the sandbox (sandbox.h), the limits (limits.h: deadline,
// memory cap, C-stack budget) and error capture (error.h). A call that breaks
// a limit fails alone with a clear reason; the same Runtime then serves the
// next call normally.
//
//   RuntimeOptions o;
//   o.module_roots = {"lua-sdk", "providers"};
//   auto rt = Runtime::Create(o, &status);
//   CallResult mod = rt->Require("aws.ec2.subnet");           // mod.refs[0]
//   CallResult r = rt->CallField(mod.refs[0], "create", {ctx, props});
//   if (!r.ok()) reason = r.error->message;                   // AWS-facing
//   else attributes = r.values[0];
//
// Values cross as described in marshal.h.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "lua/error.h"
#include "lua/limits.h"
#include "lua/marshal.h"
#include "template/value.h"

struct lua_State;

namespace ms::lua {

class Sandbox;

struct RuntimeOptions {
  Limits limits;
  // Directories `require` searches, in order (the lua-sdk, provider dirs).
  std::vector<std::string> module_roots;
  // Receives each line provider code prints; print output is dropped when
  // empty. Must not throw.
  std::function<void(std::string_view)> print;
};

// A Lua value kept alive for C++ (a registry reference). Move-only. Destroy
// it on the Runtime's thread, before the Runtime.
class Ref {
 public:
  Ref() = default;
  Ref(Ref&& o) noexcept : L_(o.L_), ref_(o.ref_) { o.L_ = nullptr; }
  Ref& operator=(Ref&& o) noexcept;
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  ~Ref() { Reset(); }

  bool valid() const { return L_ != nullptr; }
  void Reset();

 private:
  friend class Runtime;
  Ref(lua_State* L, int ref) : L_(L), ref_(ref) {}
  void Push(lua_State* L) const;  // pushes the value (nil when invalid)

  lua_State* L_ = nullptr;
  int ref_ = 0;
};

// An argument handed to Lua: a Value (marshalled with the call's options) or
// a Ref. Holds a pointer: the Value or Ref must outlive the call.
class Arg {
 public:
  Arg(const Value& v) : value_(&v) {}  // NOLINT: implicit on purpose
  Arg(const Ref& r) : ref_(&r) {}      // NOLINT
  static Arg Nil() { return Arg(); }

 private:
  friend class Runtime;
  Arg() = default;
  const Value* value_ = nullptr;
  const Ref* ref_ = nullptr;
};

enum class Results {
  kValues,  // results converted to Values
  kRefs,    // results kept as Lua values (tables with functions, modules)
};

struct CallOptions {
  MarshalOptions marshal;  // both ways
  Results results = Results::kValues;
  int max_results = -1;  // -1: all
};

struct CallResult {
  std::vector<Value> values;  // Results::kValues; a missing result is absent
  std::vector<Ref> refs;      // Results::kRefs
  std::optional<LuaError> error;

  bool ok() const { return !error.has_value(); }
  // OK, or error->ToStatus() (the diagnostic: message, file:line, traceback).
  Status status() const { return ok() ? Status::OK() : error->ToStatus(); }
  // The first value, or null.
  const Value& value() const;
};

class Runtime {
 public:
  // A new sandboxed state; nullptr (and *status) when it cannot be created.
  static std::unique_ptr<Runtime> Create(RuntimeOptions options, Status* status = nullptr);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // require(module): refs[0] is what the module returned.
  CallResult Require(std::string_view module);
  // Runs a chunk of Lua source (text only) named `chunkname` ("=name" or
  // "@file" as in Lua) and returns its results.
  CallResult Eval(std::string_view code, std::string_view chunkname = "=eval",
                  const CallOptions& options = {});
  // fn(args...)
  CallResult Call(const Ref& fn, const std::vector<Arg>& args, const CallOptions& options = {});
  // object.field(args...) and object:method(args...) (object passed first).
  CallResult CallField(const Ref& object, std::string_view field, const std::vector<Arg>& args,
                       const CallOptions& options = {});
  CallResult CallMethod(const Ref& object, std::string_view method, const std::vector<Arg>& args,
                        const CallOptions& options = {});
  // table[field] (metamethods apply).
  CallResult Get(const Ref& table, std::string_view field, const CallOptions& options = {});
  // The value in Lua: refs[0] (e.g. a ctx table built from a Value).
  CallResult NewRef(const Value& v, const MarshalOptions& marshal = {});

  const Limits& limits() const;
  Status set_limits(const Limits& limits);
  // True when the memory cap is enforced by the allocator (lua_newstate
  // works: LuaJIT GC64); false when the hook checks lua_gc counts instead.
  bool hard_memory_cap() const;
  size_t memory_used() const;

  // For host code that binds C++ functions into Lua (the world, loggers).
  // Run Lua only through the calls above: they carry the limits.
  lua_State* state() const { return L_; }

 private:
  struct Invocation;
  explicit Runtime(RuntimeOptions options);
  static int Init(lua_State* L);
  static int Trampoline(lua_State* L);
  CallResult Run(Invocation* inv);

  RuntimeOptions options_;
  LimitState limit_state_;
  std::unique_ptr<Sandbox> sandbox_;
  lua_State* L_ = nullptr;
  LuaError pending_error_;  // written by the message handler
  int handler_ref_ = 0;
  int trampoline_ref_ = 0;
  int require_ref_ = 0;
};

}  // namespace ms::lua
