#include "plan/property_diff.h"

#include <algorithm>
#include <map>
#include <set>

namespace ms {
namespace {

// A map's members by key, for comparing maps whose keys come in any order.
std::map<std::string_view, const Value*> ByKey(const Value& m) {
  std::map<std::string_view, const Value*> out;
  for (const Member& mem : m.map()) out.emplace(mem.key, &mem.value);
  return out;
}

// Shared walk of SameValue (wildcard = false) and KnownPartsDiffer's negation
// (wildcard = true: an Unknown in `b` matches anything).
bool Matches(const Value& a, const Value& b, bool wildcard) {
  if (b.is_unknown()) return wildcard;
  if (a.is_unknown()) return false;
  if (a.is_scalar() && b.is_scalar()) return a.scalar_text() == b.scalar_text();
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::kNull:
      return true;
    case Value::Kind::kList: {
      const Value::List& x = a.list();
      const Value::List& y = b.list();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!Matches(x[i], y[i], wildcard)) return false;
      }
      return true;
    }
    case Value::Kind::kMap: {
      if (a.map().size() != b.map().size()) return false;
      // Same order (the common case: both from one template's order) is a
      // linear check; otherwise compare by key.
      bool same_order = true;
      for (size_t i = 0; i < a.map().size() && same_order; ++i) {
        same_order = a.map()[i].key == b.map()[i].key;
      }
      if (same_order) {
        for (size_t i = 0; i < a.map().size(); ++i) {
          if (!Matches(a.map()[i].value, b.map()[i].value, wildcard)) return false;
        }
        return true;
      }
      auto x = ByKey(a);
      auto y = ByKey(b);
      for (const auto& [k, v] : x) {
        auto it = y.find(k);
        if (it == y.end() || !Matches(*v, *it->second, wildcard)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

void CollectRefs(const Value& v, std::set<std::string>* out) {
  if (v.is_unknown()) {
    out->insert(v.unknown_refs().begin(), v.unknown_refs().end());
  } else if (v.is_list()) {
    for (const Value& i : v.list()) CollectRefs(i, out);
  } else if (v.is_map()) {
    for (const Member& m : v.map()) CollectRefs(m.value, out);
  }
}

const Value kNull;

const Value& MemberOf(const Value& m, std::string_view key) {
  const Value* v = m.is_map() ? m.find(key) : nullptr;
  return v == nullptr ? kNull : *v;
}

}  // namespace

bool SameValue(const Value& a, const Value& b) { return Matches(a, b, false); }

bool KnownPartsDiffer(const Value& before, const Value& after) { return !Matches(before, after, true); }

bool HasUnknown(const Value& v) {
  return AnyValue(v, [](const Value& x) { return x.is_unknown(); });
}

std::vector<std::string> UnknownRefs(const Value& v) {
  std::set<std::string> refs;
  CollectRefs(v, &refs);
  return {refs.begin(), refs.end()};
}

Recreation RecreationOf(UpdateBehavior b, bool decided) {
  if (!decided) return Recreation::kConditionally;
  return b == UpdateBehavior::kReplace ? Recreation::kAlways : Recreation::kNever;
}

Status DiffProperties(const DiffInput& in, const Value& before, const Value& after,
                      std::vector<PropertyChange>* out) {
  out->clear();
  // Names of both sides, sorted: the output's order.
  std::set<std::string_view> names;
  for (const auto& m : before.map()) names.insert(m.key);
  for (const auto& m : after.map()) names.insert(m.key);
  // A provider's update function sees both sides whole, so it decides only
  // when nothing in them is unknown (an unknown value cannot reach Lua).
  const bool whole_known = UnknownRefs(after).empty() && UnknownRefs(before).empty();
  for (std::string_view name : names) {
    const Value& b = MemberOf(before, name);
    const Value& a = MemberOf(after, name);
    if (SameValue(b, a)) continue;
    PropertyChange c;
    c.name = std::string(name);
    c.change = b.is_null() ? AttributeChange::kAdd : a.is_null() ? AttributeChange::kRemove : AttributeChange::kModify;
    c.known_change = KnownPartsDiffer(b, a);
    c.dynamic_refs = UnknownRefs(a);
    if (!c.known_change && c.dynamic_refs.empty()) continue;  // cannot happen: kept for safety
    c.before = b;
    c.after = a;

    const PropertySchema* p = in.schema == nullptr ? nullptr : in.schema->FindProperty(name);
    if (in.schema == nullptr) {
      c.behavior = UpdateBehavior::kReplace;  // nothing says it can be updated in place
    } else if (p == nullptr) {
      c.behavior = UpdateBehavior::kNone;
    } else if (!p->conditional) {
      c.behavior = p->update;
    } else if (whole_known && in.session != nullptr && in.ctx != nullptr) {
      HookContext ctx = *in.ctx;  // with both sides whole: the decision may depend on other properties
      ctx.old_properties = &before;
      ctx.new_properties = &after;
      MS_RETURN_IF_ERROR(in.session->DecideUpdate(in.type, name, b, a, ctx, &c.behavior));
    } else {
      c.decided = false;  // the provider decides when the new value is known
    }
    out->push_back(std::move(c));
  }
  return Status::OK();
}

}  // namespace ms
