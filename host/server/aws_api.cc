#include "server/aws_api.h"

#include "base/regions.h"
#include "store/blob_store.h"
#include "store/schema.h"

namespace ms::server {
namespace {

// The operations whose body is an object's bytes: streamed into a blob.
bool TakesObjectBody(const AwsCall& call) {
  return call.service != nullptr && call.service->name == "s3" &&
         (call.operation == "PutObject" || call.operation == "UploadPart");
}

AwsError IncompleteBody() {
  return AwsError{400, "IncompleteBody",
                  "The request body ended before the number of bytes its Content-Length header gives"};
}

// A connection for one request's blob reads or writes: a small page cache
// (the bytes pass through once; the store's 16 MiB per connection would only
// hold them) on top of the store's settings.
Status OpenBlobConnection(const std::string& path, std::unique_ptr<Database>* db) {
  MS_RETURN_IF_ERROR(OpenStore(path, db));
  return (*db)->Exec("PRAGMA cache_size=-1024");
}

}  // namespace

bool AwsApi::Handles(const AwsRequest& req) {
  if (!req.Header("x-amz-target").empty()) return true;
  std::string service, region;
  CredentialScope(req, &service, &region);
  return !service.empty() && service != "cloudformation";
}

AwsResponse AwsApi::Run(const AwsCall& call, const std::string& request_id) {
  // The signature is checked first on AWS: a credential scope naming a
  // region AWS does not have is refused, as CloudFormation's endpoint does.
  if (!IsAwsRegion(call.region)) {
    return EncodeAwsError(call, AwsError{403, kInvalidRegionCode, InvalidRegionMessage(call.region)}, request_id);
  }
  SimOutcome out = sim_->Call(call.service->name, call.operation, call.params, call.region, call.account);
  if (!out.ok) {
    AwsError e = out.code.empty() ? AwsError{500, "InternalFailure", out.message}
                                  : SimError(call.service, call.operation, out.code, out.message);
    return EncodeAwsError(call, e, request_id);
  }
  // A body kept as blobs (s3_body.lua): streamed by the route, not encoded.
  const Value* blob = out.result.find("BodyBlob");
  if (blob == nullptr || !blob->is_map()) return EncodeAwsResult(call, out.result, request_id);
  BlobBody body{state_path_, {}, {}};
  const Value* ids = blob->find("Blobs");
  const Value* sizes = blob->find("Sizes");
  for (size_t i = 0; ids != nullptr && sizes != nullptr && ids->is_list() && sizes->is_list() &&
                     i < ids->list().size() && i < sizes->list().size();
       ++i) {
    body.ids.push_back(ids->list()[i].as_integer().value_or(0));
    body.sizes.push_back(static_cast<uint64_t>(sizes->list()[i].as_integer().value_or(0)));
  }
  out.result.set("BodyBlob", Value::Null());
  AwsResponse res = EncodeAwsResult(call, out.result, request_id);
  res.body.clear();
  res.blob_body = std::move(body);
  return res;
}

AwsResponse AwsApi::Handle(const AwsRequest& req, const std::string& request_id) {
  AwsCall call;
  AwsError error;
  if (!DecodeAwsRequest(req, default_region_, &call, &error)) return EncodeAwsError(call, error, request_id);
  return Run(call, request_id);
}

AwsResponse AwsApi::HandleWithBody(AwsRequest req, const BodyReader& read, uint64_t max_body,
                                   const std::string& request_id) {
  AwsCall call;
  AwsError error;
  if (!DecodeAwsRequest(req, default_region_, &call, &error)) return EncodeAwsError(call, error, request_id);
  if (!TakesObjectBody(call)) {
    bool too_large = false;
    const bool complete = read([&](const char* data, size_t n) {
      too_large = req.body.size() + n > max_body;
      if (!too_large) req.body.append(data, n);
      return !too_large;
    });
    if (too_large) {
      return EncodeAwsError(call, AwsError{400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size"},
                            request_id);
    }
    if (!complete) return EncodeAwsError(call, IncompleteBody(), request_id);
    return Handle(req, request_id);
  }
  // The object's bytes, a chunk at a time into a blob of the state file.
  std::unique_ptr<Database> db;
  std::unique_ptr<BlobWriter> writer;
  Status s = OpenBlobConnection(state_path_, &db);
  if (s.ok()) s = BlobWriter::Create(db.get(), &writer);
  if (!s.ok()) return EncodeAwsError(call, AwsError{500, "InternalError", s.message()}, request_id);
  const bool complete = read([&](const char* data, size_t n) {
    s = writer->Append(std::string_view(data, n));
    return s.ok();
  });
  BlobInfo blob;
  if (s.ok() && complete) s = writer->Finish(&blob);
  AwsResponse res;
  if (!s.ok()) {
    res = EncodeAwsError(call, AwsError{500, "InternalError", s.message()}, request_id);
  } else if (!complete) {
    res = EncodeAwsError(call, IncompleteBody(), request_id);
  } else {
    Value ref = Value::MakeMap();
    ref.set("Id", Value::Integer(blob.id));
    ref.set("Size", Value::Integer(static_cast<int64_t>(blob.size)));
    ref.set("MD5", Value::String(blob.md5));
    call.params.set("Body", Value::Null());
    call.params.set("BodyBlob", std::move(ref));
    res = Run(call, request_id);
  }
  // A blob no record took (the call failed) is this request's to free; one
  // a record names is the record's (SimHost saved it before answering).
  if (res.status >= 300) DiscardPendingBlob(db.get(), writer->id());
  return res;
}

}  // namespace ms::server
