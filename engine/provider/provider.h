// The engine's view of resource providers.
//
// A provider implements one resource type: its schema (properties, how an
// update of each is carried out, attributes) and its hooks (create, update,
// delete, rollback, read). The engine never sees Lua: host/lua implements
// these interfaces over lua-sdk providers, and engine tests implement them
// with C++ fakes.
//
// Threading: a ProviderSession belongs to one worker thread at a time (the
// Lua host gives each its own lua_State); ProviderRuntime::NewSession is
// thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/log_level.h"
#include "base/status.h"
#include "template/value.h"

namespace ms {

// How an update of a property is carried out. Ordered by severity: a
// resource's change is the most severe of its changed properties.
enum class UpdateBehavior { kNone = 0, kSome = 1, kReplace = 2, kUnsupported = 3 };

// "none", "some", "replace", "unsupported" (the provider contract's names).
const char* UpdateBehaviorName(UpdateBehavior b);
// AWS's wording in the resource reference: "No interruption", "Some
// interruptions", "Replacement", "Updates are not supported".
const char* UpdateBehaviorAwsName(UpdateBehavior b);
bool ParseUpdateBehavior(std::string_view name, UpdateBehavior* out);

struct PropertySchema {
  std::string name;
  std::string type;        // string, number, integer, boolean, list, map, json, tags
  std::string item_type;   // lists and maps: the element type ("object" for P.object); else empty
  bool required = false;
  bool conditional = false;  // a provider function decides the update at run time
  UpdateBehavior update = UpdateBehavior::kReplace;  // when !conditional
  // What the provider's validation fills in when the template omits the
  // property (deployed properties hold it); null: no default.
  Value default_value;
  // Never returned by read (a password): drift and import never compare it
  // (the registry schema's writeOnlyProperties).
  bool write_only = false;
  // The declaration's constraints, as the registry schema states them
  // (minimum, maximum, minLength/maxLength or minItems/maxItems, pattern,
  // enum, and an object's sub-properties); null when it has none. The
  // provider validates them itself; this is for tools that describe the type.
  Value constraints;
};

// AWS's default for a resource handler's timeoutInMinutes: 120 minutes.
constexpr int kDefaultHandlerTimeoutSeconds = 120 * 60;

struct TypeSchema {
  std::string type;    // "AWS::EC2::Subnet"
  std::string source;  // the provider file, for messages
  std::vector<PropertySchema> properties;
  std::vector<std::string> attributes;
  std::string primary_identifier;                // the first (or only) one
  std::vector<std::string> primary_identifiers;  // all, in order: compound identifiers have several
  bool accepts_undeclared_properties = false;  // Custom:: resources
  bool accepts_any_attribute = false;          // Custom:: resources, stubs, AWS types with attribute patterns
  // A failed update may have applied part of the change: update rollback
  // calls its rollback hook (else a failed update is taken as unchanged).
  bool leaves_partial_updates = false;
  // The provider has a `read` hook: drift detection and resource import
  // can look at its resources (an IMPORT change set refuses a type without).
  bool has_read = true;
  // How long one create, update, delete or rollback may take, its
  // in-progress answers included (the registry schema's handler
  // timeoutInMinutes); 0: kDefaultHandlerTimeoutSeconds.
  int timeout_seconds = 0;

  const PropertySchema* FindProperty(std::string_view name) const;
  bool HasAttribute(std::string_view name) const;
};

// What a hook's ctx carries besides the world.
struct HookContext {
  std::string stack_name;
  std::string stack_id;
  std::string logical_id;
  std::string region;
  std::string account_id;
  // The stack's tags (CreateStack / UpdateStack --tags) as a Tags list,
  // [{Key, Value}, ...]; null when the stack has none. CloudFormation
  // propagates them to the taggable resources it creates.
  Value stack_tags;
  // Update and rollback hooks: the stack tags the resource was last given
  // (a list, empty when none; null on other hooks). It differs from
  // stack_tags when UpdateStack changed the stack's tags: the provider
  // re-tags the resource (moonstack.tags.update_diff).
  Value old_stack_tags;
  Value update_policy;  // null when the resource has none; update rollback: the template rolled back to's (seed 004)
  // Update and rollback hooks: the other template's UpdatePolicy (update: the
  // previous template's; rollback: the failed update's). Null when none.
  Value old_update_policy;
  // The resource's CreationPolicy, evaluated (null: none). The engine waits
  // for its ResourceSignal itself; a provider may read the rest.
  Value creation_policy;
  Value progress;       // null on a hook's first call; else what it returned in progress
  int64_t now_ms = 0;   // the engine clock (real, scaled or virtual)
  // DecideUpdate only: the resource's whole properties before and after, for
  // a behaviour that depends on other properties (an instance type change is
  // some interruption or replacement depending on the ImageId). May be null.
  const Value* old_properties = nullptr;
  const Value* new_properties = nullptr;
};

enum class Hook { kCreate, kUpdate, kDelete, kRollback, kRead };
const char* HookName(Hook h);

struct HookCall {
  Hook hook = Hook::kCreate;
  std::string type;
  HookContext ctx;
  std::string physical_id;     // all but create
  Value properties;            // create, delete, read: the resource's; update: the new ones
  Value old_properties;        // update and rollback: the current ones
  std::vector<std::string> changed;  // update and rollback
  // Create's first call: the worker Validates `properties` first (a failure
  // is the call's kFailed outcome, with Validate's message) and runs the hook
  // with the coerced ones, handed back in HookOutcome::coerced. Validation
  // runs beside the other calls instead of on the operation's thread.
  bool validate = false;
};

// A hook's log: what ctx.log.debug/info/warn/error and print (INFO) wrote
// during one call, in order. The host collects it; the engine stamps each
// line with the operation's clock, stack, logical ID and hook, stores it with
// the stack (store/provider_log_table.h) and shows it (OperationObserver).

struct ProviderLogLine {
  LogLevel level = LogLevel::kInfo;
  std::string message;
  std::string detail;  // a runtime error's Lua traceback (shown with --debug), else empty
  bool failure = false;  // the line saying why the hook failed: kept past the caps
  // Set on a line handed apart from a hook's answer (ProviderSession::TakeLog,
  // OperationObserver::TakeLog): the resource it is about and the function
  // that wrote it ("validate", "decide_update", "scenario"). Empty on a
  // hook's own lines: the call's resource and hook.
  std::string logical_id;
  std::string function;
};

// Bounds of the log: lines kept per operation (and per call: the host stops
// collecting there), bytes kept of one line's message. What is dropped is
// counted and said in a last line ("... N lines dropped").
inline constexpr size_t kProviderLogMaxLines = 1000;
inline constexpr size_t kProviderLogMaxLineBytes = 4096;

struct HookOutcome {
  enum class Kind { kDone, kInProgress, kFailed };
  Kind kind = Kind::kDone;
  std::string physical_id;  // create: the new resource's ID (also while in progress, once known)
  Value attributes;         // map of attribute values (create, update, read)
  Value properties;         // read: the resource as it is now
  Value progress;           // in progress: handed back as ctx.progress
  double after_seconds = 0; // in progress: when to call again
  // In progress: each is an event of the resource with this reason, its
  // status still *_IN_PROGRESS (a rolling update's steps).
  std::vector<std::string> progress_reasons;
  std::string reason;       // failed: the AWS-facing message (ResourceStatusReason)
  std::string error_code;   // failed: the handler's error code (NotFound, Throttling, ...), or empty
  std::string diagnostic;   // failed: provider file:line and traceback, for logs
  Value coerced;            // a call with `validate` that got past it: the properties it ran with
  std::vector<ProviderLogLine> log;  // what the hook logged, a runtime error's file:line included
  int64_t log_dropped = 0;           // lines past kProviderLogMaxLines the host did not keep
};

// CloudFormation's handler error codes that change what a failure means
// (cloudformation-cli, "Resource type handler error codes"): a delete that
// answers NotFound found the resource already gone, which is what it was
// asked for; NetworkFailure, Throttling, ServiceInternalError and
// ResourceConflict are retriable, every other code is terminal.
bool IsRetriableHandlerError(std::string_view code);
bool IsAlreadyDeleted(Hook hook, const HookOutcome& o);
// One of cloudformation-cli's HandlerErrorCode values (AlreadyExists,
// NotFound, InvalidRequest, ...), as opposed to a service's own error code.
bool IsHandlerErrorCode(std::string_view code);
// A failure's status reason as CloudFormation shows it for a registry type's
// handler: `Resource handler returned message: "<message>" (RequestToken:
// <token>, HandlerErrorCode: <code>)`.
std::string HandlerFailureReason(std::string_view message, std::string_view request_token,
                                 std::string_view code);

// One worker's handle on every provider. Not thread-safe.
class ProviderSession {
 public:
  virtual ~ProviderSession() = default;
  // A kept session is about to serve another operation (moonstack serve's
  // session pool): a session that loaded provider files checks, for each type
  // the operation then uses, that its file has not changed since.
  virtual void NextOperation() {}
  // The schema of a type, or nullptr when no provider implements it.
  virtual const TypeSchema* Schema(std::string_view type) = 0;
  // Validates and coerces a resource's properties as CloudFormation does
  // (`Encountered unsupported property X`, "true" for a boolean, ...).
  virtual Status Validate(std::string_view type, const HookContext& ctx, const Value& properties,
                          Value* coerced) = 0;
  // The update behaviour of one property change, for conditional properties
  // (a provider function of old, new and ctx).
  virtual Status DecideUpdate(std::string_view type, std::string_view property, const Value& old_value,
                              const Value& new_value, const HookContext& ctx, UpdateBehavior* out) = 0;
  // Runs a hook. Never throws and never blocks on time: long work comes back
  // kInProgress and is called again after `after_seconds`. Its outcome's
  // log carries what Validate and DecideUpdate wrote before it on this
  // session too (each line naming its function and resource).
  virtual HookOutcome Call(const HookCall& call) = 0;
  // What the provider wrote (print, ctx.log) in Validate and DecideUpdate
  // since the last Call or TakeLog, appended to *lines (each naming its
  // function and resource), and how many lines it did not keep: the engine
  // stamps them into the operation's provider log.
  virtual void TakeLog(std::vector<ProviderLogLine>* lines, int64_t* dropped) { (void)lines, (void)dropped; }
  // Whether the value of an AWS-specific parameter type (AWS::EC2::VPC::Id,
  // AWS::EC2::Image::Id, ...) exists in the world; true for a type no
  // simulated service answers for. These questions are asked in a region
  // and an account (the stack's): the simulated cloud is per account.
  virtual bool ValueExists(std::string_view aws_type, std::string_view value, std::string_view region,
                           std::string_view account) {
    (void)aws_type, (void)value, (void)region, (void)account;
    return true;
  }
  // The value of an SSM parameter (AWS::SSM::Parameter::Value<...> types);
  // false when there is none.
  virtual bool SsmParameter(std::string_view name, std::string_view region, std::string_view account,
                            std::string* value) {
    (void)name, (void)region, (void)account, (void)value;
    return false;
  }
  // The value of a SecureString SSM parameter (`{{resolve:ssm-secure:NAME[:VERSION]}}`);
  // false when there is none.
  virtual bool SecureSsmParameter(std::string_view name, std::string_view region, std::string_view account,
                                  std::string* value) {
    (void)name, (void)region, (void)account, (void)value;
    return false;
  }
  // The SecretString of a Secrets Manager secret (name or ARN) at a version
  // stage or version ID (empty: AWSCURRENT): true with the value, else false
  // with Secrets Manager's message.
  virtual bool SecretString(std::string_view secret_id, std::string_view version_stage,
                            std::string_view version_id, std::string_view region, std::string_view account,
                            std::string* value, std::string* error) {
    (void)secret_id, (void)version_stage, (void)version_id, (void)region, (void)account, (void)value;
    *error = "Secrets Manager can't find the specified secret.";
    return false;
  }
  // Whether an S3 bucket of `account` holds any object (a change set's
  // BUCKET_EMPTINESS_VALIDATION, stack/early_validation.h); false for a
  // bucket that is not there.
  virtual bool S3BucketHasObjects(std::string_view bucket, std::string_view account) {
    (void)bucket, (void)account;
    return false;
  }
  // An object of the simulated S3 (a TemplateURL's template, an
  // AWS::Include snippet), read with S3's GetObject as `account` (the
  // stack's: another account's bucket must grant it): true with its body,
  // else false with S3's error code (NoSuchBucket, NoSuchKey, AccessDenied,
  // ...) and message.
  virtual bool S3Object(std::string_view bucket, std::string_view key, std::string_view account, std::string* body,
                        std::string* error_code, std::string* error_message) {
    (void)bucket, (void)key, (void)account, (void)body;
    *error_code = "NoSuchBucket";
    *error_message = "The specified bucket does not exist";
    return false;
  }
};

class ProviderRuntime {
 public:
  virtual ~ProviderRuntime() = default;
  // Thread-safe: each engine worker takes its own session.
  virtual Status NewSession(std::unique_ptr<ProviderSession>* out) = 0;
  // A session for a scheduler worker, which runs hooks: a runtime that keeps
  // sessions lends it the one that has run the most (server/session_pool.h).
  virtual Status NewHookSession(std::unique_ptr<ProviderSession>* out) { return NewSession(out); }
  // The types some provider implements, sorted.
  virtual std::vector<std::string> Types() const = 0;
  // A type's schema, or nullptr when no provider implements it. A pointer
  // stays valid for the runtime's life, across ReloadChanged.
  virtual const TypeSchema* Schema(std::string_view type) const = 0;
  // Provider files changed since they were read are read again, so Schema
  // answers what they declare now (attributes, properties): `moonstack
  // serve` before each request, as its sessions reload a changed provider
  // before the next operation (ProviderSession::NextOperation).
  virtual void ReloadChanged() {}
};

}  // namespace ms
