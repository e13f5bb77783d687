#include "stack/dynamic_references.h"

namespace ms {
namespace {

constexpr std::string_view kOpen = "{{resolve:";

Status ResolveString(const std::string& in, const SsmResolver& ssm, std::string* out) {
  out->clear();
  size_t pos = 0;
  while (true) {
    size_t start = in.find(kOpen, pos);
    if (start == std::string::npos) break;
    size_t end = in.find("}}", start);
    if (end == std::string::npos) break;
    out->append(in, pos, start - pos);
    const std::string ref = in.substr(start + kOpen.size(), end - start - kOpen.size());  // "ssm:NAME[:V]"
    const size_t colon = ref.find(':');
    const std::string service = ref.substr(0, colon);
    const std::string rest = colon == std::string::npos ? "" : ref.substr(colon + 1);
    if (service == "ssm") {
      std::string value;
      if (rest.empty() || !ssm || !ssm(rest, &value)) {
        return Status::Validation("Parameters: [ssm:" + rest + "] cannot be found.");
      }
      out->append(value);
    } else if (service == "ssm-secure" || service == "secretsmanager") {
      return Status::Validation("Dynamic reference {{resolve:" + service +
                                ":...}} is not supported: the simulated cloud has no secrets");
    } else {
      out->append(in, start, end + 2 - start);  // not a dynamic reference moonstack knows: left as it is
    }
    pos = end + 2;
  }
  out->append(in, pos, std::string::npos);
  return Status::OK();
}

}  // namespace

Status ResolveDynamicReferences(Value* v, const SsmResolver& ssm) {
  if (v->is_string()) {
    if (v->str().find(kOpen) == std::string::npos) return Status::OK();
    std::string resolved;
    MS_RETURN_IF_ERROR(ResolveString(v->str(), ssm, &resolved));
    *v = Value::String(std::move(resolved));
    return Status::OK();
  }
  if (v->is_list()) {
    for (Value& item : v->mutable_list()) MS_RETURN_IF_ERROR(ResolveDynamicReferences(&item, ssm));
  } else if (v->is_map()) {
    for (Member& m : v->mutable_map()) MS_RETURN_IF_ERROR(ResolveDynamicReferences(&m.value, ssm));
  }
  return Status::OK();
}

}  // namespace ms
