// Marshalling between ms::Value and Lua values.
//
// Engine -> Lua:
//   null     `moonstack.null`, a light userdata (compare with ==; tostring
//            gives "null"). A JSON null inside a list keeps its slot.
//   boolean  boolean                 (stringify_scalars: "true" / "false")
//   number   number, a double        (stringify_scalars: its text, unchanged)
//   string   string (any bytes, NULs included)
//   list     table 1..n marked array  (metatable field __jsontype = "array")
//   map      table marked object      (__jsontype = "object"); an EMPTY map
//            is left unmarked, so Lua code may fill it either way
//   unknown  refused: an unknown value never reaches provider code
//
// Lua -> engine:
//   nil (top level only) and moonstack.null -> null; booleans; strings;
//   numbers -> Number with the shortest text that round-trips ("1", "1.5",
//   "1e+20"); NaN and infinities are refused.
//   A table marked array -> list of 1..n (a hole is an error); marked object
//   -> map (keys must be strings). An unmarked table is a list when its keys
//   are exactly 1..n, a map when they are all strings, and an EMPTY unmarked
//   table is an empty MAP (use moonstack.array{} for an empty list). Mixed
//   keys, other key types, functions, threads, other userdata, cycles and
//   nesting deeper than max_depth are errors naming the path ("attributes.Tags[2]").
//
// Round trips keep what Lua cannot see:
//   - Map key order: a map whose keys are not already sorted carries its
//     document order (metatable field __order = {key = position}); going out,
//     keys come in that order, then keys Lua added, sorted. Maps built in Lua
//     come out with sorted keys, so the result is deterministic.
//   - Number text: LuaJIT has only doubles, so 1 and 1.0 are the same number.
//     A number inside a table whose text is not the canonical text of its
//     value ("1.0", "1.10", "1e3") is remembered (metatable field
//     __numtext = {key = text}) and comes back verbatim as long as the value
//     is unchanged; a changed value, or a number built in Lua, takes the
//     canonical text ("1.0" + 1 gives "2"). A bare number argument or result
//     (not inside a table) is canonical.
// Copying a table's metatable (the SDK does) copies these facts with it; they
// are only used while they still agree with the table's contents.
#pragma once

#include <string>

#include "template/value.h"

struct lua_State;

namespace ms::lua {

struct MarshalOptions {
  // Booleans and numbers become strings on the way in, as CloudFormation
  // hands them to custom resources ("true", "10").
  bool stringify_scalars = false;
  // Deepest nesting of lists and maps, both ways.
  int max_depth = 100;
  // Engine -> Lua: record a map's document order (__order) when its keys are
  // not sorted. Hook calls turn it off: a provider's result never depends on
  // key order, and building the side table is most of a call's marshalling.
  bool keep_key_order = true;
};

// Creates the markers and the `moonstack` table (global and
// package.loaded.moonstack): null, array(t), object(t), kind(v). Must run
// once per state, in protected mode; leaves the stack as it found it.
void InstallMarshal(lua_State* L);

// Pushes `v` and returns true; or pushes nothing, sets *error and returns
// false. May raise a Lua memory error: call in protected mode.
bool PushValue(lua_State* L, const Value& v, const MarshalOptions& o, std::string* error);

// Converts the Lua value at `idx`; `what` names it in errors ("result",
// "argument 2"). Returns false with *error set. Never runs Lua code (raw
// access only). Call in protected mode (it may grow the Lua stack).
bool ToValue(lua_State* L, int idx, const MarshalOptions& o, Value* out, std::string* error,
             const std::string& what = "value");

// The null sentinel's identity, for C++ code that builds Lua values itself.
void PushNull(lua_State* L);
bool IsNull(lua_State* L, int idx);

}  // namespace ms::lua
