#include "lua/world_ids.h"

#include <cmath>
#include <cstdint>
#include <utility>

namespace ms::lua {
namespace {

// ids.lua's constants. Every product stays below 2^47: exact in int64, as
// in Lua's doubles, so both compute the same states.
constexpr int64_t kM1 = 2147483563, kA1 = 40014;
constexpr int64_t kM2 = 2147483399, kA2 = 40692;

const std::string kKind = "sim";
const std::string kId = "ids";

struct State {
  int64_t s1, s2;

  // ids.lua's Ids:next(): the states advance, the result is z / M1.
  double Next() {
    s1 = (kA1 * s1) % kM1;
    s2 = (kA2 * s2) % kM2;
    int64_t z = s1 - s2;
    if (z < 1) z += kM1 - 1;
    return static_cast<double>(z) / static_cast<double>(kM1);
  }
};

// ids.lua's seed_states(text) and the warm-up of M.new(text).
State Seeded(std::string_view text) {
  const auto len = static_cast<int64_t>(text.size());
  State s{len % kM1, (len * 7) % kM2};
  for (unsigned char b : text) {
    s.s1 = (s.s1 * 31 + b + 1) % kM1;
    s.s2 = (s.s2 * 37 + b + 1) % kM2;
  }
  if (s.s1 == 0) s.s1 = 1;
  if (s.s2 == 0) s.s2 = 1;
  for (int i = 0; i < 8; ++i) s.Next();
  return s;
}

// The record's state; moonstack.ids's default seed when there is none (or
// it is not a state ids.restore would take).
State Load(const World& world) {
  const WorldRecord* r = world.Find(kKind, kId);
  const Value* s1 = r != nullptr ? r->value().find("s1") : nullptr;
  const Value* s2 = r != nullptr ? r->value().find("s2") : nullptr;
  // Integers, as ids:state() writes them (whole doubles keep integer text).
  const int64_t n1 = s1 != nullptr ? s1->as_integer().value_or(0) : 0;
  const int64_t n2 = s2 != nullptr ? s2->as_integer().value_or(0) : 0;
  if (n1 >= 1 && n1 < kM1 && n2 >= 1 && n2 < kM2) return State{n1, n2};
  return Seeded("moonstack");
}

void Save(World* world, const State& s) {
  world->Put(kKind, kId, WorldRecord(Value::MakeMap({{"s1", Value::Integer(s.s1)}, {"s2", Value::Integer(s.s2)}})));
}

}  // namespace

std::string DrawFromWorld(World* world, std::string_view alphabet, int n) {
  std::string out;
  if (n <= 0 || alphabet.empty()) return out;
  out.reserve(static_cast<size_t>(n));
  const double k = static_cast<double>(alphabet.size());
  auto lock = world->Lock();
  State s = Load(*world);
  for (int i = 0; i < n; ++i) {
    // ids.lua's draw(): chars[floor(z / M1 * k) + 1].
    out.push_back(alphabet[static_cast<size_t>(std::floor(s.Next() * k))]);
  }
  Save(world, s);
  return out;
}

double UniformFromWorld(World* world) {
  auto lock = world->Lock();
  State s = Load(*world);
  double u = s.Next();
  Save(world, s);
  return u;
}

}  // namespace ms::lua
