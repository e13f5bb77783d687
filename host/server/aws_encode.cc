// EncodeAwsResult and EncodeAwsError (aws_codec.h): the sim's answer in each
// protocol's response shape.
#include <map>

#include "server/aws_codec.h"
#include "server/aws_shapes.h"
#include "server/aws_wire.h"
#include "server/xml.h"

namespace ms::server {
namespace {

const char kXmlDeclaration[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

const ModelJson* OutputShape(const ServiceModel& m, const ModelJson& op) {
  auto output = op.find("output");
  return output == op.end() ? nullptr : m.Shape(output->get<std::string>());
}

std::string JsonContentType(const ServiceModel& m) { return "application/x-amz-json-" + m.json_version; }

// query: <OpResponse><OpResult>...</OpResult><ResponseMetadata/></OpResponse>;
// ec2: <OpResponse><requestId/>...</OpResponse>.
AwsResponse EncodeXmlQuery(const AwsCall& call, const ModelJson& op, const Value& result,
                           const std::string& request_id) {
  const ServiceModel& m = *call.service;
  const ModelJson* shape = OutputShape(m, op);
  XmlWriter w;
  const bool ec2 = m.protocol == "ec2";
  w.Open(call.operation + "Response",
         ec2 ? "http://ec2.amazonaws.com/doc/" + m.api_version + "/" : m.xml_namespace);
  if (ec2) {
    w.Text("requestId", request_id);
    if (shape != nullptr) WriteXmlMembers(m, *shape, result, &w);
  } else {
    if (shape != nullptr) {
      const std::string wrapper = RefString(op, "resultWrapper");
      w.Open(wrapper.empty() ? call.operation + "Result" : wrapper);
      WriteXmlMembers(m, *shape, result, &w);
      w.Close();
    }
    w.Open("ResponseMetadata");
    w.Text("RequestId", request_id);
    w.Close();
  }
  w.Close();
  return AwsResponse{200, "text/xml", {}, kXmlDeclaration + w.str(), std::nullopt};
}

AwsResponse EncodeJson(const AwsCall& call, const ModelJson& op, const Value& result) {
  const ServiceModel& m = *call.service;
  const ModelJson* shape = OutputShape(m, op);
  std::string body;
  if (shape != nullptr) {
    WriteJson(m, *shape, result, &body);
  } else {
    body = "{}";
  }
  return AwsResponse{200, JsonContentType(m), {}, body, std::nullopt};
}

// rest-*: the status, header members, then the payload member or the
// document of the members left.
AwsResponse EncodeRest(const AwsCall& call, const ModelJson& op, const Value& result) {
  const ServiceModel& m = *call.service;
  const bool xml = m.protocol == "rest-xml";
  AwsResponse res;
  res.status = op["http"].value("responseCode", 200);
  res.content_type = xml ? "application/xml" : "application/json";
  const ModelJson* shape = OutputShape(m, op);
  if (shape == nullptr) {
    if (!xml) res.body = "{}";
    return res;
  }
  auto members = shape->find("members");
  bool body_members = false;
  if (members != shape->end()) {
    for (auto& [name, ref] : members->items()) {
      const Value* v = result.find(name);
      const std::string location = RefString(ref, "location"), wire = RefString(ref, "locationName");
      if (location.empty() && name != RefString(*shape, "payload")) {
        body_members = true;  // the output has a document (S3 sends it even when empty)
      }
      if (v == nullptr || v->is_null()) continue;
      const ModelJson& member_shape = ShapeOf(m, ref);
      const std::string type = RefString(member_shape, "type");
      if (location == "header") {
        std::string format = RefString(ref, "timestampFormat");
        res.headers.emplace_back(wire, ScalarToText(type, *v, false, format.empty() ? "rfc822" : format));
        if (wire == "Content-Type") res.content_type = v->scalar_text();
      } else if (location == "headers") {
        for (const Member& e : v->map()) res.headers.emplace_back(wire + e.key, e.value.scalar_text());
      } else if (location == "statusCode") {
        if (auto code = v->as_integer()) res.status = static_cast<int>(*code);
      }
    }
  }
  const std::string payload = RefString(*shape, "payload");
  if (!payload.empty()) {
    const Value* v = result.find(payload);
    const ModelJson& ref = (*shape)["members"][payload];
    const ModelJson& pshape = ShapeOf(m, ref);
    const std::string type = RefString(pshape, "type");
    if (v == nullptr || v->is_null()) {
    } else if (type == "blob" || type == "string") {
      res.body = v->scalar_text();
    } else if (xml) {
      XmlWriter w;
      std::string root = RefString(ref, "locationName");
      if (root.empty()) root = RefString(pshape, "locationName");
      w.Open(root.empty() ? payload : root, m.xml_namespace.empty() ? "http://s3.amazonaws.com/doc/2006-03-01/" : m.xml_namespace);
      WriteXmlMembers(m, pshape, *v, &w);
      w.Close();
      res.body = kXmlDeclaration + w.str();
    } else {
      WriteJson(m, pshape, *v, &res.body);
    }
  } else if (xml && call.operation == "GetBucketLocation") {
    // S3's one document whose root is the member itself (botocore reads the root's text).
    const Value* where = result.find("LocationConstraint");
    XmlWriter w;
    w.Open("LocationConstraint", "http://s3.amazonaws.com/doc/2006-03-01/");
    w.Close();
    res.body = kXmlDeclaration + w.str();
    if (where != nullptr && !where->scalar_text().empty() && where->scalar_text() != "us-east-1") {
      res.body = std::string(kXmlDeclaration) + "<LocationConstraint xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">" +
                 XmlEscape(where->scalar_text()) + "</LocationConstraint>";
    }
  } else if (xml) {
    if (body_members) {
      XmlWriter w;
      std::string root = RefString(*shape, "locationName");
      w.Open(root.empty() ? call.operation + "Result" : root, "http://s3.amazonaws.com/doc/2006-03-01/");
      WriteXmlMembers(m, *shape, result, &w);
      w.Close();
      res.body = kXmlDeclaration + w.str();
    }
  } else {
    WriteJson(m, *shape, result, &res.body);
  }
  return res;
}

}  // namespace

AwsResponse EncodeAwsResult(const AwsCall& call, const Value& result, const std::string& request_id) {
  const ModelJson* op = call.service->Operation(call.operation);
  const std::string& protocol = call.service->protocol;
  AwsResponse res;
  if (protocol == "query" || protocol == "ec2") {
    res = EncodeXmlQuery(call, *op, result, request_id);
  } else if (protocol == "json") {
    res = EncodeJson(call, *op, result);
  } else {
    res = EncodeRest(call, *op, result);
  }
  res.headers.emplace_back(protocol == "rest-xml" ? "x-amz-request-id" : "x-amzn-RequestId", request_id);
  if (call.head) res.body.clear();
  return res;
}

AwsError UnknownOperation(const ServiceModel* service, const std::string& operation) {
  const std::string protocol = service == nullptr ? "query" : service->protocol;
  const std::string message = "The action " + operation + " is not valid for this web service.";
  if (protocol == "json" || protocol == "rest-json") return AwsError{400, "UnknownOperationException", message};
  if (protocol == "rest-xml") return AwsError{501, "NotImplemented", message};
  return AwsError{400, "InvalidAction", message};
}

AwsError SimError(const ServiceModel* service, const std::string& operation, const std::string& code,
                  const std::string& message) {
  if (code == "InvalidAction") return UnknownOperation(service, operation);
  // Codes the sim raises that the models list for no operation, with AWS's statuses.
  static const std::map<std::string, int> kUnlisted = {
      {"AccessDenied", 403},       {"BucketNotEmpty", 409},
      {"NoSuchBucketPolicy", 404}, {"NoSuchTagSet", 404},        {"PreconditionFailed", 412},
      {"ServerSideEncryptionConfigurationNotFoundError", 404}};
  auto unlisted = kUnlisted.find(code);
  if (unlisted != kUnlisted.end()) return AwsError{unlisted->second, code, message};
  return AwsError{service != nullptr ? service->ErrorStatus(code) : 400, code.empty() ? "InternalFailure" : code,
                  message};
}

AwsResponse EncodeAwsError(const AwsCall& call, const AwsError& error, const std::string& request_id) {
  const std::string protocol = call.service != nullptr ? call.service->protocol : call.by_target ? "json" : "query";
  AwsResponse res;
  res.status = error.status;
  if (protocol == "json" || protocol == "rest-json") {
    res.content_type = call.service == nullptr ? "application/x-amz-json-1.0"
                       : protocol == "json"    ? JsonContentType(*call.service)
                                               : "application/json";
    res.body = "{\"__type\":";
    AppendJsonQuoted(&res.body, error.code);
    res.body += ",\"message\":";
    AppendJsonQuoted(&res.body, error.message);
    res.body += "}";
    res.headers.emplace_back("x-amzn-ErrorType", error.code);
    if (call.service != nullptr && call.service->query_compatible) {
      res.headers.emplace_back("x-amzn-query-error", error.code + ";Sender");
    }
    res.headers.emplace_back("x-amzn-RequestId", request_id);
  } else if (protocol == "rest-xml") {
    XmlWriter w;
    w.Open("Error");
    w.Text("Code", error.code);
    w.Text("Message", error.message);
    w.Text("RequestId", request_id);
    w.Close();
    res.content_type = "application/xml";
    if (!call.head) res.body = kXmlDeclaration + w.str();
    res.headers.emplace_back("x-amz-request-id", request_id);
  } else if (protocol == "ec2") {
    XmlWriter w;
    w.Open("Response");
    w.Open("Errors");
    w.Open("Error");
    w.Text("Code", error.code);
    w.Text("Message", error.message);
    w.Close();
    w.Close();
    w.Text("RequestID", request_id);
    w.Close();
    res.content_type = "text/xml";
    res.body = kXmlDeclaration + w.str();
  } else {
    XmlWriter w;
    w.Open("ErrorResponse", call.service == nullptr ? "" : call.service->xml_namespace);
    w.Open("Error");
    w.Text("Type", error.status >= 500 ? "Receiver" : "Sender");
    w.Text("Code", error.code);
    w.Text("Message", error.message);
    w.Close();
    w.Text("RequestId", request_id);
    w.Close();
    res.content_type = "text/xml";
    res.body = kXmlDeclaration + w.str();
  }
  return res;
}

}  // namespace ms::server
