#include "stack/dynamic_references.h"

#include <vector>

#include "template/parse.h"

namespace ms {
namespace {

constexpr std::string_view kOpen = "{{resolve:";
constexpr std::string_view kSecureServices[] = {"ssm-secure:", "secretsmanager:"};

std::vector<std::string> SplitColons(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t colon = s.find(':', start);
    out.emplace_back(s.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (colon == std::string_view::npos) return out;
    start = colon + 1;
  }
}

// {{resolve:ssm-secure:NAME[:VERSION]}}: an empty version is AWS's format error.
Status ResolveSsmSecure(const std::string& rest, const DynamicReferenceResolvers& r, std::string* value) {
  const size_t colon = rest.rfind(':');
  if (rest.empty() || (colon != std::string::npos && colon + 1 == rest.size())) {
    return Status::Validation("Incorrect format is used in the following SSM reference: [{{resolve:ssm-secure:" +
                              rest + "}}]");
  }
  if (!r.ssm_secure || !r.ssm_secure(rest, value)) {
    return Status::Validation("Parameters: [ssm-secure:" + rest + "] cannot be found.");
  }
  return Status::OK();
}

// The value under `key` of a JSON-object secret, as text.
Status JsonKey(const std::string& secret, const std::string& key, std::string* value) {
  Value doc;
  const Value* v = nullptr;
  if (ParseJson(secret, &doc).ok() && doc.is_map()) v = doc.find(key);
  if (v == nullptr || v->is_null()) {
    return Status::Validation("Could not find a value associated with JSONKey in SecretString");
  }
  *value = v->is_scalar() ? v->str() : v->ToJson();
  return Status::OK();
}

// {{resolve:secretsmanager:SECRET-ID:SecretString:JSON-KEY:VERSION-STAGE:VERSION-ID}}:
// SECRET-ID is a name, or an ARN (its first 7 colon-separated fields).
Status ResolveSecret(const std::string& rest, const DynamicReferenceResolvers& r, std::string* value) {
  std::vector<std::string> parts = SplitColons(rest);
  std::string id;
  size_t next = 1;
  if (parts[0] == "arn" && parts.size() >= 7) {
    for (size_t i = 0; i < 7; ++i) id += (i ? ":" : "") + parts[i];
    next = 7;
  } else {
    id = parts[0];
  }
  auto part = [&](size_t i) { return next + i < parts.size() ? parts[next + i] : std::string(); };
  const std::string field = part(0), key = part(1), stage = part(2), version = part(3);
  if (id.empty() || (!field.empty() && field != "SecretString") || next + 4 < parts.size()) {
    return Status::Validation("Incorrect format is used in the following Secrets Manager reference: "
                              "[{{resolve:secretsmanager:" + rest + "}}]");
  }
  std::string secret, error = "Secrets Manager can't find the specified secret.";
  if (!r.secret || !r.secret(id, stage, version, &secret, &error)) return Status::Validation(error);
  if (key.empty()) {
    *value = std::move(secret);
    return Status::OK();
  }
  return JsonKey(secret, key, value);
}

Status ResolveString(const std::string& in, const DynamicReferenceResolvers& r, std::string* out) {
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
    std::string value;
    if (service == "ssm") {
      if (rest.empty() || !r.ssm || !r.ssm(rest, &value)) {
        return Status::Validation("Parameters: [ssm:" + rest + "] cannot be found.");
      }
    } else if (service == "ssm-secure") {
      MS_RETURN_IF_ERROR(ResolveSsmSecure(rest, r, &value));
    } else if (service == "secretsmanager") {
      MS_RETURN_IF_ERROR(ResolveSecret(rest, r, &value));
    } else {
      value = in.substr(start, end + 2 - start);  // not a dynamic reference moonstack knows: left as it is
    }
    out->append(value);
    pos = end + 2;
  }
  out->append(in, pos, std::string::npos);
  return Status::OK();
}

}  // namespace

Status ResolveDynamicReferences(Value* v, const DynamicReferenceResolvers& resolvers) {
  if (v->is_string()) {
    if (v->str().find(kOpen) == std::string::npos) return Status::OK();
    std::string resolved;
    MS_RETURN_IF_ERROR(ResolveString(v->str(), resolvers, &resolved));
    *v = Value::String(std::move(resolved));
    return Status::OK();
  }
  if (v->is_list()) {
    for (Value& item : v->mutable_list()) MS_RETURN_IF_ERROR(ResolveDynamicReferences(&item, resolvers));
  } else if (v->is_map()) {
    for (Member& m : v->mutable_map()) MS_RETURN_IF_ERROR(ResolveDynamicReferences(&m.value, resolvers));
  }
  return Status::OK();
}

Status ResolveDynamicReferences(Value* v, const SsmResolver& ssm) {
  DynamicReferenceResolvers r;
  r.ssm = ssm;
  return ResolveDynamicReferences(v, r);
}

DynamicReferenceResolvers SessionResolvers(ProviderSession* session, const std::string& region,
                                           const std::string& account) {
  DynamicReferenceResolvers r;
  r.ssm = [session, region, account](std::string_view name, std::string* value) {
    return session->SsmParameter(name, region, account, value);
  };
  r.ssm_secure = [session, region, account](std::string_view name, std::string* value) {
    return session->SecureSsmParameter(name, region, account, value);
  };
  r.secret = [session, region, account](std::string_view id, std::string_view stage, std::string_view version,
                                        std::string* value, std::string* error) {
    return session->SecretString(id, stage, version, region, account, value, error);
  };
  return r;
}

bool HasSecureReference(const Value& v) {
  return AnyValue(v, [](const Value& x) {
    if (!x.is_string()) return false;
    for (std::string_view service : kSecureServices) {
      if (x.str().find(std::string(kOpen) + std::string(service)) != std::string::npos) return true;
    }
    return false;
  });
}

bool HasDynamicReference(const Value& v) {
  return AnyValue(v, [](const Value& x) { return x.is_string() && x.str().find(kOpen) != std::string::npos; });
}

}  // namespace ms
