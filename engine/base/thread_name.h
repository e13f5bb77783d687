// Names the calling thread (as `top -H`, perf and gdb show it): at most 15
// characters on Linux, longer names are cut.
#pragma once

#include <pthread.h>

#include <string>

namespace ms {

inline void NameThisThread(const std::string& name) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
}

}  // namespace ms
