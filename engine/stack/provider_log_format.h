// How a provider log line reads in `moonstack logs`, deploy's -v and serve's log.
#pragma once

#include <string>

#include "records/provider_log.h"

namespace ms {

// The line as `moonstack logs`, deploy's -v and serve's log print it:
// "<timestamp> <stack> <logical ID> <hook> <LEVEL> <message>" (a line about
// the operation has "-" for the logical ID and hook); with_detail adds a
// runtime error's traceback on the lines below it.
std::string FormatProviderLogLine(const ProviderLogRecord& line, bool with_detail);

}  // namespace ms
