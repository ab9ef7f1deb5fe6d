// Copyright RingKernel authors.
// corpus::UnicodeChars (layouts/scalars.h) has the same field types and the same MessagePack bytes
// whether it comes from the original header with its .rk.h or from the standalone .rk.cuh: the bytes
// docs/wire-format.md section 3 gives (char8_t/char16_t/char32_t are ints, their arrays arrays of
// ints, as Python's msgpack packs a list of ints). Included by the .rk.h and the .rk.cuh test.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "ringkernel/codec.h"

namespace layout_checks {

inline void checkUnicodeChars() {
  using corpus::UnicodeChars;
  static_assert(std::is_same_v<decltype(UnicodeChars::u8), char8_t[3]>);
  static_assert(std::is_same_v<decltype(UnicodeChars::one), char8_t>);
  static_assert(std::is_same_v<decltype(UnicodeChars::u16), char16_t[2]>);
  static_assert(std::is_same_v<decltype(UnicodeChars::u32), char32_t>);
  UnicodeChars value{};
  value.u8[0] = 1;
  value.u8[1] = 2;
  value.u8[2] = 0xff;
  value.one = 0x80;
  value.u16[0] = 0x100;
  value.u16[1] = 7;
  value.u32 = 0x10000;
  const std::vector<std::uint8_t> expected = {
      0x94,                                // the message: an array of 4 fields
      0x93, 0x01, 0x02, 0xcc, 0xff,        // u8: an array of 3 ints (not bin c4 03 ...)
      0xcc, 0x80,                          // one
      0x92, 0xcd, 0x01, 0x00, 0x07,        // u16
      0xce, 0x00, 0x01, 0x00, 0x00};       // u32
  std::uint8_t out[ringkernel::max_encoded_size<UnicodeChars>] = {};
  const ringkernel::codec_result encoded = ringkernel::encode(value, out, sizeof out);
  ASSERT_EQ(encoded.status, ringkernel::codec_status::ok);
  EXPECT_EQ(std::vector<std::uint8_t>(out, out + encoded.size), expected);
  UnicodeChars back{};
  const ringkernel::codec_result decoded = ringkernel::decode(expected.data(), expected.size(), back);
  ASSERT_EQ(decoded.status, ringkernel::codec_status::ok);
  EXPECT_EQ(decoded.size, expected.size());
  EXPECT_EQ(back.u8[2], value.u8[2]);
  EXPECT_EQ(back.one, value.one);
  EXPECT_EQ(back.u16[0], value.u16[0]);
  EXPECT_EQ(back.u32, value.u32);
}

}  // namespace layout_checks
