#include "lua/runtime.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include <lua.hpp>

#include "lua/isolation.h"
#include "lua/sandbox.h"

namespace ms::lua {

// What one protected call does; the trampoline reads it, fills `result`.
struct Runtime::Invocation {
  enum class Op { kCall, kField, kMethod, kGet, kEval, kNewRef };
  Op op = Op::kCall;
  const Ref* target = nullptr;
  int target_ref = 0;     // a registry slot, when target is null
  std::string_view name;  // field, method, module or chunk name
  std::string_view code;  // kEval
  const std::vector<Arg>* args = nullptr;
  const Value* value = nullptr;  // kNewRef
  CallOptions options;
  CallResult result;
  std::string marshal_error;  // a value could not cross
};

namespace {

int Panic(lua_State* L) {
  // Unreachable by design: every Lua API call that can raise runs under
  // lua_pcall. If it happens anyway, fail loudly rather than corrupt state.
  const char* msg = lua_tostring(L, -1);
  std::fprintf(stderr, "moonstack: unprotected Lua error: %s\n", msg ? msg : "?");
  std::abort();
}

bool IsStackOverflow(const std::string& message) {
  return message.compare(0, 14, "stack overflow") == 0;
}

const Value kNullValue;

}  // namespace

const Value& CallResult::value() const { return values.empty() ? kNullValue : values.front(); }

Ref& Ref::operator=(Ref&& o) noexcept {
  if (this != &o) {
    Reset();
    L_ = o.L_;
    ref_ = o.ref_;
    o.L_ = nullptr;
  }
  return *this;
}

void Ref::Reset() {
  // luaL_unref only writes an existing registry slot: it cannot raise.
  if (L_ != nullptr) luaL_unref(L_, LUA_REGISTRYINDEX, ref_);
  L_ = nullptr;
}

void Ref::Push(lua_State* L) const {
  if (L_ == nullptr) lua_pushnil(L); else lua_rawgeti(L, LUA_REGISTRYINDEX, ref_);
}

Runtime::Runtime(RuntimeOptions options) : options_(std::move(options)) {}

Runtime::~Runtime() {
  if (L_ != nullptr) lua_close(L_);
}

std::unique_ptr<Runtime> Runtime::Create(RuntimeOptions options, Status* status) {
  std::unique_ptr<Runtime> rt(new Runtime(std::move(options)));
  rt->limit_state_.limits = rt->options_.limits;
  rt->sandbox_ = std::make_unique<Sandbox>(rt->options_.module_roots, rt->options_.print);

  // A custom allocator makes the memory cap hard. LuaJIT 2.1 refuses one on
  // x64 unless built with GC64 (lua_newstate returns NULL): fall back to the
  // hook's soft check there.
  rt->limit_state_.hard_memory = true;
  rt->L_ = lua_newstate(LimitedAlloc, &rt->limit_state_);
  if (rt->L_ == nullptr) {
    rt->limit_state_.hard_memory = false;
    rt->L_ = luaL_newstate();
  }
  auto fail = [&](std::string msg) -> std::unique_ptr<Runtime> {
    if (status) *status = Status::Internal("cannot create the Lua runtime: " + msg);
    return nullptr;
  };
  if (rt->L_ == nullptr) return fail("out of memory");
  lua_atpanic(rt->L_, Panic);

  // The JIT compiler off for the whole state: compiled traces do not run
  // the count hook, so the deadline could not interrupt a hot loop.
  if (!luaJIT_setmode(rt->L_, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF)) {
    return fail("cannot turn the JIT compiler off");
  }

  int rc = lua_cpcall(rt->L_, Init, rt.get());
  if (rc != 0) {
    std::string msg = lua_tostring(rt->L_, -1) ? lua_tostring(rt->L_, -1) : "error";
    if (rc == LUA_ERRMEM) msg = MemoryMessage(rt->limit_state_.limits) + " while starting";
    return fail(msg);
  }
  if (status) *status = Status::OK();
  return rt;
}

int Runtime::Init(lua_State* L) {
  auto* rt = static_cast<Runtime*>(lua_touserdata(L, 1));
  lua_settop(L, 0);
  InstallLimits(L, &rt->limit_state_);
  rt->sandbox_->Install(L);
  InstallMarshal(L);
  SealSharedTables(L);  // last: the shared tables read-only from here on

  lua_getglobal(L, "require");  // before provider code can replace the global
  rt->require_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushlightuserdata(L, &rt->pending_error_);
  lua_pushcclosure(L, CaptureError, 1);
  rt->handler_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushcfunction(L, Trampoline);
  rt->trampoline_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

// Runs inside lua_pcall: marshalling and the call itself can raise (memory,
// deadline, provider errors) and all of it must unwind to Run's pcall.
int Runtime::Trampoline(lua_State* L) {
  auto* inv = static_cast<Invocation*>(lua_touserdata(L, 1));
  lua_settop(L, 0);
  const MarshalOptions& mo = inv->options.marshal;
  // A Ref indexes one state's registry: another Runtime's would silently
  // name some other value here.
  auto foreign = [L](const Ref* r) { return r != nullptr && r->L_ != nullptr && r->L_ != L; };
  if (foreign(inv->target)) {
    inv->marshal_error = "the callee is a Ref of another Runtime";
    return 0;
  }
  bool call = true;
  switch (inv->op) {
    case Invocation::Op::kCall:
      if (inv->target) inv->target->Push(L); else lua_rawgeti(L, LUA_REGISTRYINDEX, inv->target_ref);
      break;
    case Invocation::Op::kField:
    case Invocation::Op::kMethod:
      inv->target->Push(L);
      lua_pushlstring(L, inv->name.data(), inv->name.size());
      lua_gettable(L, 1);
      lua_insert(L, 1);  // fn, object
      if (inv->op == Invocation::Op::kField) lua_pop(L, 1);
      break;
    case Invocation::Op::kGet:
      inv->target->Push(L);
      lua_pushlstring(L, inv->name.data(), inv->name.size());
      lua_gettable(L, 1);
      lua_remove(L, 1);
      call = false;
      break;
    case Invocation::Op::kEval: {
      int st;
      {
        std::string chunkname(inv->name);
        st = luaL_loadbufferx(L, inv->code.data(), inv->code.size(), chunkname.c_str(), "t");
      }
      if (st != 0) lua_error(L);  // the syntax error, as a call failure
      break;
    }
    case Invocation::Op::kNewRef:
      if (!PushValue(L, *inv->value, mo, &inv->marshal_error)) return 0;
      call = false;
      break;
  }
  if (call) {
    int n = inv->args ? static_cast<int>(inv->args->size()) : 0;
    luaL_checkstack(L, n + 4, "too many arguments");
    for (int i = 0; i < n; ++i) {
      const Arg& a = (*inv->args)[static_cast<size_t>(i)];
      if (foreign(a.ref_)) {
        inv->marshal_error = "argument " + std::to_string(i + 1) + ": a Ref of another Runtime";
        return 0;
      }
      if (a.ref_ != nullptr) {
        a.ref_->Push(L);
      } else if (a.value_ != nullptr) {
        std::string err;
        if (!PushValue(L, *a.value_, mo, &err)) {
          inv->marshal_error = "argument " + std::to_string(i + 1) + ": " + err;
          return 0;
        }
      } else {
        lua_pushnil(L);
      }
    }
    int nargs = lua_gettop(L) - 1;
    lua_call(L, nargs, LUA_MULTRET);
  }

  int n = lua_gettop(L);
  if (inv->options.max_results >= 0 && n > inv->options.max_results) n = inv->options.max_results;
  for (int i = 1; i <= n; ++i) {
    if (inv->options.results == Results::kRefs) {
      lua_pushvalue(L, i);
      int ref = luaL_ref(L, LUA_REGISTRYINDEX);
      inv->result.refs.push_back(Ref(L, ref));
    } else {
      Value v;
      if (!ToValue(L, i, mo, &v, &inv->marshal_error, "result " + std::to_string(i))) return 0;
      inv->result.values.push_back(std::move(v));
    }
  }
  return 0;
}

CallResult Runtime::Run(Invocation* inv) {
  lua_State* L = L_;
  int base = lua_gettop(L);
  LimitState& ls = limit_state_;
  BeginCall(L, &ls, reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
  if (ls.call_depth == 1) sandbox_->ResetLoading();
  pending_error_ = LuaError{};

  lua_rawgeti(L, LUA_REGISTRYINDEX, handler_ref_);
  lua_rawgeti(L, LUA_REGISTRYINDEX, trampoline_ref_);
  lua_pushlightuserdata(L, inv);
  int rc = lua_pcall(L, 1, 0, base + 1);

  Abort abort = ls.abort;
  bool refused = ls.refused;
  bool c_stack_overflow = ls.c_stack_overflow;
  LuaError e;
  if (rc == LUA_ERRRUN) {
    e = std::move(pending_error_);
  } else if (rc != 0 && lua_type(L, -1) == LUA_TSTRING) {
    // The handler did not run: LUA_ERRMEM never calls it, and after a Lua
    // stack overflow LuaJIT has no room left to call it (LUA_ERRERR with
    // "stack overflow"). No position or traceback then.
    e.message = lua_tostring(L, -1);
  }
  EndCall(L, &ls);
  lua_settop(L, base);

  CallResult& result = inv->result;
  // An allocation refused at the cap fails the call even if provider code
  // caught the error and finished before the hook saw it: the outcome must
  // not depend on where the hook happened to fire.
  if (rc == 0 && refused) rc = LUA_ERRMEM;
  if (rc != 0) {
    if (abort == Abort::kDeadline) {
      e.kind = LuaErrorKind::kDeadline;
      e.message = DeadlineMessage(ls.limits);
      e.code.clear();
    } else if (abort == Abort::kMemory || refused || rc == LUA_ERRMEM) {
      e.kind = LuaErrorKind::kMemory;
      e.message = MemoryMessage(ls.limits);
      e.code.clear();
    } else if (c_stack_overflow && e.message.find(kCStackOverflow) != std::string::npos) {
      e.kind = LuaErrorKind::kStackOverflow;
      e.message = kCStackOverflow;  // also when rethrown inside another message
      e.code.clear();
    } else if (IsStackOverflow(e.message)) {
      e.kind = LuaErrorKind::kStackOverflow;
    } else if (rc == LUA_ERRERR) {
      e.kind = LuaErrorKind::kInternal;
      e.message = "error in the Lua error handler: " + e.message;
    }
    // Results made before the failure are dropped (refs released here).
    result.values.clear();
    result.refs.clear();
    result.error = std::move(e);
    // Whatever the aborted code allocated is garbage now: give it back
    // before the next call measures against the cap.
    if (abort != Abort::kNone || refused || rc == LUA_ERRMEM) lua_gc(L, LUA_GCCOLLECT, 0);
  } else if (!inv->marshal_error.empty()) {
    result.values.clear();
    result.refs.clear();
    LuaError e;
    e.kind = LuaErrorKind::kMarshal;
    e.message = std::move(inv->marshal_error);
    result.error = std::move(e);
  }
  return std::move(result);
}

CallResult Runtime::Require(std::string_view module) {
  Invocation inv;
  inv.op = Invocation::Op::kCall;
  inv.target_ref = require_ref_;
  Value name = Value::String(std::string(module));
  std::vector<Arg> args{Arg(name)};
  inv.args = &args;
  inv.options.results = Results::kRefs;
  inv.options.max_results = 1;
  return Run(&inv);
}

CallResult Runtime::Eval(std::string_view code, std::string_view chunkname,
                         const CallOptions& options) {
  Invocation inv;
  inv.op = Invocation::Op::kEval;
  inv.code = code;
  inv.name = chunkname;
  inv.options = options;
  return Run(&inv);
}

CallResult Runtime::Call(const Ref& fn, const std::vector<Arg>& args, const CallOptions& options) {
  Invocation inv;
  inv.op = Invocation::Op::kCall;
  inv.target = &fn;
  inv.args = &args;
  inv.options = options;
  return Run(&inv);
}

CallResult Runtime::CallField(const Ref& object, std::string_view field,
                              const std::vector<Arg>& args, const CallOptions& options) {
  Invocation inv;
  inv.op = Invocation::Op::kField;
  inv.target = &object;
  inv.name = field;
  inv.args = &args;
  inv.options = options;
  return Run(&inv);
}

CallResult Runtime::CallMethod(const Ref& object, std::string_view method,
                               const std::vector<Arg>& args, const CallOptions& options) {
  Invocation inv;
  inv.op = Invocation::Op::kMethod;
  inv.target = &object;
  inv.name = method;
  inv.args = &args;
  inv.options = options;
  return Run(&inv);
}

CallResult Runtime::Get(const Ref& table, std::string_view field, const CallOptions& options) {
  Invocation inv;
  inv.op = Invocation::Op::kGet;
  inv.target = &table;
  inv.name = field;
  inv.options = options;
  return Run(&inv);
}

CallResult Runtime::NewRef(const Value& v, const MarshalOptions& marshal) {
  Invocation inv;
  inv.op = Invocation::Op::kNewRef;
  inv.value = &v;
  inv.options.marshal = marshal;
  inv.options.results = Results::kRefs;
  return Run(&inv);
}

const Limits& Runtime::limits() const { return limit_state_.limits; }

Status Runtime::set_limits(const Limits& limits) {
  if (limit_state_.call_depth > 0) return Status::Internal("set_limits during a Lua call");
  limit_state_.limits = limits;
  auto refresh = [](lua_State* L) -> int {
    auto* ls = static_cast<LimitState*>(lua_touserdata(L, 1));
    RefreshLimitMessages(L, ls);
    return 0;
  };
  if (lua_cpcall(L_, refresh, &limit_state_) != 0) {
    lua_pop(L_, 1);
    return Status::Internal("cannot apply the new Lua limits (memory cap below current use?)");
  }
  return Status::OK();
}

bool Runtime::hard_memory_cap() const { return limit_state_.hard_memory; }

size_t Runtime::memory_used() const {
  if (limit_state_.hard_memory) return limit_state_.used;
  return static_cast<size_t>(lua_gc(L_, LUA_GCCOUNT, 0)) * 1024 +
         static_cast<size_t>(lua_gc(L_, LUA_GCCOUNTB, 0));
}

}  // namespace ms::lua
