#include "server/cfn_server.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <thread>

#include "cli/io.h"
#include "server/aws_routes.h"
#include "server/cfn_api.h"
#include "server/freed_memory.h"
#include "server/function_url_route.h"
#include "server/http_server.h"
#include "server/operation_runner.h"
#include "server/request_guard.h"
#include "server/served_template_url.h"
#include "server/session_pool.h"
#include "server/wait_signal.h"
#include "server/xml.h"
#include "template/parse.h"
#include "stackset/stack_set_store.h"
#include "store/schema.h"
#include "store/state_lock.h"

namespace ms::server {

std::string NewRequestId() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out += '-';
    out += kHex[rng() & 15u];
  }
  return out;
}

namespace {

void Reply(httplib::Response& res, const ApiResponse& api, const std::string& request_id) {
  res.status = api.http_status;
  res.set_header("x-amzn-RequestId", request_id);
  res.set_content(api.body, "text/xml");
}

std::vector<std::string> HeaderValues(const httplib::Request& req, const char* name) {
  std::vector<std::string> out;
  for (size_t i = 0, n = req.get_header_value_count(name); i < n; ++i) out.push_back(req.get_header_value(name, i));
  return out;
}

}  // namespace

// The guard's refusal as the route's clients read errors: S3's <Error> for a
// PUT (a presigned URL on AWS), the Query API's <ErrorResponse> otherwise.
HttpServer::Guard MakeGuard(GuardPolicy policy) {
  return [policy = std::move(policy)](const httplib::Request& req) -> std::optional<HttpServer::Answer> {
    RequestHead head{req.method,
                     req.path,
                     HeaderValues(req, "Host"),
                     HeaderValues(req, "Origin"),
                     HeaderValues(req, "Content-Type"),
                     HeaderValues(req, "Content-Length"),
                     HeaderValues(req, "Transfer-Encoding")};
    std::optional<Refusal> r = CheckRequest(head, policy);
    if (!r) return std::nullopt;
    if (req.method == "PUT") {
      return HttpServer::Answer{r->http_status, "application/xml",
                                WaitSignals::S3Error(r->http_status, r->code, r->message).body};
    }
    return HttpServer::Answer{r->http_status, "text/xml",
                              ErrorResponse(r->http_status, r->code, r->message, NewRequestId()).body};
  };
}

Status Serve(const ServeOptions& options) {
  const std::string state_path = cli::StatePath(options.session.state);
  if (state_path == ":memory:") {
    return Status::Validation("moonstack serve needs a state file: an in-memory store is private to one connection");
  }
  GuardPolicy policy;
  policy.max_body_bytes = options.max_body_bytes;
  policy.max_object_bytes = options.max_object_bytes;
  for (const std::string& name : options.allowed_hosts) {
    if (!AllowHost(name, &policy)) return Status::Validation("--allow-host " + name + ": not a host name or address");
  }
  // Clients name the address they connect to: answered unless it is a wildcard.
  if (options.host != "0.0.0.0" && options.host != "::") AllowHost(options.host, &policy);

  // Block the stop signals before any thread starts, so every thread inherits
  // the mask and only the waiter below receives them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  HttpServer::Limits limits;
  limits.read_timeout_seconds = options.read_timeout_seconds;
  HttpServer http(limits);
  const GuardPolicy own_hosts = policy;  // whose URLs are this server's (ServedTemplateUrl)
  http.set_guard(MakeGuard(std::move(policy)));
  // Cpp-httplib's reader is not used for POST / (a content reader below),
  // but PUT bodies go through it: up to an S3 object's limit, which the
  // guard applies to PUTs only (every other route keeps max_body_bytes).
  http.set_payload_max_length(std::max<uint64_t>(options.max_body_bytes, options.max_object_bytes));
  // First: a second server on the port fails before it loads anything.
  MS_RETURN_IF_ERROR(http.Bind(options.host, options.port));

  // The world, the providers, the clock, and the state's lock: one process
  // writes a state file at a time (store/state_lock.h). What a crash left in
  // progress is resumed once the server listens (below).
  cli::StackSession session;
  cli::SessionOptions session_options = options.session;
  // The provider log goes to serve's log (stderr): INFO and up, or with
  // --debug DEBUG lines and tracebacks too. Never stdout: a provider's print
  // is collected by its session, not written by the process.
  session_options.log_verbosity = std::max(session_options.log_verbosity, 1);
  session_options.writer = std::string(StateLock::kServeHolder) + " on " + options.host + ":" +
                           std::to_string(options.port);
  MS_RETURN_IF_ERROR(session.Open(session_options, nullptr, cli::Access::kWrite, cli::Resume::kLater));
  std::unique_ptr<Database> request_db;
  MS_RETURN_IF_ERROR(OpenStore(state_path, &request_db));
  MS_RETURN_IF_ERROR(request_db->DisableAutoCheckpoint());  // the operation threads checkpoint
  // Provider sessions kept from one operation to the next (session_pool.h):
  // as many as the running operations use (a scheduler's workers, and the
  // operation's own for validation); one operation's worth made now, so the
  // first request does not wait for them.
  OperationContext op_ctx = session.service().context();
  const size_t per_operation = static_cast<size_t>(std::max(1, op_ctx.scheduler.workers)) + 1;
  SessionPool sessions(op_ctx.providers, per_operation * static_cast<size_t>(std::max(1, options.workers)));
  MS_RETURN_IF_ERROR(sessions.Warm(per_operation));
  op_ctx.providers = &sessions;
  op_ctx.allow_file_template_urls = false;  // a TemplateURL is an S3 object here, never a local file
  CancelRequests cancels;  // CancelUpdateStack (request thread) -> the operation's thread
  op_ctx.cancels = &cancels;
  OperationContext request_ctx = op_ctx;
  request_ctx.db = request_db.get();
  request_ctx.world = nullptr;  // the request side never changes the world
  request_ctx.observer = nullptr;

  OperationRunner runner(op_ctx, state_path, options.workers);
  CfnApi api(request_ctx, &runner, options.max_template_body);
  api.set_signal_world(session.service().context().world);

  WaitSignals signals;
  MS_RETURN_IF_ERROR(signals.Open(session.service().context().world, &session.clock(), options.session.providers));

  const std::string default_region = options.session.region;
  // The other AWS APIs, on the same world (aws_api.h).
  SimHost sim;
  MS_RETURN_IF_ERROR(sim.Open(session.service().context().world, &session.clock(), options.session.providers));
  MS_RETURN_IF_ERROR(sim.SaveEachCallTo(state_path));
  AwsApi aws(&sim, default_region, state_path);
  // Custom resources whose ServiceToken names no custom/<name>.lua handler
  // are answered from outside, through ResponseURLs on this server
  // (providers/sim/custom_resources.lua).
  const std::string endpoint = "http://" + (options.host == "0.0.0.0" ? std::string("127.0.0.1") : options.host) +
                               ":" + std::to_string(options.port);
  auto set_endpoint = [&](const std::string& url) {
    Value params = Value::MakeMap(), ignored;
    params.set("Url", Value::String(url));
    return signals.Call("custom_resources", "SetEndpoint", params, &ignored);
  };
  MS_RETURN_IF_ERROR(set_endpoint(endpoint));
  http.Get("/moonstack/custom-resource-requests", [&](const httplib::Request&, httplib::Response& res) {
    Value result;
    Status s = signals.Call("custom_resources", "ListRequests", Value::MakeMap(), &result);
    if (!s.ok()) {
      res.status = 500;
      res.set_content(cli::Json{{"message", s.message()}}.dump(), "application/json");
      return;
    }
    const Value* requests = result.find("Requests");
    res.set_content("{\"Requests\":" + (requests != nullptr && requests->is_list() ? requests->ToJson() : "[]") + "}",
                    "application/json");
  });
  http.Get("/moonstack/health", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"status\":\"ok\"}", "application/json");
  });
  // Test isolation: every stack and world record forgotten. `done` is the
  // answer's status field: moonstack's own, or moto's on its path.
  auto reset = [&](httplib::Response& res, const char* done) {
    Status s = api.Reset(session.service().context().world);
    if (s.ok()) s = set_endpoint(endpoint);  // the reset forgot it with the rest of the world
    if (s.ok()) {
      res.set_content(cli::Json{{"status", done}}.dump(), "application/json");
    } else {
      res.status = s.code() == Status::Code::kInternal ? 500 : 409;
      res.set_content(cli::Json{{"status", "error"}, {"message", s.message()}}.dump(), "application/json");
    }
  };
  http.Post("/moonstack/reset", [&](const httplib::Request&, httplib::Response& res) { reset(res, "reset"); });
  // moto's server mode: its test harnesses POST here between tests.
  http.Post("/moto-api/reset", [&](const httplib::Request&, httplib::Response& res) { reset(res, "ok"); });
  http.Get("/moto-api/reset", [](const httplib::Request&, httplib::Response& res) {
    res.status = 400;
    res.set_content("{\"Error\": \"Need to POST to reset Moto\"}", "application/json");
  });
  // A content-reader route's body, read whole up to max_body_bytes: the
  // guard has checked the declared length; the reader counts what arrives
  // (a compressed body grows as it is decoded).
  enum class BodyRead { kRead, kTooLarge, kIncomplete };
  auto read_body = [&](const httplib::ContentReader& reader, std::string* body) {
    bool too_large = false;
    const bool read = reader([&](const char* data, size_t length) {
      too_large = body->size() + length > options.max_body_bytes;
      if (!too_large) body->append(data, length);
      return !too_large;
    });
    return too_large ? BodyRead::kTooLarge : read ? BodyRead::kRead : BodyRead::kIncomplete;
  };
  const std::string too_large_message = "Request body is larger than " + std::to_string(options.max_body_bytes) + " bytes";
  // The client sent less than its Content-Length before the read deadline.
  const std::string incomplete_message =
      "The request body ended before the number of bytes its Content-Length header gives";
  // cfn-signal's PUT to a wait-condition handle URL, host swapped (wait_signal.h).
  // A content-reader handler: an S3 object's body is streamed to the store
  // as it arrives (aws_api.h), never held whole; the others read theirs.
  http.Put(R"(/.*)", [&](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    if (IsFunctionUrlRequest(req)) {
      std::string body;
      const BodyRead got = read_body(reader, &body);
      if (got == BodyRead::kRead) return AnswerFunctionUrl(sim, req, std::move(body), res);
      res.status = got == BodyRead::kTooLarge ? 413 : 400;
      return;
    }
    WaitSignals::Reply reply;
    static const std::string kResponsePath = "/moonstack/custom-resource-response/";
    const bool own = WaitSignals::IsHandlePath(req.path) || req.path.rfind(kResponsePath, 0) == 0;
    AwsRequest aws_req = ToAwsRequest(req, "");
    if (!own && AwsApi::Handles(aws_req)) {
      // An AWS API call: S3's PutObject, UploadPart, a presigned URL's PUT, ...
      return Send(res, aws.HandleWithBody(std::move(aws_req), reader, options.max_object_bytes, NewRequestId()));
    }
    std::string body;
    const BodyRead got = read_body(reader, &body);
    if (got != BodyRead::kRead) {
      const bool too_large = got == BodyRead::kTooLarge;
      reply = WaitSignals::S3Error(too_large ? 413 : 400, too_large ? "RequestEntityTooLarge" : "IncompleteBody",
                                   too_large ? too_large_message : incomplete_message);
    } else if (WaitSignals::IsHandlePath(req.path)) {
      reply = signals.Signal(req.path, body);
    } else if (req.path.rfind(kResponsePath, 0) == 0) {
      // A custom-resource handler's response (cfn-response's PUT to the ResponseURL).
      Value response, params = Value::MakeMap(), ignored;
      Status s = ParseJson(body, &response);
      if (!s.ok() || !response.is_map()) s = Status::Validation("The response must be a JSON object");
      if (s.ok()) {
        params.set("RequestId", Value::String(req.path.substr(kResponsePath.size())));
        params.set("Response", response);
        s = signals.Call("custom_resources", "Respond", params, &ignored);
      }
      const bool unknown = s.code() == Status::Code::kNotFound;
      reply = s.ok() ? WaitSignals::Reply{200, ""}
                     : WaitSignals::S3Error(unknown ? 403 : 400, unknown ? "AccessDenied" : "InvalidRequest",
                                            s.message());
    } else {
      reply = WaitSignals::S3Error(404, "NoSuchKey", "moonstack accepts PUT only on a wait-condition handle's path");
    }
    res.status = reply.http_status;
    if (!reply.body.empty()) res.set_content(reply.body, "application/xml");
  });
  // A content-reader handler: it receives the body itself, so cpp-httplib's
  // own 8 KiB cap on form-encoded bodies (compiled into the library) does not
  // apply.
  http.Post("/", [&](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    const std::string request_id = NewRequestId();
    std::string body;
    const BodyRead got = read_body(reader, &body);
    if (got == BodyRead::kTooLarge) {
      Reply(res, ErrorResponse(413, "RequestEntityTooLarge", too_large_message, request_id), request_id);
      return;
    }
    if (got == BodyRead::kIncomplete) {
      Reply(res, ErrorResponse(400, "IncompleteBody", incomplete_message, request_id), request_id);
      return;
    }
    if (IsFunctionUrlRequest(req)) return AnswerFunctionUrl(sim, req, std::move(body), res);
    // Another service's API (signed for it, or an X-Amz-Target): aws_api.h.
    AwsRequest aws_req = ToAwsRequest(req, "");
    if (AwsApi::Handles(aws_req)) {
      aws_req.body = std::move(body);
      return Send(res, aws.Handle(aws_req, request_id));
    }
    // The body's parameters and the URL query's (?Action=...): a name given
    // twice is refused rather than one of its values picked.
    std::map<std::string, std::string> params;
    std::string duplicate;
    const size_t query = req.target.find('?');
    if (!ParseForm(body, &params, &duplicate) ||
        (query != std::string::npos && !ParseForm(std::string_view(req.target).substr(query + 1), &params, &duplicate))) {
      Reply(res,
            ErrorResponse(400, "InvalidQueryParameter",
                          "The request has more than one value for the parameter " + duplicate, request_id),
            request_id);
      return;
    }
    // The CDK's TemplateURL names the object on this server (served_template_url.h).
    auto url = params.find("TemplateURL");
    if (url != params.end()) url->second = ServedTemplateUrl(url->second, own_hosts, options.port);
    const std::string region = RegionFromAuthorization(req.get_header_value("Authorization"), default_region);
    const std::string account = AccountFromAuthorization(req.get_header_value("Authorization"), StackScope().account);
    // An edited provider's schema (its attributes: Fn::GetAtt's checks) is
    // what this request validates against, as its operation's sessions
    // reload its code. A Describe* or List* request validates nothing: it
    // does not stat every provider file (a client polling a create every
    // 10 ms, a 300-page event listing).
    auto action = params.find("Action");
    const bool reads_only = action != params.end() && (action->second.rfind("Describe", 0) == 0 ||
                                                       action->second.rfind("List", 0) == 0);
    if (!reads_only) sessions.ReloadChanged();
    Reply(res, api.Handle(QueryRequest(std::move(params)), region, account, request_id), request_id);
  });

  // Last: their GET/DELETE/POST routes take every path not routed above.
  AddAwsRoutes(http, aws, sim, &NewRequestId);

  MS_RETURN_IF_ERROR(runner.Start());
  FreedMemoryReturner freed_memory([&runner] { return runner.Working(); });
  // Stack set operations a stop or crash left QUEUED, RUNNING or STOPPING
  // run again from the store (stackset/stack_set_operation.h): their finished
  // results stay, a stack still in progress is resumed by the recovery below
  // and waited for.
  {
    std::vector<std::pair<std::string, std::string>> unfinished;
    MS_RETURN_IF_ERROR(UnfinishedStackSetOperations(request_db.get(), &unfinished));
    for (const auto& [set_id, op_id] : unfinished) runner.EnqueueStackSetOperation(set_id, op_id);
  }
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    http.Shutdown();
    runner.Stop();  // the operations stop at their next checkpoint
  });
  std::cerr << "moonstack serve: listening on http://" << options.host << ":" << options.port << std::endl;
  // Operations a crash left in progress, each with the providers it
  // recorded, beside the requests (a request on such a stack is refused
  // until it ends: its StackLock is held).
  std::thread recovery([&] {
    Status s = session.Recover(nullptr, runner.interrupt_flag(), &cancels);
    if (!s.ok()) std::cerr << "moonstack serve: resuming crashed operations: " << s.message() << "\n";
  });
  bool listened = http.Serve();
  if (!listened) pthread_kill(waiter.native_handle(), SIGTERM);  // the waiter is still waiting
  waiter.join();
  recovery.join();
  runner.Stop();
  set_endpoint("");  // the CLI on this state file has no server to answer for it
  MS_RETURN_IF_ERROR(session.Close());
  if (!listened) return Status::Internal("moonstack serve: the HTTP server stopped unexpectedly");
  return Status::OK();
}

}  // namespace ms::server
