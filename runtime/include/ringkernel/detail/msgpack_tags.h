// Copyright RingKernel authors.
// MessagePack format bytes (https://github.com/msgpack/msgpack/blob/master/spec.md) and the sizes of
// the canonical headers the writer chooses. Shared by writer, reader and size computation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"

namespace ringkernel::detail::tag {

inline constexpr std::uint8_t positive_fixint_max = 0x7f;
inline constexpr std::uint8_t fixmap = 0x80;         // 0x80..0x8f
inline constexpr std::uint8_t fixarray = 0x90;       // 0x90..0x9f
inline constexpr std::uint8_t fixstr = 0xa0;         // 0xa0..0xbf
inline constexpr std::uint8_t nil = 0xc0;
inline constexpr std::uint8_t never_used = 0xc1;
inline constexpr std::uint8_t false_ = 0xc2;
inline constexpr std::uint8_t true_ = 0xc3;
inline constexpr std::uint8_t bin8 = 0xc4;
inline constexpr std::uint8_t bin16 = 0xc5;
inline constexpr std::uint8_t bin32 = 0xc6;
inline constexpr std::uint8_t ext8 = 0xc7;
inline constexpr std::uint8_t ext16 = 0xc8;
inline constexpr std::uint8_t ext32 = 0xc9;
inline constexpr std::uint8_t float32 = 0xca;
inline constexpr std::uint8_t float64 = 0xcb;
inline constexpr std::uint8_t uint8 = 0xcc;
inline constexpr std::uint8_t uint16 = 0xcd;
inline constexpr std::uint8_t uint32 = 0xce;
inline constexpr std::uint8_t uint64 = 0xcf;
inline constexpr std::uint8_t int8 = 0xd0;
inline constexpr std::uint8_t int16 = 0xd1;
inline constexpr std::uint8_t int32 = 0xd2;
inline constexpr std::uint8_t int64 = 0xd3;
inline constexpr std::uint8_t fixext1 = 0xd4;        // 0xd4..0xd8: fixext 1, 2, 4, 8, 16
inline constexpr std::uint8_t fixext16 = 0xd8;
inline constexpr std::uint8_t str8 = 0xd9;
inline constexpr std::uint8_t str16 = 0xda;
inline constexpr std::uint8_t str32 = 0xdb;
inline constexpr std::uint8_t array16 = 0xdc;
inline constexpr std::uint8_t array32 = 0xdd;
inline constexpr std::uint8_t map16 = 0xde;
inline constexpr std::uint8_t map32 = 0xdf;
inline constexpr std::uint8_t negative_fixint_min = 0xe0;  // 0xe0..0xff: -32..-1

}  // namespace ringkernel::detail::tag

namespace ringkernel::detail {

/// Bytes of the canonical header for a str of `length` bytes (fixstr, str8, str16, str32).
RINGKERNEL_HOST_DEVICE constexpr std::size_t str_header_size(std::size_t length) noexcept {
  return length < 32 ? 1 : length < 256 ? 2 : length < 65536 ? 3 : 5;
}

/// Bytes of the canonical header for a bin of `length` bytes (bin8, bin16, bin32).
RINGKERNEL_HOST_DEVICE constexpr std::size_t bin_header_size(std::size_t length) noexcept {
  return length < 256 ? 2 : length < 65536 ? 3 : 5;
}

/// Bytes of the canonical header for an array or map of `count` entries.
RINGKERNEL_HOST_DEVICE constexpr std::size_t container_header_size(std::size_t count) noexcept {
  return count < 16 ? 1 : count < 65536 ? 3 : 5;
}

}  // namespace ringkernel::detail
