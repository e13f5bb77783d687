// Status: the result of an operation that can fail, LevelDB style.
//
// The engine reports every user-facing failure through Status. The message is
// the text AWS CloudFormation would show, verbatim where AWS has one; the code
// is the AWS error code family (ValidationError, AlreadyExistsException, ...)
// so the HTTP layer can map it without parsing messages.
#pragma once

#include <string>
#include <utility>

namespace ms {

class Status {
 public:
  enum class Code {
    kOk,
    kValidation,              // ValidationError
    kAlreadyExists,           // AlreadyExistsException
    kInsufficientCapabilities,// InsufficientCapabilitiesException
    kNotFound,                // resource/stack/change set not found
    kInternal,                // a bug in moonstack: never AWS's fault
    kChangeSetNotFound,       // ChangeSetNotFound (service model: ChangeSetNotFoundException)
    kInvalidChangeSetStatus,  // InvalidChangeSetStatus (InvalidChangeSetStatusException)
    kInvalidRegion,           // SignatureDoesNotMatch: a region AWS does not have (base/regions.h)
    // StackSets (engine/stackset): each its service model's exception, by name.
    kStackSetNotFound,          // StackSetNotFoundException
    kStackInstanceNotFound,     // StackInstanceNotFoundException
    kOperationNotFound,         // OperationNotFoundException
    kOperationInProgress,       // OperationInProgressException
    kOperationIdAlreadyExists,  // OperationIdAlreadyExistsException
    kNameAlreadyExists,         // NameAlreadyExistsException
    kStackSetNotEmpty,          // StackSetNotEmptyException
    kInvalidOperation,          // InvalidOperationException
    kStackNotFound,             // StackNotFoundException (ImportStacksToStackSet)
    kLimitExceeded,             // LimitExceededException
  };

  Status() = default;  // OK
  static Status OK() { return Status(); }
  static Status Validation(std::string msg) { return Status(Code::kValidation, std::move(msg)); }
  static Status AlreadyExists(std::string msg) { return Status(Code::kAlreadyExists, std::move(msg)); }
  static Status InsufficientCapabilities(std::string msg) {
    return Status(Code::kInsufficientCapabilities, std::move(msg));
  }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }
  static Status ChangeSetNotFound(std::string msg) { return Status(Code::kChangeSetNotFound, std::move(msg)); }
  static Status InvalidChangeSetStatus(std::string msg) {
    return Status(Code::kInvalidChangeSetStatus, std::move(msg));
  }
  static Status InvalidRegion(std::string msg) { return Status(Code::kInvalidRegion, std::move(msg)); }
  static Status Of(Code code, std::string msg) { return Status(code, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// Returns from the enclosing function when `expr` is not OK.
#define MS_RETURN_IF_ERROR(expr)        \
  do {                                  \
    ::ms::Status _ms_status = (expr);   \
    if (!_ms_status.ok()) return _ms_status; \
  } while (0)

}  // namespace ms
