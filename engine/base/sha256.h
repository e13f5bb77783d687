// Sha256: FIPS 180-4's SHA-256, fed in pieces. Lambda names a function's
// code by it (CodeSha256: the base64 of the package's digest), which tools
// compare with the digest of the zip they hold to tell whether to deploy.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/block_feeder.h"

namespace ms {

class Sha256 {
 public:
  Sha256();
  void Update(std::string_view bytes);
  // The 32-byte digest; the object is spent afterwards.
  std::array<uint8_t, 32> Final();

 private:
  void Block(const uint8_t* p);
  uint32_t h_[8];
  BlockFeeder feeder_;
};

// The 32 raw bytes of the SHA-256 of `bytes` in one call.
std::string Sha256Digest(std::string_view bytes);

}  // namespace ms
