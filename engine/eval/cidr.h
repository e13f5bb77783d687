// Fn::Cidr: splitting an IPv4 or IPv6 block into equal subnets.
//
// CidrSubnets("192.168.0.0/24", 6, 5) gives the first six /27 blocks of the
// /24: cidr_bits are the subnet's host bits, so the subnet prefix is 32 (or
// 128) minus cidr_bits. Host bits set in the block ("10.0.0.5/24") are
// ignored. IPv6 results use the RFC 5952 text form ("2001:db8::/64").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace ms {

// Fails (Status::Validation) on a malformed block, a count outside 1..256,
// cidr_bits outside 1..128 or beyond the address size, or when `count`
// subnets do not fit in the block.
Status CidrSubnets(std::string_view ip_block, int64_t count, int64_t cidr_bits,
                   std::vector<std::string>* out);

}  // namespace ms
