// Copyright RingKernel authors.
// A plain `char` field is a signed 8-bit int on the wire wherever char is unsigned too (AArch64 -
// Grace Hopper hosts - and -funsigned-char): the same bytes and the same accepted range as on
// x86-64, so hosts of either kind read each other's messages. Compiled into the codec tests and,
// with -funsigned-char, into codec_unsigned_char_tests.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>

#include "codec_test_support.h"

namespace codec_test {
namespace {

using ringkernel::codec_status;

// Scalars{} encodes as: array16 of 16 (dc 00 10), flag false (c2), then letter at offset 4 as 00.
constexpr std::size_t letter_offset = 4;

bytes scalars_with_letter(const bytes& letter) {
  bytes b = encode_to_vector(Scalars{});
  b.erase(b.begin() + letter_offset);
  b.insert(b.begin() + letter_offset, letter.begin(), letter.end());
  return b;
}

TEST(CharFields, TheZeroMessageHasTheLayoutTheseTestsAssume) {
  const bytes b = encode_to_vector(Scalars{});
  ASSERT_GT(b.size(), letter_offset);
  EXPECT_EQ(hex(bytes(b.begin(), b.begin() + letter_offset + 1)), hex({0xdc, 0x00, 0x10, 0xc2, 0x00}));
}

TEST(CharFields, EncodeAsSignedBytesWhateverTheSignednessOfChar) {
  const struct {
    unsigned char byte;
    bytes wire;
  } cases[] = {{0x00, {0x00}}, {0x52, {0x52}}, {0x7f, {0x7f}}, {0x80, {0xd0, 0x80}},
               {0xdf, {0xd0, 0xdf}}, {0xe0, {0xe0}}, {0xe9, {0xe9}}, {0xff, {0xff}}};
  for (const auto& c : cases) {
    Scalars m{};
    m.letter = static_cast<char>(c.byte);
    EXPECT_EQ(hex(encode_to_vector(m)), hex(scalars_with_letter(c.wire))) << "char 0x" << std::hex << int{c.byte};
  }
}

TEST(CharFields, DecodeTheSignedRangeOnly) {
  const struct {
    bytes wire;
    codec_status status;
    unsigned char byte;
  } cases[] = {
      {{0x7f}, codec_status::ok, 0x7f},                    // positive fixint 127
      {{0xcc, 0x7f}, codec_status::ok, 0x7f},              // uint 8 127
      {{0xe9}, codec_status::ok, 0xe9},                    // negative fixint -23
      {{0xd0, 0x80}, codec_status::ok, 0x80},              // int 8 -128
      {{0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80}, codec_status::ok, 0x80},  // int 64 -128
      {{0xcc, 0x80}, codec_status::value_out_of_range, 0},  // 128: an unsigned char's value, not a char's
      {{0xcc, 0xe9}, codec_status::value_out_of_range, 0},  // 233
      {{0xd1, 0xff, 0x7f}, codec_status::value_out_of_range, 0},  // -129
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(hex(c.wire));
    Scalars out{};
    out.letter = 'x';
    const bytes in = scalars_with_letter(c.wire);
    const ringkernel::codec_result r = ringkernel::decode(in.data(), in.size(), out);
    ASSERT_EQ(r.status, c.status);
    if (c.status == codec_status::ok) {
      EXPECT_EQ(static_cast<unsigned char>(out.letter), c.byte);
    } else {
      EXPECT_EQ(r.size, letter_offset) << "the error is at the letter";
      EXPECT_EQ(out.letter, 'x') << "written on failure";
    }
  }
}

TEST(CharFields, EveryCharRoundTrips) {
  for (int byte = 0; byte <= UCHAR_MAX; ++byte) {
    Scalars m{};
    m.letter = static_cast<char>(byte);
    const bytes b = encode_to_vector(m);
    Scalars back{};
    ASSERT_EQ(ringkernel::decode(b.data(), b.size(), back).status, codec_status::ok) << byte;
    EXPECT_EQ(back.letter, m.letter) << byte;
  }
}

}  // namespace
}  // namespace codec_test
