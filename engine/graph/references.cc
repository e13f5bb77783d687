#include "graph/references.h"

#include <unordered_set>

#include "template/sub_string.h"

namespace ms {
namespace {

constexpr int kMaxDepth = 256;

class Collector {
 public:
  Collector(std::vector<Reference>* out, const ConditionOracle* oracle)
      : out_(out), oracle_(oracle) {}

  Status Walk(const Value& v, int depth) {
    if (depth > kMaxDepth) return Status::Validation("Template format error: template nesting is too deep.");
    if (v.is_list()) {
      for (const Value& item : v.list()) MS_RETURN_IF_ERROR(Walk(item, depth + 1));
      return Status::OK();
    }
    if (!v.is_map()) return Status::OK();
    std::string_view fn = v.function_name();
    const Value& arg = fn.empty() ? v : v.map()[0].value;
    if (fn == "Ref") {
      if (arg.is_string()) Add(Reference::Kind::kRef, arg.str(), "");
      return Status::OK();
    }
    if (fn == "Condition") {
      if (arg.is_string()) Add(Reference::Kind::kCondition, arg.str(), "");
      return Status::OK();
    }
    if (fn == "Fn::GetAtt") return GetAtt(arg, depth);
    if (fn == "Fn::Sub") return Sub(arg, depth);
    if (fn == "Fn::If") return If(arg, depth);
    for (const Member& m : v.map()) MS_RETURN_IF_ERROR(Walk(m.value, depth + 1));
    return Status::OK();
  }

 private:
  void Add(Reference::Kind kind, std::string target, std::string attribute) {
    out_->push_back(Reference{kind, std::move(target), std::move(attribute)});
  }

  Status GetAtt(const Value& arg, int depth) {
    if (arg.is_string()) {
      size_t dot = arg.str().find('.');
      if (dot != std::string::npos) {
        Add(Reference::Kind::kGetAtt, arg.str().substr(0, dot), arg.str().substr(dot + 1));
      }
      return Status::OK();
    }
    if (arg.is_list() && !arg.list().empty() && arg.list()[0].is_string()) {
      const Value* attr = arg.list().size() > 1 ? &arg.list()[1] : nullptr;
      Add(Reference::Kind::kGetAtt, arg.list()[0].str(),
          attr && attr->is_scalar() ? attr->scalar_text() : "");
      // The attribute name may itself be a Ref to a parameter.
      if (attr && !attr->is_scalar()) MS_RETURN_IF_ERROR(Walk(*attr, depth + 1));
    }
    return Status::OK();
  }

  Status Sub(const Value& arg, int depth) {
    const Value* text = &arg;
    const Value* vars = nullptr;
    if (arg.is_list()) {
      if (arg.list().empty()) return Status::OK();
      text = &arg.list()[0];
      if (arg.list().size() > 1) vars = &arg.list()[1];
    }
    std::unordered_set<std::string> local;
    if (vars != nullptr) {
      if (vars->is_map()) {
        for (const Member& m : vars->map()) local.insert(m.key);
      }
      MS_RETURN_IF_ERROR(Walk(*vars, depth + 1));
    }
    if (!text->is_string()) return Walk(*text, depth + 1);
    std::vector<SubPart> parts;
    MS_RETURN_IF_ERROR(ParseSubString(text->str(), &parts));
    for (const SubPart& p : parts) {
      if (!p.is_variable || local.count(p.text) != 0) continue;
      size_t dot = p.text.find('.');
      if (dot == std::string::npos) {
        Add(Reference::Kind::kSub, p.text, "");
      } else {
        Add(Reference::Kind::kSub, p.text.substr(0, dot), p.text.substr(dot + 1));
      }
    }
    return Status::OK();
  }

  Status If(const Value& arg, int depth) {
    if (!arg.is_list() || arg.list().size() != 3 || !arg.list()[0].is_string()) {
      for (const Value& item : arg.is_list() ? arg.list() : Value::List{}) {
        MS_RETURN_IF_ERROR(Walk(item, depth + 1));
      }
      return Status::OK();
    }
    const std::string& cond = arg.list()[0].str();
    Add(Reference::Kind::kCondition, cond, "");
    std::optional<bool> taken = oracle_ ? (*oracle_)(cond) : std::nullopt;
    if (!taken || *taken) MS_RETURN_IF_ERROR(Walk(arg.list()[1], depth + 1));
    if (!taken || !*taken) MS_RETURN_IF_ERROR(Walk(arg.list()[2], depth + 1));
    return Status::OK();
  }

  std::vector<Reference>* out_;
  const ConditionOracle* oracle_;
};

}  // namespace

Status CollectReferences(const Value& v, std::vector<Reference>* out, const ConditionOracle* oracle) {
  return Collector(out, oracle).Walk(v, 0);
}

}  // namespace ms
