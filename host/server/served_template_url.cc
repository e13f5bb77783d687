#include "server/served_template_url.h"

#include <cstdlib>

namespace ms::server {

std::string ServedTemplateUrl(const std::string& url, const GuardPolicy& policy, int port) {
  size_t start = 0;
  int default_port = 0;
  if (url.rfind("http://", 0) == 0) {
    start = 7, default_port = 80;
  } else if (url.rfind("https://", 0) == 0) {
    start = 8, default_port = 443;
  } else {
    return url;
  }
  const size_t slash = url.find('/', start);
  if (slash == std::string::npos || slash + 1 == url.size()) return url;
  const std::string authority = url.substr(start, slash - start);
  const std::optional<std::string> host = HostName(authority);
  if (!host || !AnswersHost(*host, policy)) return url;
  // HostName accepted the authority: what follows the host (an IPv6 one in
  // brackets) is empty or ":DIGITS".
  const size_t colon = authority.rfind(':');
  const bool has_port = colon != std::string::npos && authority.find(']', colon) == std::string::npos;
  const int url_port = has_port ? std::atoi(authority.c_str() + colon + 1) : default_port;
  if (url_port != port) return url;
  return "https://s3.amazonaws.com/" + url.substr(slash + 1);
}

}  // namespace ms::server
