#include "records/stack_scope.h"

namespace ms {

bool ScopeOfArn(std::string_view arn, StackScope* out) {
  // arn : partition : cloudformation : region : account : rest
  std::string_view fields[5];
  size_t from = 0;
  for (std::string_view& f : fields) {
    const size_t colon = arn.find(':', from);
    if (colon == std::string_view::npos) return false;
    f = arn.substr(from, colon - from);
    from = colon + 1;
  }
  if (fields[0] != "arn" || fields[2] != "cloudformation" || fields[3].empty() || fields[4].empty()) return false;
  out->region = std::string(fields[3]);
  out->account = std::string(fields[4]);
  return true;
}

}  // namespace ms
