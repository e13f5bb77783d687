#include "server/aws_request.h"

namespace ms::server {

const std::string& AwsRequest::Header(const std::string& lower_name) const {
  static const std::string kNone;
  auto it = headers.find(lower_name);
  return it == headers.end() ? kNone : it->second;
}

const std::string* AwsRequest::Query(const std::string& name) const {
  auto it = query.find(name);
  return it == query.end() ? nullptr : &it->second;
}

uint64_t BlobBody::size() const {
  uint64_t n = 0;
  for (uint64_t s : sizes) n += s;
  return n;
}

}  // namespace ms::server
