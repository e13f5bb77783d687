// DecodeAwsRequest (aws_codec.h): the service, the operation and its
// parameters, per protocol.
#include <cctype>

#include "server/aws_codec.h"
#include "server/aws_shapes.h"
#include "server/aws_wire.h"
#include "server/query_request.h"
#include "template/parse.h"

namespace ms::server {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

AwsError Malformed(const std::string& code, const std::string& message) { return AwsError{400, code, message}; }

// query, ec2: Action and the form (the body's parameters and the URL's).
bool DecodeForm(const AwsRequest& req, AwsCall* call, AwsError* error) {
  std::map<std::string, std::string> form;
  std::string duplicate;
  if (!ParseForm(req.body, &form, &duplicate)) {
    *error = Malformed("InvalidQueryParameter", "The request has more than one value for the parameter " + duplicate);
    return false;
  }
  for (const auto& [k, v] : req.query) form.emplace(k, v);
  auto action = form.find("Action");
  call->operation = action == form.end() ? "" : action->second;
  const ModelJson* op = call->service->Operation(call->operation);
  if (op == nullptr) {
    *error = UnknownOperation(call->service, call->operation);
    return false;
  }
  auto input = op->find("input");
  call->params = input == op->end() ? Value::MakeMap()
                                    : ReadQueryForm(*call->service, *call->service->Shape(input->get<std::string>()),
                                                    form, call->service->protocol == "ec2");
  return true;
}

// json: X-Amz-Target names the operation, the body is the input.
bool DecodeJson(const AwsRequest& req, AwsCall* call, AwsError* error) {
  const ModelJson* op = call->service->Operation(call->operation);
  if (op == nullptr) {
    *error = UnknownOperation(call->service, call->operation);
    return false;
  }
  Value wire = Value::MakeMap();
  if (!req.body.empty() && !ParseJson(req.body, &wire).ok()) {
    *error = Malformed("SerializationException", "The request body is not valid JSON");
    return false;
  }
  auto input = op->find("input");
  call->params = input == op->end() ? Value::MakeMap()
                                    : ReadJson(*call->service, *call->service->Shape(input->get<std::string>()), wire);
  return true;
}

// rest-*: the path's segments, each with where it starts in the path.
struct PathSegments {
  std::vector<std::string_view> parts;
  std::vector<size_t> starts;
};

PathSegments SplitPath(std::string_view path) {
  PathSegments out;
  size_t from = 1;
  while (from <= path.size()) {
    size_t slash = path.find('/', from);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > from) {
      out.parts.push_back(path.substr(from, slash - from));
      out.starts.push_back(from);
    }
    from = slash + 1;
  }
  return out;
}

// The route's labels bound to the path's text; false when the path does not match.
bool MatchPath(const RestRoute& route, std::string_view path, const PathSegments& segs,
               std::vector<std::pair<std::string, std::string>>* labels) {
  size_t i = 0;
  for (const std::string& seg : route.segments) {
    if (seg.size() > 2 && seg.front() == '{' && seg.back() == '}') {
      const bool greedy = seg[seg.size() - 2] == '+';
      const std::string name = seg.substr(1, seg.size() - (greedy ? 3 : 2));
      if (i >= segs.parts.size()) return false;
      if (greedy) {
        labels->emplace_back(name, PercentDecode(path.substr(segs.starts[i]), false));
        return true;
      }
      labels->emplace_back(name, PercentDecode(segs.parts[i], false));
    } else if (i >= segs.parts.size() || segs.parts[i] != seg) {
      return false;
    }
    ++i;
  }
  return i == segs.parts.size();
}

// How well `route` fits the request: -1 when it does not; more query
// literals and more of its required query/header members present rank higher.
int Score(const ServiceModel& m, const RestRoute& route, const AwsRequest& req) {
  int score = 0;
  for (const auto& [name, value] : route.query) {
    if (name == "x-id") {  // botocore's operation hint: names the operation when sent
      const std::string* sent = req.Query("x-id");
      if (sent != nullptr && *sent == value) score += 1000;
      continue;
    }
    const std::string* sent = req.Query(name);
    if (sent == nullptr || (!value.empty() && *sent != value)) return -1;
    score += 100;
  }
  const ModelJson* op = m.Operation(route.operation);
  auto input = op->find("input");
  if (input == op->end()) return score;
  const ModelJson& shape = *m.Shape(input->get<std::string>());
  auto required = shape.find("required");
  auto members = shape.find("members");
  if (required == shape.end() || members == shape.end()) return score;
  for (const auto& name : *required) {
    auto ref = members->find(name.get<std::string>());
    if (ref == members->end()) continue;
    const std::string location = RefString(*ref, "location"), wire = RefString(*ref, "locationName");
    if (location == "querystring") {
      if (req.Query(wire) == nullptr) return -1;
      score += 10;
    } else if (location == "header") {
      if (req.headers.count(Lower(wire)) == 0) return -1;
      score += 10;
    }
  }
  return score;
}

Value HeaderMembers(const ServiceModel& m, const ModelJson& shape, const AwsRequest& req, Value params) {
  auto members = shape.find("members");
  if (members == shape.end()) return params;
  for (auto& [name, ref] : members->items()) {
    const std::string location = RefString(ref, "location"), wire = RefString(ref, "locationName");
    const std::string type = RefString(ShapeOf(m, ref), "type");
    if (location == "header") {
      auto h = req.headers.find(Lower(wire));
      if (h != req.headers.end()) params.set(name, ScalarFromText(type, h->second, false));
    } else if (location == "headers") {  // a map: every header with the prefix (x-amz-meta-)
      const std::string prefix = Lower(wire);
      Value map = Value::MakeMap();
      for (auto h = req.headers.lower_bound(prefix); h != req.headers.end() && h->first.rfind(prefix, 0) == 0; ++h) {
        map.mutable_map().push_back(Member{h->first.substr(prefix.size()), Value::String(h->second)});
      }
      if (!map.map().empty()) params.set(name, std::move(map));
    } else if (location == "querystring") {
      auto range = req.query.equal_range(wire);
      if (range.first == range.second) continue;
      if (type == "list") {
        Value list = Value::MakeList();
        for (auto q = range.first; q != range.second; ++q) list.mutable_list().push_back(Value::String(q->second));
        params.set(name, std::move(list));
      } else {
        params.set(name, ScalarFromText(type, range.first->second, false));
      }
    }
  }
  return params;
}

// The body's members: the payload member, or the document of the rest.
bool BodyMembers(const ServiceModel& m, const ModelJson& shape, const AwsRequest& req, Value* params,
                 AwsError* error) {
  const bool xml = m.protocol == "rest-xml";
  const std::string payload = RefString(shape, "payload");
  const ModelJson* target = &shape;
  if (!payload.empty()) {
    const ModelJson& ref = shape["members"][payload];
    const ModelJson& pshape = ShapeOf(m, ref);
    const std::string type = RefString(pshape, "type");
    if (type == "blob" || type == "string") {
      params->set(payload, Value::String(req.body));
      return true;
    }
    target = &pshape;
  }
  if (req.body.empty()) return true;
  Value doc;
  if (xml) {
    XmlElement root;
    std::string why;
    if (!ParseXml(req.body, &root, &why)) {
      *error = Malformed("MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema");
      return false;
    }
    doc = ReadXmlMembers(m, *target, root);
  } else {
    Value wire;
    if (!ParseJson(req.body, &wire).ok()) {
      *error = Malformed("SerializationException", "The request body is not valid JSON");
      return false;
    }
    doc = ReadJson(m, *target, wire);
  }
  if (!payload.empty()) {
    params->set(payload, std::move(doc));
  } else {
    for (Member& member : doc.mutable_map()) params->set(member.key, std::move(member.value));
  }
  return true;
}

bool DecodeRest(const AwsRequest& req, const std::vector<const ServiceModel*>& candidates, AwsCall* call,
                AwsError* error) {
  const PathSegments segs = SplitPath(req.path);
  const std::string method = req.method == "HEAD" ? "HEAD" : req.method;
  const RestRoute* best = nullptr;
  const ServiceModel* best_service = nullptr;
  std::vector<std::pair<std::string, std::string>> best_labels;
  int best_score = -1;
  for (const ServiceModel* m : candidates) {
    auto routes = m->routes.find(method);
    if (routes == m->routes.end()) continue;
    for (const RestRoute& route : routes->second) {
      std::vector<std::pair<std::string, std::string>> labels;
      if (!MatchPath(route, req.path, segs, &labels)) continue;
      const int score = Score(*m, route, req) + static_cast<int>(route.segments.size());
      if (score > best_score) {
        best_score = score, best = &route, best_service = m, best_labels = std::move(labels);
      }
    }
  }
  call->service = candidates.front();
  if (best == nullptr) {
    const std::string* hint = req.Query("x-id");
    *error = UnknownOperation(call->service, hint != nullptr ? *hint : req.method + " " + req.path);
    return false;
  }
  call->service = best_service;
  call->operation = best->operation;
  const ModelJson* op = best_service->Operation(best->operation);
  auto input = op->find("input");
  call->params = Value::MakeMap();
  if (input == op->end()) return true;
  const ModelJson& shape = *best_service->Shape(input->get<std::string>());
  auto members = shape.find("members");
  for (auto& [label, text] : best_labels) {
    for (auto& [name, ref] : members->items()) {
      if (RefString(ref, "location") == "uri" && RefString(ref, "locationName") == label) {
        call->params.set(name, Value::String(text));
      }
    }
  }
  call->params = HeaderMembers(*best_service, shape, req, std::move(call->params));
  return BodyMembers(*best_service, shape, req, &call->params, error);
}

}  // namespace

void CredentialScope(const AwsRequest& req, std::string* service, std::string* region, std::string* access_key_id) {
  std::string scope;
  const std::string& auth = req.Header("authorization");
  const size_t at = auth.find("Credential=");
  if (at != std::string::npos) {
    scope = auth.substr(at + 11);
    scope = scope.substr(0, scope.find_first_of(", "));
  } else if (const std::string* presigned = req.Query("X-Amz-Credential")) {
    scope = *presigned;
  }
  std::vector<std::string> parts;
  size_t from = 0;
  while (true) {
    size_t slash = scope.find('/', from);
    parts.push_back(scope.substr(from, slash == std::string::npos ? std::string::npos : slash - from));
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  *service = parts.size() == 5 ? parts[3] : "";
  *region = parts.size() == 5 ? parts[2] : "";
  if (access_key_id != nullptr) {
    *access_key_id = parts.size() == 5 ? parts[0] : "";
    if (const std::string* v2 = req.Query("AWSAccessKeyId")) *access_key_id = *v2;
  }
  // Signature version 2 has no scope, and only S3 still takes it: botocore
  // presigns S3 URLs with it (?AWSAccessKeyId=...&Signature=...).
  if (service->empty() && (auth.rfind("AWS ", 0) == 0 || req.Query("AWSAccessKeyId") != nullptr)) *service = "s3";
}

bool DecodeAwsRequest(const AwsRequest& req, const std::string& default_region, AwsCall* call, AwsError* error) {
  const ServiceModels& models = ServiceModels::Get();
  std::string signing, region, access_key;
  CredentialScope(req, &signing, &region, &access_key);
  call->region = region.empty() ? default_region : region;
  call->account = AccountOfAccessKey(access_key, call->account);
  call->head = req.method == "HEAD";
  const std::string& target = req.Header("x-amz-target");
  if (!target.empty()) {
    call->by_target = true;
    const size_t dot = target.rfind('.');
    call->service = models.ByTargetPrefix(target.substr(0, dot == std::string::npos ? 0 : dot));
    call->operation = dot == std::string::npos ? target : target.substr(dot + 1);
    if (call->service == nullptr) {
      *error = AwsError{400, "UnknownOperationException", "moonstack simulates no service with the target " + target};
      return false;
    }
    return DecodeJson(req, call, error);
  }
  const std::vector<const ServiceModel*>& candidates = models.BySigningName(signing);
  if (candidates.empty()) {
    *error = AwsError{400, "InvalidAction",
                      signing.empty() ? std::string("The request names no service: sign it (SigV4) or send X-Amz-Target")
                                      : "moonstack simulates no service signed as " + signing};
    return false;
  }
  call->service = candidates.front();
  const std::string& protocol = call->service->protocol;
  if (protocol == "query" || protocol == "ec2") return DecodeForm(req, call, error);
  if (protocol == "json") {
    *error = UnknownOperation(call->service, "");
    return false;
  }
  return DecodeRest(req, candidates, call, error);
}

}  // namespace ms::server
