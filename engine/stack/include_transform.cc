#include "stack/include_transform.h"

#include <memory>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "provider/provider.h"
#include "template/include_declarations.h"
#include "template/parse.h"

namespace ms {
namespace {

constexpr const char* kPrefix = "Transform AWS::Include failed with: ";

Status IncludeError(const std::string& why) { return Status::Validation(kPrefix + why); }
Status NotYamlOrJson() { return IncludeError("The specified S3 object's content should be valid Yaml/JSON."); }

// A snippet's key the map it joins has already: refused rather than one of
// the two dropped. (Our words: AWS's answer to this was not found.)
Status CheckNoDuplicateKeys(const Value::Map& members) {
  std::unordered_set<std::string_view> seen;
  for (const Member& m : members) {
    if (!seen.insert(m.key).second) {
      return IncludeError("A snippet sets " + m.key + ", which the template already has there.");
    }
  }
  return Status::OK();
}

class Expander {
 public:
  explicit Expander(const OperationContext& ctx) : ctx_(ctx) {}

  // The snippet an include declaration names: a JSON or YAML object.
  Status Snippet(const Value& decl, Value* out) {
    const Value* params = decl.find("Parameters");
    const Value* location = params != nullptr ? params->find("Location") : nullptr;
    const std::string uri = location != nullptr && location->is_string() ? location->str() : "";
    const size_t slash = uri.find('/', 5);
    if (uri.rfind("s3://", 0) != 0 || slash == std::string::npos || slash == 5 || slash + 1 == uri.size()) {
      return IncludeError("The location parameter is not a valid S3 uri.");
    }
    if (session_ == nullptr && (ctx_.providers == nullptr || !ctx_.providers->NewSession(&session_).ok())) {
      return IncludeError("The specified bucket does not exist");
    }
    std::string text, code, message;
    const std::string bucket = uri.substr(5, slash - 5), key = uri.substr(slash + 1);
    if (!session_->S3Object(bucket, key, ctx_.account_id, &text, &code, &message)) {
      return IncludeError(message);
    }
    if (!ParseTemplateText(text, out).ok() || !out->is_map() || DeclaresInclude(*out)) return NotYamlOrJson();
    included_ = true;
    return Status::OK();
  }

  // Replaces each {"Fn::Transform": include} member of the maps under `v`
  // by the snippet's members, in its place.
  Status Walk(Value* v, int depth) {
    if (depth > kMaxIncludeDepth) return Status::OK();
    if (v->is_list()) {
      for (Value& item : v->mutable_list()) MS_RETURN_IF_ERROR(Walk(&item, depth + 1));
      return Status::OK();
    }
    if (!v->is_map()) return Status::OK();
    Value::Map out;
    bool changed = false;
    for (Member& m : v->mutable_map()) {
      if (m.key == "Fn::Transform" && IsIncludeDeclaration(m.value)) {
        Value snippet;
        MS_RETURN_IF_ERROR(Snippet(m.value, &snippet));
        for (Member& s : snippet.mutable_map()) out.push_back(std::move(s));
        changed = true;
        continue;
      }
      MS_RETURN_IF_ERROR(Walk(&m.value, depth + 1));
      out.push_back(std::move(m));
    }
    if (changed) {
      MS_RETURN_IF_ERROR(CheckNoDuplicateKeys(out));
      const SourcePos pos = v->pos();
      *v = Value::MakeMap(std::move(out));
      v->set_pos(pos);
    } else {
      v->mutable_map() = std::move(out);
    }
    return Status::OK();
  }

  // The Transform section's includes: their snippets join the top level
  // (after the template's own keys); the other transforms stay.
  Status TopLevel(Value* root) {
    Value* transform = root->find("Transform");
    if (transform == nullptr) return Status::OK();
    const bool was_list = transform->is_list();
    std::vector<Value> kept, includes;
    SplitTransforms(transform, &includes, &kept);
    Value::Map members;
    for (Member& m : root->mutable_map()) {
      if (m.key != "Transform") {
        members.push_back(std::move(m));
      } else if (!kept.empty()) {
        members.push_back({m.key, was_list ? Value::MakeList(std::move(kept)) : std::move(kept.front())});
      }
    }
    for (const Value& decl : includes) {
      Value snippet;
      MS_RETURN_IF_ERROR(Snippet(decl, &snippet));
      for (Member& s : snippet.mutable_map()) members.push_back(std::move(s));
    }
    MS_RETURN_IF_ERROR(CheckNoDuplicateKeys(members));
    root->mutable_map() = std::move(members);
    return Status::OK();
  }

  bool included() const { return included_; }

 private:
  const OperationContext& ctx_;
  std::unique_ptr<ProviderSession> session_;
  bool included_ = false;
};

}  // namespace

Status ExpandIncludes(const OperationContext& ctx, std::string* body, bool* included) {
  *included = false;
  // Most templates name no include: they stay the text they came as.
  if (body->find("AWS::Include") == std::string::npos) return Status::OK();
  Value root;
  if (!ParseTemplateText(*body, &root).ok() || !root.is_map() || !DeclaresInclude(root)) return Status::OK();
  Expander expander(ctx);
  MS_RETURN_IF_ERROR(expander.TopLevel(&root));
  for (Member& m : root.mutable_map()) {
    if (m.key != "Parameters" && m.key != "AWSTemplateFormatVersion") MS_RETURN_IF_ERROR(expander.Walk(&m.value, 1));
  }
  *included = expander.included();
  if (*included) *body = root.ToJson();
  return Status::OK();
}

}  // namespace ms
