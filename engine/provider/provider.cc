#include "provider/provider.h"

#include <algorithm>

namespace ms {

const char* UpdateBehaviorName(UpdateBehavior b) {
  switch (b) {
    case UpdateBehavior::kNone: return "none";
    case UpdateBehavior::kSome: return "some";
    case UpdateBehavior::kReplace: return "replace";
    case UpdateBehavior::kUnsupported: return "unsupported";
  }
  return "?";
}

const char* UpdateBehaviorAwsName(UpdateBehavior b) {
  switch (b) {
    case UpdateBehavior::kNone: return "No interruption";
    case UpdateBehavior::kSome: return "Some interruptions";
    case UpdateBehavior::kReplace: return "Replacement";
    case UpdateBehavior::kUnsupported: return "Updates are not supported";
  }
  return "?";
}

bool ParseUpdateBehavior(std::string_view name, UpdateBehavior* out) {
  for (UpdateBehavior b : {UpdateBehavior::kNone, UpdateBehavior::kSome, UpdateBehavior::kReplace,
                           UpdateBehavior::kUnsupported}) {
    if (name == UpdateBehaviorName(b)) {
      *out = b;
      return true;
    }
  }
  return false;
}

const char* HookName(Hook h) {
  switch (h) {
    case Hook::kCreate: return "create";
    case Hook::kUpdate: return "update";
    case Hook::kDelete: return "delete";
    case Hook::kRollback: return "rollback";
    case Hook::kRead: return "read";
  }
  return "?";
}

const PropertySchema* TypeSchema::FindProperty(std::string_view name) const {
  for (const PropertySchema& p : properties) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool TypeSchema::HasAttribute(std::string_view name) const {
  return accepts_any_attribute || std::find(attributes.begin(), attributes.end(), name) != attributes.end();
}

bool IsRetriableHandlerError(std::string_view code) {
  return code == "NetworkFailure" || code == "Throttling" || code == "ServiceInternalError" ||
         code == "ResourceConflict";
}

bool IsHandlerErrorCode(std::string_view code) {
  static constexpr std::string_view kCodes[] = {
      "NotUpdatable",        "InvalidRequest",     "AccessDenied",           "UnauthorizedTaggingOperation",
      "InvalidCredentials",  "AlreadyExists",      "NotFound",               "ResourceConflict",
      "Throttling",          "ServiceLimitExceeded", "NotStabilized",        "GeneralServiceException",
      "ServiceInternalError", "ServiceTimeout",    "NetworkFailure",         "InternalFailure",
      "InvalidTypeConfiguration", "HandlerInternalFailure", "NonCompliant", "Unknown",
      "UnsupportedTarget"};
  return std::find(std::begin(kCodes), std::end(kCodes), code) != std::end(kCodes);
}

std::string HandlerFailureReason(std::string_view message, std::string_view request_token,
                                 std::string_view code) {
  return "Resource handler returned message: \"" + std::string(message) + "\" (RequestToken: " +
         std::string(request_token) + ", HandlerErrorCode: " + std::string(code) + ")";
}

bool IsAlreadyDeleted(Hook hook, const HookOutcome& o) {
  return hook == Hook::kDelete && o.kind == HookOutcome::Kind::kFailed && o.error_code == "NotFound";
}

}  // namespace ms
