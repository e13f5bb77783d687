// The text of a file engine/catalog/embed.cmake embedded as chunks (raw
// string literals of at most 16000 bytes each), joined back into one string.
#pragma once

#include <cstddef>
#include <string>

namespace ms {

inline std::string JoinEmbeddedChunks(const char* const* chunks, const size_t* sizes, size_t count) {
  size_t total = 0;
  for (size_t i = 0; i < count; ++i) total += sizes[i];
  std::string text;
  text.reserve(total);
  for (size_t i = 0; i < count; ++i) text.append(chunks[i], sizes[i]);
  return text;
}

}  // namespace ms
