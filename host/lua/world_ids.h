// The world's shared ID generator, drawn in C++.
//
// The simulated services name what they create with deterministic IDs
// (sg-0…, AROA…, request IDs) from one sequence for the whole world, so a
// replay with the same seed gives the same IDs. The sequence is
// moonstack.ids's (lua-sdk/moonstack/ids.lua: L'Ecuyer's combined linear
// congruential generator, the same arithmetic in the same order, so the
// same characters); its state is the world record ("sim", "ids") =
// {s1 = …, s2 = …}, which `ids:state()` writes and the store persists.
//
// Why here and not in Lua: every simulated action that named something got
// the record, restored a generator and put the record back, a Lua⇄C++
// conversion each way; here a draw reads and writes the two numbers in
// place. The Lua module world_binding.h exposes: world.draw(alphabet, n),
// world.uniform(). lua-sdk/moonstack/world_memory.lua has the same two for
// plain-luajit tests, over ids.lua; tests/providers/world_contract.lua holds
// both to one sequence.
#pragma once

#include <string>
#include <string_view>

#include "world/world.h"

namespace ms::lua {

// `n` characters of `alphabet`, each alphabet[floor(u * size)] for the
// generator's next u, under the world's lock. A world without the record
// starts from moonstack.ids's default seed ("moonstack").
std::string DrawFromWorld(World* world, std::string_view alphabet, int n);

// The generator's next value, uniform in (0, 1) (ids.lua's Ids:next()).
double UniformFromWorld(World* world);

}  // namespace ms::lua
