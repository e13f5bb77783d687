#include "server/query_request.h"

#include <cctype>

namespace ms::server {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < s.size() && HexDigit(s[i + 1]) >= 0 && HexDigit(s[i + 2]) >= 0) {
      out += static_cast<char>(HexDigit(s[i + 1]) * 16 + HexDigit(s[i + 2]));
      i += 2;
    } else {
      out += c;  // a stray '%' stays as it is
    }
  }
  return out;
}

}  // namespace

bool ParseForm(std::string_view text, std::map<std::string, std::string>* params, std::string* duplicate) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('&', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view pair = text.substr(start, end - start);
    if (!pair.empty()) {
      const size_t eq = pair.find('=');
      std::string name = Decode(pair.substr(0, eq));
      std::string value = eq == std::string_view::npos ? std::string() : Decode(pair.substr(eq + 1));
      if (!params->emplace(name, std::move(value)).second) {
        *duplicate = std::move(name);
        return false;
      }
    }
    start = end + 1;
  }
  return true;
}

std::string RegionFromAuthorization(std::string_view header, const std::string& fallback) {
  const std::string_view key = "Credential=";
  size_t at = header.find(key);
  if (at == std::string_view::npos) return fallback;
  std::string_view scope = header.substr(at + key.size());
  scope = scope.substr(0, scope.find_first_of(", "));
  // AKID / date / region / service / aws4_request
  std::vector<std::string_view> parts;
  size_t from = 0;
  while (true) {
    size_t slash = scope.find('/', from);
    parts.push_back(scope.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from));
    if (slash == std::string_view::npos) break;
    from = slash + 1;
  }
  if (parts.size() != 5 || parts[2].empty()) return fallback;
  return std::string(parts[2]);
}

std::string AccountOfAccessKey(std::string_view access_key_id, const std::string& fallback) {
  if (access_key_id.size() != 12) return fallback;
  for (char c : access_key_id) {
    if (c < '0' || c > '9') return fallback;
  }
  return std::string(access_key_id);
}

std::string AccountFromAuthorization(std::string_view header, const std::string& fallback) {
  const std::string_view key = "Credential=";
  size_t at = header.find(key);
  if (at == std::string_view::npos) return fallback;
  std::string_view scope = header.substr(at + key.size());
  return AccountOfAccessKey(scope.substr(0, scope.find_first_of("/, ")), fallback);
}

std::string QueryRequest::Get(const std::string& name) const {
  auto it = params_.find(name);
  return it == params_.end() ? std::string() : it->second;
}

std::optional<std::string> QueryRequest::Find(const std::string& name) const {
  auto it = params_.find(name);
  if (it == params_.end()) return std::nullopt;
  return it->second;
}

bool QueryRequest::Flag(const std::string& name) const {
  std::string v = Get(name);
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v == "true";
}

std::vector<std::string> QueryRequest::List(const std::string& name) const {
  std::vector<std::string> out;
  for (int n = 1;; ++n) {
    auto it = params_.find(name + ".member." + std::to_string(n));
    if (it == params_.end()) break;
    out.push_back(it->second);
  }
  return out;
}

std::vector<std::map<std::string, std::string>> QueryRequest::Structs(const std::string& name) const {
  std::vector<std::map<std::string, std::string>> out;
  for (int n = 1;; ++n) {
    const std::string prefix = name + ".member." + std::to_string(n) + ".";
    std::map<std::string, std::string> fields;
    for (auto it = params_.lower_bound(prefix); it != params_.end() && it->first.rfind(prefix, 0) == 0; ++it) {
      fields[it->first.substr(prefix.size())] = it->second;
    }
    if (fields.empty()) break;
    out.push_back(std::move(fields));
  }
  return out;
}

}  // namespace ms::server
