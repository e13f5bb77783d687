#include "cli/io.h"

#include "cli/output.h"
#include "base/regions.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ms::cli {

Status ReadFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Validation("Unable to load paramfile " + path + ": No such file or directory");
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return Status::OK();
}

Status ReadTemplateBody(const std::string& arg, std::string* text) {
  const std::string prefix = "file://";
  if (arg.rfind(prefix, 0) == 0) return ReadFile(arg.substr(prefix.size()), text);
  *text = arg;
  return Status::OK();
}

std::string Home() {
  const char* env = std::getenv("MOONSTACK_HOME");
  return env != nullptr && *env != '\0' ? env : MOONSTACK_DEFAULT_HOME;
}

std::string NodeSdkPath() {
  const char* env = std::getenv("MOONSTACK_NODE_SDK");
  if (env != nullptr && *env != '\0') return env;
  const std::string installed = Home() + "/.node-sdk/node_modules";
  std::error_code ec;
  return std::filesystem::is_directory(installed, ec) ? installed : "";
}

// The aws CLI's JSON (Python's json.dump, indent 4); unlike RenderOutput, an
// empty object still prints "{}".
void PrintJson(const Json& j) { std::cout << RenderJsonDocument(j) << std::flush; }

const char* ErrorCode(const Status& s) {
  switch (s.code()) {
    case Status::Code::kAlreadyExists: return "AlreadyExistsException";
    case Status::Code::kInsufficientCapabilities: return "InsufficientCapabilitiesException";
    case Status::Code::kInternal: return "InternalFailure";
    case Status::Code::kChangeSetNotFound: return "ChangeSetNotFound";
    case Status::Code::kInvalidChangeSetStatus: return "InvalidChangeSetStatus";
    case Status::Code::kInvalidRegion: return kInvalidRegionCode;
    case Status::Code::kStackSetNotFound: return "StackSetNotFoundException";
    case Status::Code::kStackInstanceNotFound: return "StackInstanceNotFoundException";
    case Status::Code::kOperationNotFound: return "OperationNotFoundException";
    case Status::Code::kOperationInProgress: return "OperationInProgressException";
    case Status::Code::kOperationIdAlreadyExists: return "OperationIdAlreadyExistsException";
    case Status::Code::kNameAlreadyExists: return "NameAlreadyExistsException";
    case Status::Code::kStackSetNotEmpty: return "StackSetNotEmptyException";
    case Status::Code::kInvalidOperation: return "InvalidOperationException";
    case Status::Code::kStackNotFound: return "StackNotFoundException";
    case Status::Code::kLimitExceeded: return "LimitExceededException";
    default: return "ValidationError";
  }
}

int ReportError(const std::string& operation, const Status& s) {
  return ReportAwsError(operation, ErrorCode(s), s.message());
}

int ReportAwsError(const std::string& operation, const std::string& code, const std::string& message) {
  std::cerr << "\nAn error occurred (" << code << ") when calling the " << operation
            << " operation: " << message << std::endl;
  return 255;
}

std::string StatePath(const std::string& arg) {
  if (!arg.empty()) return arg;
  const char* env = std::getenv("MOONSTACK_STATE");
  return env != nullptr && *env != '\0' ? env : ".moonstack/state.db";
}

}  // namespace ms::cli
