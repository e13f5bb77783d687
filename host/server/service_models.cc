#include "server/service_models.h"

#include <cstddef>

namespace ms::catalog_data {
extern const char* const kAwsServiceModelsChunks[];
extern const size_t kAwsServiceModelsChunkSizes[];
extern const size_t kAwsServiceModelsChunkCount;
}  // namespace ms::catalog_data

namespace ms::server {
namespace {

RestRoute ParseRoute(const std::string& operation, const std::string& uri) {
  RestRoute route;
  route.operation = operation;
  const size_t q = uri.find('?');
  const std::string path = uri.substr(0, q);
  size_t from = 1;  // after the leading '/'
  while (from <= path.size()) {
    size_t slash = path.find('/', from);
    if (slash == std::string::npos) slash = path.size();
    if (slash > from) route.segments.push_back(path.substr(from, slash - from));
    from = slash + 1;
  }
  if (q != std::string::npos) {
    std::string query = uri.substr(q + 1);
    size_t start = 0;
    while (start < query.size()) {
      size_t amp = query.find('&', start);
      if (amp == std::string::npos) amp = query.size();
      const std::string pair = query.substr(start, amp - start);
      const size_t eq = pair.find('=');
      route.query.emplace_back(pair.substr(0, eq), eq == std::string::npos ? "" : pair.substr(eq + 1));
      start = amp + 1;
    }
  }
  return route;
}

std::string Field(const ModelJson& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

const ModelJson* ServiceModel::Operation(const std::string& op) const {
  auto it = operations->find(op);
  return it == operations->end() ? nullptr : &*it;
}

const ModelJson* ServiceModel::Shape(const std::string& shape) const {
  auto it = shapes->find(shape);
  return it == shapes->end() ? nullptr : &*it;
}

int ServiceModel::ErrorStatus(const std::string& code) const {
  auto it = errors->find(code);
  return it != errors->end() && it->is_number_integer() ? it->get<int>() : 400;
}

ServiceModels::ServiceModels(const std::string& text) : root_(ModelJson::parse(text)) {
  for (auto& [name, m] : root_.items()) {
    ServiceModel& s = services_[name];
    s.name = name;
    s.protocol = Field(m, "protocol");
    s.signing_name = Field(m, "signingName");
    s.target_prefix = Field(m, "targetPrefix");
    s.json_version = Field(m, "jsonVersion");
    s.xml_namespace = Field(m, "xmlNamespace");
    s.api_version = Field(m, "apiVersion");
    s.query_compatible = m.value("awsQueryCompatible", false);
    s.operations = &m["operations"];
    s.shapes = &m["shapes"];
    s.errors = &m["errors"];
    if (s.protocol == "rest-json" || s.protocol == "rest-xml") {
      for (auto& [op, o] : s.operations->items()) {
        const ModelJson& http = o["http"];
        s.routes[Field(http, "method")].push_back(ParseRoute(op, Field(http, "requestUri")));
      }
    }
  }
  for (auto& [name, s] : services_) {
    by_signing_name_[s.signing_name].push_back(&s);
    if (!s.target_prefix.empty()) by_target_prefix_[s.target_prefix] = &s;
  }
}

const ServiceModels& ServiceModels::Get() {
  static const ServiceModels* models = [] {
    std::string text;
    for (size_t i = 0; i < catalog_data::kAwsServiceModelsChunkCount; ++i) {
      text.append(catalog_data::kAwsServiceModelsChunks[i], catalog_data::kAwsServiceModelsChunkSizes[i]);
    }
    return new ServiceModels(text);
  }();
  return *models;
}

const ServiceModel* ServiceModels::Find(const std::string& sim_name) const {
  auto it = services_.find(sim_name);
  return it == services_.end() ? nullptr : &it->second;
}

const std::vector<const ServiceModel*>& ServiceModels::BySigningName(const std::string& signing_name) const {
  static const std::vector<const ServiceModel*> kNone;
  auto it = by_signing_name_.find(signing_name);
  return it == by_signing_name_.end() ? kNone : it->second;
}

const ServiceModel* ServiceModels::ByTargetPrefix(const std::string& prefix) const {
  auto it = by_target_prefix_.find(prefix);
  return it == by_target_prefix_.end() ? nullptr : it->second;
}

}  // namespace ms::server
