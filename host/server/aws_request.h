// The HTTP request and response of an AWS API call as the protocol codecs
// (aws_codec.h) see them, apart from cpp-httplib.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ms::server {

struct AwsRequest {
  std::string method;                             // GET, PUT, POST, DELETE, HEAD
  std::string path;                               // as sent: percent-encoded, no query
  std::multimap<std::string, std::string> query;  // the URL's query, decoded
  std::map<std::string, std::string> headers;     // names in lower case
  std::string body;

  // The header's value, or "".
  const std::string& Header(const std::string& lower_name) const;
  // The first value of query parameter `name`, or nullptr.
  const std::string* Query(const std::string& name) const;
};

// A body kept as blobs of the state file (an S3 object's: store/blob_store.h),
// streamed to the client from there: the blobs in order and their sizes.
struct BlobBody {
  std::string state_path;
  std::vector<int64_t> ids;
  std::vector<uint64_t> sizes;
  uint64_t size() const;
};

struct AwsResponse {
  int status = 200;
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::optional<BlobBody> blob_body;  // instead of body
};

// An error to answer in the protocol's shape (aws_errors.cc).
struct AwsError {
  int status = 400;
  std::string code, message;
};

}  // namespace ms::server
