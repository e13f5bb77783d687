// RequestTokens: ClientRequestToken idempotency for CreateStack, UpdateStack
// and DeleteStack. AWS (the token's documentation): "Specify this token if
// you plan to retry requests so that CloudFormation knows that you're not
// attempting to create a stack with the same name." A request with a token
// that already started an operation starts nothing:
//   - the same action on the same stack (its name or ID) is a retry, answered
//     as the first request was (its StackId);
//   - another action, or another stack, is TokenAlreadyExistsException (the
//     error the service model lists for the three actions).
// A request that was refused (a ValidationError) used no token: retrying it
// is answered with the same error.
//
// Tokens are known from each operation's "User Initiated" stack event (its
// ClientRequestToken), read from the store on first use so they survive a
// restart of the server, and from the requests this server accepts since.
// Not thread-safe: CfnApi calls it under its mutex.
#pragma once

#include <map>
#include <string>

#include "base/status.h"
#include "stack/stack_service.h"

namespace ms::server {

// The message of TokenAlreadyExistsException: AWS documents none of its own,
// so this is the exception's documentation in the service model (botocore's
// cloudformation/2010-05-15/service-2.json).
constexpr const char* kTokenAlreadyExists = "A client request token already exists.";

class RequestTokens {
 public:
  enum class Verdict { kNew, kRetry, kConflict };

  // CreateStack, UpdateStack and DeleteStack.
  static bool Covers(const std::string& action);

  // What a request of `action` on `stack` (a name or ID) with `token` is;
  // *stack_id: for kRetry, the stack the first request started.
  Status Check(StackService& service, const std::string& action, const std::string& token,
               const std::string& stack, Verdict* verdict, std::string* stack_id);
  // After the request started its operation.
  void Record(StackService& service, const std::string& action, const std::string& token,
              const std::string& stack);

 private:
  struct Use {
    std::string action;
    std::string stack_id;
  };
  Status Load(StackService& service);

  bool loaded_ = false;
  std::map<std::string, Use> uses_;  // token -> the request that used it
};

}  // namespace ms::server
