// BlockFeeder: what MD5 and SHA-256 (md5.h, sha256.h) share — bytes cut
// into the 64-byte blocks their compression functions take, what is left
// held until more come, and the closing padding: 0x80, zeros, then the
// message's length in bits in 8 bytes (little-endian for MD5, big-endian
// for SHA-256).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace ms {

class BlockFeeder {
 public:
  // Calls block(p) for each whole 64-byte block `bytes` completes.
  template <class Block>
  void Feed(std::string_view bytes, Block&& block) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    size_t n = bytes.size();
    length_ += n;
    if (buffered_ > 0) {
      const size_t take = std::min(n, sizeof buffer_ - buffered_);
      std::memcpy(buffer_ + buffered_, p, take);
      buffered_ += take, p += take, n -= take;
      if (buffered_ < sizeof buffer_) return;
      block(buffer_);
      buffered_ = 0;
    }
    for (; n >= 64; p += 64, n -= 64) block(p);
    std::memcpy(buffer_, p, n);
    buffered_ = n;
  }

  // Feeds the padding and the length; the feeder is spent afterwards.
  template <class Block>
  void Finish(bool big_endian_length, Block&& block) {
    const uint64_t bits = length_ * 8;
    static const uint8_t kPad[64] = {0x80};
    Feed(std::string_view(reinterpret_cast<const char*>(kPad), 1 + (119 - length_ % 64) % 64), block);
    uint8_t tail[8];
    for (int i = 0; i < 8; ++i) tail[i] = static_cast<uint8_t>(bits >> (8 * (big_endian_length ? 7 - i : i)));
    Feed(std::string_view(reinterpret_cast<const char*>(tail), 8), block);
  }

 private:
  uint64_t length_ = 0;  // bytes fed so far
  uint8_t buffer_[64];
  size_t buffered_ = 0;  // bytes of buffer_ waiting for a whole block
};

}  // namespace ms
