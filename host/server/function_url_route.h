// Lambda function URLs on `moonstack serve`: a request to
// http://<url id>.lambda-url.<region>.localhost:<port>/<path> (the URL's
// own host, https://<url id>.lambda-url.<region>.on.aws/, under localhost:
// names under localhost resolve to this machine) is an HTTP request to the
// function behind that URL. The sim's InvokeFunctionUrl
// (providers/sim/lambda_urls.lua) decides who may call, makes Lambda's
// payload format 2.0 event, runs the function and maps its answer; this
// file carries the request in and the answer out, whatever the method
// (GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS) and path.
#pragma once

#include <httplib.h>

#include <string>

#include "server/sim_call.h"

namespace ms::server {

// Whether `req` is addressed to a function URL (its Host header).
bool IsFunctionUrlRequest(const httplib::Request& req);

// Answers a function URL request whose body is `body`.
void AnswerFunctionUrl(SimHost& sim, const httplib::Request& req, std::string body, httplib::Response& res);

}  // namespace ms::server
