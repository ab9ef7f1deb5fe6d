// Copyright RingKernel authors.
// The extent of one MessagePack item at a position: what msgpack_reader::skip_value steps over.
// A pure function of (position, end): no reader's address reaches it. It is not forced inline (cold
// and long; clang calls it out of line, device code from skip_value, which is __noinline__ there);
// as a member function taking the reader's `this` it kept every decoder that skip_value is inlined
// into from holding the reader in registers under clang (the position stored after every field: 14
// more instructions per decode of a 128-byte message; bench/RESULTS.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/status.h"

namespace ringkernel::detail {

/// One item: a scalar, str, bin or ext completely, or an array/map header (`container`; `children`:
/// its elements, keys and values counted apart). `size`: the item's bytes (header and payload,
/// children excluded), all inside the input when `status` is ok.
struct msgpack_item {
  codec_status status;
  bool container;
  std::uint64_t size;
  std::uint64_t children;
};

/// The item at `p` (`p <= end`). Fails with truncated_input when it does not end by `end`, with
/// invalid_input for the never-used byte 0xc1.
RINGKERNEL_HOST_DEVICE inline msgpack_item scan_msgpack_item(const std::uint8_t* p, const std::uint8_t* end) noexcept {
  constexpr msgpack_item truncated{codec_status::truncated_input, false, 0, 0};
  const auto has = [p, end](std::size_t n) { return static_cast<std::size_t>(end - p) >= n; };
  if (p == end) return truncated;
  const std::uint8_t t = *p;
  // Its shape sets how g++ 12 allocates registers in the decoders it is inlined into: one return
  // for every item that scans, and the bytes left taken at each check, measured fastest (the same
  // logic with early returns, or with the bytes left computed once, decoded a 64-byte message 10%
  // slower; bench/RESULTS.md).
  std::uint64_t size = 0;
  bool container = false;
  std::uint64_t children = 0;
  if (t <= tag::positive_fixint_max || t >= tag::negative_fixint_min || t == tag::nil ||
      t == tag::false_ || t == tag::true_) {
    size = 1;
  } else if (t >= tag::fixmap && t < tag::fixmap + 16) {
    size = 1;
    container = true;
    children = 2u * (t & 0x0fu);
  } else if (t >= tag::fixarray && t < tag::fixarray + 16) {
    size = 1;
    container = true;
    children = t & 0x0fu;
  } else if (t >= tag::fixstr && t < tag::fixstr + 32) {
    size = 1u + (t & 0x1fu);
  } else {
    switch (t) {
      case tag::never_used: return {codec_status::invalid_input, false, 0, 0};
      case tag::float32: size = 5; break;
      case tag::float64: size = 9; break;
      case tag::uint8: case tag::int8: size = 2; break;
      case tag::uint16: case tag::int16: size = 3; break;
      case tag::uint32: case tag::int32: size = 5; break;
      case tag::uint64: case tag::int64: size = 9; break;
      case tag::fixext1: size = 3; break;
      case tag::fixext1 + 1: size = 4; break;
      case tag::fixext1 + 2: size = 6; break;
      case tag::fixext1 + 3: size = 10; break;
      case tag::fixext16: size = 18; break;
      case tag::bin8: case tag::str8:
        if (!has(2)) return truncated;
        size = 2u + p[1];
        break;
      case tag::bin16: case tag::str16:
        if (!has(3)) return truncated;
        size = 3u + load_be16(p + 1);
        break;
      case tag::bin32: case tag::str32:
        if (!has(5)) return truncated;
        size = 5u + std::uint64_t{load_be32(p + 1)};
        break;
      case tag::ext8:
        if (!has(2)) return truncated;
        size = 3u + p[1];
        break;
      case tag::ext16:
        if (!has(3)) return truncated;
        size = 4u + load_be16(p + 1);
        break;
      case tag::ext32:
        if (!has(5)) return truncated;
        size = 6u + std::uint64_t{load_be32(p + 1)};
        break;
      case tag::array16: case tag::map16:
        if (!has(3)) return truncated;
        size = 3;
        container = true;
        children = std::uint64_t{load_be16(p + 1)} * (t == tag::map16 ? 2u : 1u);
        break;
      case tag::array32: case tag::map32:
        if (!has(5)) return truncated;
        size = 5;
        container = true;
        children = std::uint64_t{load_be32(p + 1)} * (t == tag::map32 ? 2u : 1u);
        break;
      default: return {codec_status::invalid_input, false, 0, 0};  // unreachable: every byte is covered above
    }
  }
  if (size > static_cast<std::uint64_t>(end - p)) return truncated;
  return {codec_status::ok, container, size, children};
}

}  // namespace ringkernel::detail
