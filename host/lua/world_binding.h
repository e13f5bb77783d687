// WorldBinding: the `moonstack.world` module, the simulated cloud's store as
// Lua sees it (providers/sim/ runs on it). Its contract is documented, and
// mirrored for plain-luajit tests, in lua-sdk/moonstack/world_memory.lua:
//
//   get(kind, id)                 -> a copy of the record's data, or nil
//   put(kind, id, data [, opts])  opts: { refs = {ids...}, live = bool }
//   remove(kind, id)              -> true if it existed
//   ids(kind [, live_only [, prefix [, after [, limit]]]]) -> sorted ids (those starting with
//                                 prefix, after `after`, at most limit: O(log n + k))
//   live(kind, id)                -> bool
//   referrers(id)                 -> { {kind=, id=}, ... } of live records naming id
//   kinds()                       -> sorted kinds that hold records
//   atomic(fn, ...)               -> fn(...)'s results, the world locked meanwhile
//   now_ms() / set_now_ms(ms)     the clock of the current call
//   read_blob(id, offset, length) -> bytes of a blob a record's "Blobs" names (world.h)
//   blob_sha256(id1, size1, ...)  -> the raw SHA-256 of those blobs' bytes, in order (never a Lua string of them)
//   draw(alphabet, n)             -> n characters from the world's ID generator
//   uniform()                     -> its next value in (0, 1) (world_ids.h)
//
// The World is shared by every worker; each Runtime has its own binding (its
// own clock: the engine sets it to the hook's ctx.now_ms before each call).
// os.time() and os.date() without a time argument read that clock too, so
// provider code sees virtual time as the engine does.
#pragma once

#include <cstdint>
#include <memory>

#include "base/status.h"
#include "world/world.h"

namespace ms::lua {

class Runtime;

class WorldBinding {
 public:
  // Installs package.loaded["moonstack.world"] into `rt`. `world` and the
  // binding must outlive the Runtime's use of the module.
  static Status Install(Runtime* rt, World* world, std::unique_ptr<WorldBinding>* out);

  void set_now_ms(int64_t ms) { now_ms_ = ms; }
  int64_t now_ms() const { return now_ms_; }
  World* world() const { return world_; }

 private:
  explicit WorldBinding(World* world) : world_(world) {}
  World* world_;
  int64_t now_ms_ = 0;
};

}  // namespace ms::lua
