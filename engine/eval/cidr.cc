#include "eval/cidr.h"

#include <charconv>

namespace ms {
namespace {

// 128-bit arithmetic covers both families; IPv4 uses the low 32 bits.
using U128 = unsigned __int128;

struct Block {
  bool v6 = false;
  U128 address = 0;
  int prefix = 0;
  int bits() const { return v6 ? 128 : 32; }
};

bool ParseDecimal(std::string_view s, int max, int* out) {
  if (s.empty() || s.size() > 3) return false;
  int n = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), n);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size() || n < 0 || n > max) return false;
  *out = n;
  return true;
}

bool ParseIpv4(std::string_view s, uint32_t* out) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    size_t dot = s.find('.');
    std::string_view part = i < 3 ? s.substr(0, dot) : s;
    if (i < 3 && dot == std::string_view::npos) return false;
    int octet = 0;
    if (!ParseDecimal(part, 255, &octet)) return false;
    v = (v << 8) | static_cast<uint32_t>(octet);
    if (i < 3) s.remove_prefix(dot + 1);
  }
  *out = v;
  return true;
}

bool ParseHexGroup(std::string_view s, uint32_t* out) {
  if (s.empty() || s.size() > 4) return false;
  uint32_t v = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return false;
  *out = v;
  return true;
}

// Parses the groups on one side of "::" (possibly empty); a trailing dotted
// IPv4 address counts as two groups.
bool ParseGroups(std::string_view s, bool allow_v4_tail, std::vector<uint32_t>* groups) {
  if (s.empty()) return true;
  while (true) {
    size_t colon = s.find(':');
    std::string_view part = s.substr(0, colon);
    if (colon == std::string_view::npos && allow_v4_tail && part.find('.') != std::string_view::npos) {
      uint32_t v4 = 0;
      if (!ParseIpv4(part, &v4)) return false;
      groups->push_back(v4 >> 16);
      groups->push_back(v4 & 0xffff);
      return true;
    }
    uint32_t g = 0;
    if (!ParseHexGroup(part, &g)) return false;
    groups->push_back(g);
    if (colon == std::string_view::npos) return true;
    s.remove_prefix(colon + 1);
  }
}

bool ParseIpv6(std::string_view s, U128* out) {
  std::vector<uint32_t> head, tail;
  size_t gap = s.find("::");
  if (gap != std::string_view::npos) {
    if (s.find("::", gap + 1) != std::string_view::npos) return false;
    if (!ParseGroups(s.substr(0, gap), false, &head)) return false;
    if (!ParseGroups(s.substr(gap + 2), true, &tail)) return false;
    if (head.size() + tail.size() > 7) return false;
  } else {
    if (!ParseGroups(s, true, &head)) return false;
    if (head.size() != 8) return false;
  }
  U128 v = 0;
  for (uint32_t g : head) v = (v << 16) | g;
  for (size_t i = head.size() + tail.size(); i < 8; ++i) v <<= 16;
  for (uint32_t g : tail) v = (v << 16) | g;
  *out = v;
  return true;
}

bool ParseBlock(std::string_view s, Block* b) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view addr = s.substr(0, slash);
  b->v6 = addr.find(':') != std::string_view::npos;
  if (!ParseDecimal(s.substr(slash + 1), b->bits(), &b->prefix)) return false;
  if (b->v6) return ParseIpv6(addr, &b->address);
  uint32_t v4 = 0;
  if (!ParseIpv4(addr, &v4)) return false;
  b->address = v4;
  return true;
}

// The mask keeping the first `prefix` bits of a `bits`-bit address.
U128 NetworkMask(int prefix, int bits) {
  if (prefix == 0) return 0;
  U128 all = bits == 128 ? ~U128(0) : ((U128(1) << bits) - 1);
  U128 host = prefix == bits ? 0 : ((U128(1) << (bits - prefix)) - 1);
  return all & ~host;
}

std::string FormatIpv4(uint32_t v) {
  return std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 0xff) + "." +
         std::to_string((v >> 8) & 0xff) + "." + std::to_string(v & 0xff);
}

// RFC 5952: lowercase, no leading zeros, the longest run (>= 2) of zero
// groups, the first on a tie, becomes "::".
std::string FormatIpv6(U128 v) {
  uint32_t g[8];
  for (int i = 7; i >= 0; --i) {
    g[i] = static_cast<uint32_t>(v & 0xffff);
    v >>= 16;
  }
  int best = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    if (g[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && g[j] == 0) ++j;
    if (j - i > best_len && j - i >= 2) {
      best = i;
      best_len = j - i;
    }
    i = j;
  }
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    char buf[5];
    int n = 0;
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      uint32_t nib = (g[i] >> shift) & 0xf;
      if (nib == 0 && !started && shift != 0) continue;
      started = true;
      buf[n++] = kHex[nib];
    }
    out.append(buf, n);
  }
  return out;
}

}  // namespace

Status CidrSubnets(std::string_view ip_block, int64_t count, int64_t cidr_bits,
                   std::vector<std::string>* out) {
  out->clear();
  Block b;
  if (!ParseBlock(ip_block, &b)) {
    return Status::Validation("Template error: Fn::Cidr ipBlock " + std::string(ip_block) +
                              " is not a valid CIDR block");
  }
  if (count < 1 || count > 256) {
    return Status::Validation("Template error: Fn::Cidr count must be between 1 and 256");
  }
  if (cidr_bits < 1 || cidr_bits > b.bits()) {
    return Status::Validation("Template error: Fn::Cidr cidrBits must be between 1 and " +
                              std::to_string(b.bits()) + " for " + std::string(ip_block));
  }
  int subnet_prefix = b.bits() - static_cast<int>(cidr_bits);
  int spare = subnet_prefix - b.prefix;  // bits that number the subnets
  // More than 8 spare bits always holds 256 subnets; avoid wide shifts.
  if (spare < 0 || (spare < 9 && count > (int64_t(1) << spare))) {
    return Status::Validation("Template error: Fn::Cidr cannot fit " + std::to_string(count) +
                              " subnets with " + std::to_string(cidr_bits) + " cidrBits in " +
                              std::string(ip_block));
  }
  U128 base = b.address & NetworkMask(b.prefix, b.bits());
  std::string suffix = "/" + std::to_string(subnet_prefix);
  out->reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    // cidr_bits == 128 leaves room for one subnet only, so i == 0 there.
    U128 offset = i == 0 ? 0 : (U128(static_cast<uint64_t>(i)) << cidr_bits);
    U128 addr = base + offset;
    out->push_back((b.v6 ? FormatIpv6(addr) : FormatIpv4(static_cast<uint32_t>(addr))) + suffix);
  }
  return Status::OK();
}

}  // namespace ms
