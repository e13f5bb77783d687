// The HTTP routes of the AWS APIs (aws_api.h) on `moonstack serve`, and
// `moonstack world call`'s route to a running server:
//
//   GET/HEAD/DELETE/POST /<anything>   an AWS API call (S3's /bucket/key, ...)
//   any method, Host <url id>.lambda-url.<region>.localhost
//                                      a Lambda function URL (function_url_route.h)
//   POST /moonstack/world/call         {"Service","Action","Params","Region"}
//                                      -> {"Result": ...} or {"Code","Message"} (400)
//
// POST / and PUT share their paths with CloudFormation and cfn-signal
// (cfn_server.cc): those hand AWS API requests over with ToAwsRequest/Send.
#pragma once

#include <string>

#include "server/aws_api.h"
#include "server/http_server.h"

namespace ms::server {

AwsRequest ToAwsRequest(const httplib::Request& req, std::string body);
void Send(httplib::Response& res, const AwsResponse& aws);

// Registers the routes; `new_request_id` names each answer.
void AddAwsRoutes(HttpServer& http, AwsApi& api, SimHost& sim, std::string (*new_request_id)());

}  // namespace ms::server
