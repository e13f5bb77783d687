// How `moonstack serve` reads a request's body: a missing, malformed or
// oversized Content-Length is answered at once with the right status, a
// body shorter than it says is answered 400 at the read deadline, a body
// left unread ends the connection (it would read as the next request), and
// a parameter given twice is refused rather than one of its values run.
#include <catch2/catch.hpp>

#include "raw_http.h"
#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

const std::string kForm = "Content-Type: application/x-www-form-urlencoded\r\n";

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("serve answers a wrong Content-Length at once with the right status", "[server][framing]") {
  Server server("framing_length", "0.001", {"--read-timeout", "1"});
  const int port = server.port();
  const std::string head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + kForm;
  const std::string body = "Action=ListStacks&Version=2010-05-15";

  {  // none: 411
    RawConnection c(port);
    const auto start = SteadyClock::now();
    REQUIRE(c.Send(head + "\r\n" + body));
    const std::string r = c.ReadResponse();
    CHECK(SecondsSince(start) < 0.9);  // not at the read deadline
    CHECK(StatusOf(r) == 411);
    CHECK(Has(r, "<Code>MissingContentLength</Code><Message>You must provide the Content-Length HTTP header.</Message>"));
    CHECK(c.ClosedWithin(2));  // the body it sent is never read as a request
  }
  {  // chunked: 411
    const std::string r =
        Exchange(port, head + "Transfer-Encoding: chunked\r\n\r\n" + "24\r\n" + body + "\r\n0\r\n\r\n");
    CHECK(StatusOf(r) == 411);
  }
  {  // not a number: 400
    for (const std::string value : {"abc", "-1", "1e3", "12 34", "99999999999999999999999"}) {
      INFO(value);
      const auto start = SteadyClock::now();
      const std::string r = Exchange(port, head + "Content-Length: " + value + "\r\n\r\n" + body);
      CHECK(SecondsSince(start) < 0.9);
      CHECK(StatusOf(r) == 400);
      CHECK(Has(r, "<Code>InvalidRequest</Code><Message>The Content-Length header is not a number of bytes: &apos;" +
                       value + "&apos;</Message>"));
    }
    CHECK(StatusOf(Exchange(port, head + "Content-Length: 36\r\nContent-Length: 37\r\n\r\n" + body))
          == 400);
  }
  {  // over the limit: 413 before the body is sent
    RawConnection c(port);
    const auto start = SteadyClock::now();
    REQUIRE(c.Send(head + "Content-Length: 2000000\r\n\r\n"));
    const std::string r = c.ReadResponse();
    CHECK(SecondsSince(start) < 0.9);
    CHECK(StatusOf(r) == 413);
    CHECK(Has(r, "<Code>RequestEntityTooLarge</Code><Message>Request body is larger than 1048576 bytes</Message>"));
  }
  {  // a body shorter than its Content-Length: 400 at the read deadline, not 413
    RawConnection c(port);
    const auto start = SteadyClock::now();
    REQUIRE(c.Send(head + "Content-Length: 100\r\n\r\n" + body));
    const std::string r = c.ReadResponse(5);
    CHECK(SecondsSince(start) < 3);  // --read-timeout 1
    CHECK(StatusOf(r) == 400);
    CHECK(Has(r, "<Code>IncompleteBody</Code>"));
  }
  {  // right: answered, and the connection serves the next request
    RawConnection c(port);
    REQUIRE(c.Send(head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body));
    CHECK(StatusOf(c.ReadResponse()) == 200);
    REQUIRE(c.Send("GET /moonstack/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    CHECK(Has(c.ReadResponse(), "{\"status\":\"ok\"}"));
  }
}

TEST_CASE("a refused request's body is never read as the next request", "[server][framing]") {
  Server server("framing_smuggle");
  RawConnection c(server.port());
  // A request smuggled in the body of one the guard refuses (text/plain).
  const std::string inner = "POST /moonstack/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n";
  REQUIRE(c.Send(Request("POST", "/moonstack/reset", "Host: 127.0.0.1\r\nContent-Type: text/plain\r\n", inner)));
  CHECK(StatusOf(c.ReadResponse()) == 415);
  CHECK(c.ReadResponse(1).empty());  // no second answer
  CHECK(c.ClosedWithin(2));
}

TEST_CASE("a Query API parameter given twice is refused, in the body or the URL", "[server][framing]") {
  Server server("framing_duplicates");
  const int port = server.port();
  const std::string local = "Host: 127.0.0.1\r\n";
  const std::string tmpl = "TemplateBody=%7B%22Resources%22%3A%7B%22V%22%3A%7B%22Type%22%3A%22AWS%3A%3AEC2%3A%3AVPC%22%2C"
                           "%22Properties%22%3A%7B%22CidrBlock%22%3A%2210.0.0.0%2F16%22%7D%7D%7D%7D";
  // Action=ValidateTemplate&Action=CreateStack used to run CreateStack.
  std::string r = Exchange(port, Request("POST", "/", local + kForm,
                                         "Action=ValidateTemplate&StackName=two&" + tmpl + "&Action=CreateStack"));
  CHECK(StatusOf(r) == 400);
  CHECK(Has(r, "<Code>InvalidQueryParameter</Code><Message>The request has more than one value for the parameter "
               "Action</Message>"));
  r = Exchange(port, Request("POST", "/?Action=CreateStack&StackName=two", local + kForm,
                             "Action=ValidateTemplate&" + tmpl));
  CHECK(StatusOf(r) == 400);
  CHECK(Has(r, "more than one value for the parameter Action"));
  r = Exchange(port, Request("POST", "/?StackName=a&StackName=b", local + kForm, "Action=DescribeStacks"));
  CHECK(Has(r, "more than one value for the parameter StackName"));
  // One of each, split between the URL and the body, is one request.
  r = Exchange(port, Request("POST", "/?Action=DescribeStacks", local + kForm, "Version=2010-05-15"));
  CHECK(StatusOf(r) == 200);
  CHECK(server.AwsJson("describe-stacks")["Stacks"] == json::array());
}
