// Md5: RFC 1321's digest, fed in pieces. S3's ETags are MD5s (a single
// PUT's: of its bytes; a multipart upload's: of its parts' digests), and a
// body streamed to the store (store/blob_store.h) is digested as it arrives.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/block_feeder.h"

namespace ms {

class Md5 {
 public:
  Md5();
  void Update(std::string_view bytes);
  // The 16-byte digest; the object is spent afterwards.
  std::array<uint8_t, 16> Final();
  // Final() as 32 lowercase hex digits.
  std::string FinalHex();

 private:
  void Block(const uint8_t* p);
  uint32_t a_, b_, c_, d_;
  BlockFeeder feeder_;
};

// The hex MD5 of `bytes` in one call.
std::string Md5Hex(std::string_view bytes);

}  // namespace ms
