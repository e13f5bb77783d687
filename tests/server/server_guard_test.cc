// `moonstack serve` answers this machine's clients only: a request whose
// Host or Origin names another host (a web page, through DNS rebinding or a
// cross-site form) is refused before anything runs, and so are bodies a web
// page can send cross-site (host/server/request_guard.h). The aws CLI and
// boto3 (every other server test) keep working.
#include <catch2/catch.hpp>

#include "raw_http.h"
#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

const std::string kForm = "Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\n";

std::string HostLine(const std::string& host) { return "Host: " + host + "\r\n"; }

std::vector<std::string> StackNames(const Server& server) {
  std::vector<std::string> names;
  const json stacks = server.AwsJson("describe-stacks")["Stacks"];
  for (const json& s : stacks) names.push_back(s["StackName"]);
  return names;
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("serve refuses requests for another host or from another origin before they run", "[server][guard]") {
  Server server("guard_host");
  const int port = server.port();
  const std::string local = HostLine("127.0.0.1:" + std::to_string(port));
  server.AwsJson("create-stack --stack-name kept --template-body file://" + server.dir() + "/t.json");
  const std::string create = "Action=CreateStack&Version=2010-05-15&StackName=evil&TemplateBody=" +
                             std::string(R"(%7B%22Resources%22%3A%7B%22Vpc%22%3A%7B%22Type%22%3A%22AWS%3A%3AEC2%3A%3AVPC%22%2C)"
                                         R"(%22Properties%22%3A%7B%22CidrBlock%22%3A%2210.0.0.0%2F16%22%7D%7D%7D%7D)");
  // The create runs when asked properly (the body is right).
  CHECK(StatusOf(Exchange(port, Request("POST", "/", local + kForm,
                                        "Action=ValidateTemplate&TemplateBody=%7B%22Resources%22%3A%7B%22V%22%3A%7B%22"
                                        "Type%22%3A%22AWS%3A%3AEC2%3A%3AVPC%22%7D%7D%7D"))) == 200);

  {  // DNS rebinding: a page at evil.example whose name resolves to 127.0.0.1
    const std::string evil = HostLine("evil.example:" + std::to_string(port));
    std::string r = Exchange(port, Request("POST", "/moonstack/reset", evil, ""));
    CHECK(StatusOf(r) == 403);
    CHECK(Has(r, "<Code>AccessDenied</Code>"));
    CHECK(Has(r, "<Message>moonstack serve does not answer requests for host &apos;evil.example&apos;; to answer it, "
                 "start moonstack serve with --allow-host evil.example</Message>"));
    CHECK(StatusOf(Exchange(port, Request("POST", "/", evil + kForm, create))) == 403);
    CHECK(StatusOf(Exchange(port, "GET /moonstack/custom-resource-requests HTTP/1.1\r\n" + evil + "\r\n")) == 403);
    r = Exchange(port, Request("PUT", "/moonstack/custom-resource-response/x", evil, "{}"));
    CHECK(StatusOf(r) == 403);
    CHECK(Has(r, "<Error><Code>AccessDenied</Code>"));  // S3's shape, as a ResponseURL's PUT is answered
    // No Host at all (HTTP/1.0), or two.
    CHECK(StatusOf(Exchange(port, "GET /moonstack/health HTTP/1.0\r\n\r\n")) == 403);
    CHECK(StatusOf(Exchange(port, "GET /moonstack/health HTTP/1.1\r\n" + local + evil + "\r\n")) == 403);
  }
  {  // a cross-site form or fetch: the browser names the page in Origin
    std::string r = Exchange(port, Request("POST", "/", local + "Origin: http://evil.example\r\n" + kForm, create));
    CHECK(StatusOf(r) == 403);
    CHECK(Has(r, "does not answer requests from web pages at &apos;http://evil.example&apos;"));
    CHECK(StatusOf(Exchange(port, Request("POST", "/", local + "Origin: null\r\n" + kForm, create))) == 403);
    // A page served from this machine is answered.
    r = Exchange(port, Request("POST", "/", local + "Origin: http://localhost:3000\r\n" + kForm,
                               "Action=ListStacks&Version=2010-05-15"));
    CHECK(StatusOf(r) == 200);
    CHECK(Has(r, "<StackName>kept</StackName>"));
  }
  {  // the loopback names, with or without a port, in any case
    for (const std::string& host : std::vector<std::string>{"127.0.0.1", "localhost", "LocalHost:1234", "[::1]",
                                                            "[::1]:" + std::to_string(port)}) {
      INFO(host);
      CHECK(StatusOf(Exchange(port, "GET /moonstack/health HTTP/1.1\r\n" + HostLine(host) + "\r\n")) == 200);
    }
  }
  {  // bodies a web page can send cross-site are refused, whatever the Origin
    for (const std::string type : {"text/plain", "multipart/form-data; boundary=x", ""}) {
      INFO(type);
      const std::string header = type.empty() ? "" : "Content-Type: " + type + "\r\n";
      std::string r = Exchange(port, Request("POST", "/", local + header, create));
      CHECK(StatusOf(r) == 415);
      CHECK(Has(r, "<Code>UnsupportedMediaType</Code>"));
    }
    for (const std::string type : {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data"}) {
      INFO(type);
      CHECK(StatusOf(Exchange(port, Request("POST", "/moonstack/reset", local + "Content-Type: " + type + "\r\n", ""))) ==
            415);
    }
  }
  // Nothing refused ran.
  CHECK(StackNames(server) == std::vector<std::string>{"kept"});
  // Sent as a script would (no Content-Type), the reset runs.
  std::string r = Exchange(port, Request("POST", "/moonstack/reset", local, ""));
  CHECK(StatusOf(r) == 200);
  CHECK(Has(r, "{\"status\":\"reset\"}"));
  CHECK(StackNames(server).empty());
}

TEST_CASE("serve --allow-host answers another name too, and the address it listens on", "[server][guard]") {
  Server server("guard_allow", "0.001", {"--allow-host", "Moon.Test", "--allow-host", "::2"});
  const int port = server.port();
  auto health = [&](const std::string& headers) {
    return StatusOf(Exchange(port, "GET /moonstack/health HTTP/1.1\r\n" + headers + "\r\n"));
  };
  CHECK(health(HostLine("moon.test:" + std::to_string(port))) == 200);
  CHECK(health(HostLine("[::2]:80")) == 200);
  CHECK(health(HostLine("127.0.0.1") + "Origin: https://moon.test:8443\r\n") == 200);
  CHECK(health(HostLine("other.test")) == 403);
  CHECK(health(HostLine("127.0.0.1") + "Origin: https://other.test\r\n") == 403);

  Run bad = Sh(std::string(MOONSTACK_BINARY) + " serve --port " + std::to_string(FreePort()) + " --state " +
               server.dir() + "/other.db --allow-host 'not a host'");
  CHECK(bad.exit_code == 1);
  CHECK(Has(bad.out, "--allow-host not a host: not a host name or address"));
}
