// Copyright RingKernel authors.
// What the decoder accepts (every valid encoding of an in-range value, forward-compatible extras)
// and every error status with a crafted input, the offset it reports, and that the target message
// is written only on success.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>

#include "codec_test_support.h"
#include "reference/wire_forms.h"

namespace codec_test {
namespace {

using ringkernel::codec_status;

using codec_variants::cat;
using codec_variants::str;
const bytes float32_half = {0xca, 0x3f, 0x00, 0x00, 0x00};  // 0.5f

template <class T>
T sentinel() {
  T m{};
  std::memset(static_cast<void*>(&m), 0x5a, sizeof m);
  return m;
}

template <class T>
ringkernel::codec_result decode_expecting_untouched(const bytes& wire, codec_status expected_status) {
  T m = sentinel<T>();
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), m);
  EXPECT_EQ(r.status, expected_status) << ringkernel::to_string(r.status) << " for " << hex(wire);
  const T untouched = sentinel<T>();
  EXPECT_EQ(std::memcmp(&m, &untouched, sizeof m), 0) << "decode wrote the message on failure";
  return r;
}

template <class T>
T decode_ok(const bytes& wire) {
  T m{};
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), m);
  EXPECT_EQ(r.status, codec_status::ok) << ringkernel::to_string(r.status) << " at " << r.size << " in " << hex(wire);
  EXPECT_EQ(r.size, wire.size());
  return m;
}

// ---- accepted encodings ---------------------------------------------------------------------------

TEST(DecodeAccepts, AnyIntegerWidthThatFits) {
  const bytes encodings_of_5[] = {{0x05}, {0xcc, 5}, {0xcd, 0, 5}, {0xce, 0, 0, 0, 5}, {0xcf, 0, 0, 0, 0, 0, 0, 0, 5},
                                  {0xd0, 5}, {0xd1, 0, 5}, {0xd2, 0, 0, 0, 5}, {0xd3, 0, 0, 0, 0, 0, 0, 0, 5}};
  for (const bytes& five : encodings_of_5) {
    const Point p = decode_ok<Point>(cat({{0x92}, five, float32_half}));
    EXPECT_EQ(p.x, 5) << hex(five);
    const Tag t = decode_ok<Tag>(cat({{0x82}, str("id"), five, str("label"), str("ab")}));  // uint16 field
    EXPECT_EQ(t.id, 5) << hex(five);
  }
  const Point negative = decode_ok<Point>(cat({{0x92, 0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}, float32_half}));
  EXPECT_EQ(negative.x, -2);
}

TEST(DecodeAccepts, FloatingPointFromEitherWidthAndExactIntegers) {
  // float field from float64 (rounded to nearest float) and from an exact integer.
  Point p = decode_ok<Point>({0x92, 0x01, 0xcb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a});  // 0.1
  EXPECT_EQ(p.y, 0.1f);
  p = decode_ok<Point>({0x92, 0x01, 0xce, 0x01, 0x00, 0x00, 0x00});  // 2^24 fits exactly
  EXPECT_EQ(p.y, 16777216.0f);
  p = decode_ok<Point>({0x92, 0x01, 0xcb, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0});  // +inf
  EXPECT_EQ(p.y, std::numeric_limits<float>::infinity());
  // double field (Scalars::f64) from float32 (exact) and from a negative integer. All other fields 0:
  // array16 of 16, false, nine integer zeros, f32 = 0.0f, f64 = <value>, four integer zeros.
  const bytes before_f64 = {0xdc, 0x00, 0x10, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xca, 0, 0, 0, 0};
  const bytes after_f64 = {0, 0, 0, 0};
  EXPECT_EQ(decode_ok<Scalars>(cat({before_f64, float32_half, after_f64})).f64, 0.5);
  EXPECT_EQ(decode_ok<Scalars>(cat({before_f64, {0xd0, 0x9c}, after_f64})).f64, -100.0);
  EXPECT_EQ(hex(cat({before_f64, {0xcb, 0, 0, 0, 0, 0, 0, 0, 0}, after_f64})), hex(encode_to_vector(Scalars{})));
}

TEST(DecodeAccepts, EveryStrArrayAndMapHeaderWidth) {
  const bytes label_forms[] = {{0xa2, 'h', 'i'}, {0xd9, 2, 'h', 'i'}, {0xda, 0, 2, 'h', 'i'}, {0xdb, 0, 0, 0, 2, 'h', 'i'}};
  const bytes map_forms[] = {{0x82}, {0xde, 0, 2}, {0xdf, 0, 0, 0, 2}};
  for (const bytes& header : map_forms) {
    for (const bytes& label : label_forms) {
      const Tag t = decode_ok<Tag>(cat({header, str("id"), {0x07}, str("label"), label}));
      EXPECT_EQ(std::string(t.label, 2), "hi");
      EXPECT_EQ(t.label[2], '\0');  // shorter than char[4]: zero-filled
      EXPECT_EQ(t.label[3], '\0');
    }
  }
  const bytes array_forms[] = {{0x92}, {0xdc, 0, 2}, {0xdd, 0, 0, 0, 2}};
  for (const bytes& header : array_forms) {
    EXPECT_EQ(decode_ok<Point>(cat({header, {0x09}, float32_half})).x, 9);
  }
}

TEST(DecodeAccepts, ForwardCompatibleExtrasAreSkipped) {
  // Extra trailing array elements of any type (ext, nested map, bin, nil) are skipped.
  const bytes extras = {0xd4, 0x01, 0xaa, 0x81, 0xa1, 'k', 0x93, 0xc0, 0xc4, 0x01, 0x00, 0xc3, 0xc0};
  const Point p = decode_ok<Point>(cat({{0x95, 0x03}, float32_half, extras}));
  EXPECT_EQ(p.x, 3);
  // Unknown map keys, anywhere, with any value, are skipped.
  const Tag t = decode_ok<Tag>(cat({{0x84}, str("new"), {0x92, 0x01, 0xc0}, str("label"), str("z"), str("ids"),
                                     {0xcb, 0, 0, 0, 0, 0, 0, 0, 0}, str("id"), {0x2a}}));
  EXPECT_EQ(t.id, 42);
  EXPECT_EQ(t.label[0], 'z');
}

// Every MessagePack encoding a newer sender may put in a field this decoder does not know, each
// skipped by its exact size: an unknown key before the known ones (a wrong size would misread
// them), and as a trailing array element, where every shorter prefix of it is truncated input.
const bytes every_skippable_encoding[] = {
    {0xca, 0x3f, 0x80, 0, 0},                                // float32
    {0xcc, 0xff}, {0xd0, 0x80},                              // uint8, int8
    {0xcd, 0x12, 0x34}, {0xd1, 0x80, 0},                     // uint16, int16
    {0xce, 1, 2, 3, 4}, {0xd2, 0x80, 0, 0, 0},               // uint32, int32
    {0xcf, 1, 2, 3, 4, 5, 6, 7, 8}, {0xd3, 0x80, 0, 0, 0, 0, 0, 0, 1},  // uint64, int64
    {0xd4, 1, 0xaa}, {0xd5, 1, 0xaa, 0xbb}, {0xd6, 1, 1, 2, 3, 4},       // fixext 1, 2, 4
    {0xd7, 1, 1, 2, 3, 4, 5, 6, 7, 8},                                     // fixext 8
    {0xd8, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},     // fixext 16
    {0xc5, 0, 3, 0xc1, 0xc1, 0xc1}, {0xda, 0, 3, 'a', 'b', 'c'},         // bin16, str16
    {0xc6, 0, 0, 0, 2, 0xc1, 0xc1}, {0xdb, 0, 0, 0, 2, 'a', 'b'},        // bin32, str32
    {0xc7, 2, 1, 0xc1, 0xc1}, {0xc8, 0, 2, 1, 0xc1, 0xc1},                // ext8, ext16
    {0xc9, 0, 0, 0, 2, 1, 0xc1, 0xc1},                                     // ext32
    {0xdc, 0, 2, 0x01, 0xcc, 0x02}, {0xde, 0, 1, 0xa1, 'k', 0x05},       // array16, map16
    {0xdd, 0, 0, 0, 1, 0xc0}, {0xdf, 0, 0, 0, 1, 0x01, 0xd9, 1, 'v'},    // array32, map32
};

TEST(DecodeAccepts, UnknownValuesOfEveryEncodingAreSkippedExactly) {
  for (const bytes& extra : every_skippable_encoding) {
    const Tag t = decode_ok<Tag>(cat({{0x83}, str("new"), extra, str("id"), {0x2a}, str("label"), str("z")}));
    EXPECT_EQ(t.id, 42) << hex(extra);
    EXPECT_EQ(t.label[0], 'z') << hex(extra);
    EXPECT_EQ(decode_ok<Point>(cat({{0x94, 0x03}, float32_half, extra, {0x07}})).x, 3) << hex(extra);
    for (std::size_t n = 0; n < extra.size(); ++n) {
      const bytes prefix(extra.begin(), extra.begin() + static_cast<long>(n));
      SCOPED_TRACE("prefix " + hex(prefix) + " of " + hex(extra));
      decode_expecting_untouched<Point>(cat({{0x93, 0x03}, float32_half, prefix}), codec_status::truncated_input);
    }
  }
}

TEST(DecodeAccepts, SixtyFourBitIntegersIntoFloatingPointOnlyWhenExact) {
  // Scalars: array16 of 16, false, nine integer zeros, f32, f64, four integer zeros.
  const bytes before_f64 = {0xdc, 0x00, 0x10, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xca, 0, 0, 0, 0};
  const bytes after_f64 = {0, 0, 0, 0};
  const bytes two_pow_53 = {0xcf, 0, 0x20, 0, 0, 0, 0, 0, 0};
  const bytes minus_two_pow_53 = {0xd3, 0xff, 0xe0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(decode_ok<Scalars>(cat({before_f64, two_pow_53, after_f64})).f64, 9007199254740992.0);
  EXPECT_EQ(decode_ok<Scalars>(cat({before_f64, minus_two_pow_53, after_f64})).f64, -9007199254740992.0);
  decode_expecting_untouched<Scalars>(cat({before_f64, {0xcf, 0, 0x20, 0, 0, 0, 0, 0, 1}, after_f64}),
                                      codec_status::value_out_of_range);  // 2^53 + 1: no exact double
  decode_expecting_untouched<Scalars>(cat({before_f64, {0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, after_f64}),
                                      codec_status::value_out_of_range);  // 2^64 - 1 rounds to 2^64
  decode_expecting_untouched<Scalars>(cat({before_f64, {0xd3, 0xff, 0xdf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, after_f64}),
                                      codec_status::value_out_of_range);  // -(2^53 + 1)
  EXPECT_EQ(decode_ok<Point>({0x92, 0x01, 0xcf, 0, 0, 0, 0, 0x01, 0, 0, 0}).y, 16777216.0f);  // 2^24
  EXPECT_EQ(decode_ok<Point>({0x92, 0x01, 0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0}).y, -9223372036854775808.0f);  // -2^63
  decode_expecting_untouched<Point>({0x92, 0x01, 0xd3, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff},
                                    codec_status::value_out_of_range);  // -(2^24 + 1): no exact float
  decode_expecting_untouched<Point>({0x92, 0x01, 0xcf, 0, 0, 0}, codec_status::truncated_input);
}

// While 9 or more bytes are left the reader skips each scalar's own length check (one compare with a
// limit set once, msgpack_reader::roomy); every form must decode, or fail, alike on both sides of
// that limit. `extra` nil elements after the fields move the values across it.
TEST(DecodeAccepts, EveryScalarFormAlikeOnBothSidesOfTheNineBytesLeftLimit) {
  const bytes nine_ff = {0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  const std::pair<bytes, std::int32_t> x_forms[] = {
      {{0x05}, 5},       {{0xe0}, -32},        {{0xcc, 0xff}, 255},   {{0xd0, 0xdf}, -33},
      {{0xcd, 1, 0}, 256}, {{0xd1, 0xff, 0xfe}, -2}, {{0xce, 0, 1, 0, 0}, 65536},
      {{0xd2, 0x80, 0, 0, 0}, std::numeric_limits<std::int32_t>::min()},
      {{0xcf, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff}, std::numeric_limits<std::int32_t>::max()}, {nine_ff, -1}};
  const std::pair<bytes, float> y_forms[] = {
      {float32_half, 0.5f}, {{0xcb, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0}, 0.5f}, {{0x01}, 1.0f}, {{0xd0, 0xfe}, -2.0f}};
  // std::byte (unsigned, the last field of Scalars): negative fixints and values above 255 are out of range.
  const bytes before_raw = {0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xca, 0, 0, 0, 0, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const std::pair<bytes, codec_status> raw_forms[] = {
      {{0x7f}, codec_status::ok},           {{0xcc, 0xff}, codec_status::ok},
      {{0xd3, 0, 0, 0, 0, 0, 0, 0, 0x80}, codec_status::ok}, {{0xe0}, codec_status::value_out_of_range},
      {{0xff}, codec_status::value_out_of_range}, {{0xcd, 1, 0}, codec_status::value_out_of_range},
      {{0xd0, 0xff}, codec_status::value_out_of_range}};
  for (std::uint8_t extra = 0; extra <= 12; ++extra) {
    const bytes nils(extra, 0xc0);
    for (const auto& [x, x_value] : x_forms) {
      for (const auto& [y, y_value] : y_forms) {
        const Point p = decode_ok<Point>(cat({{static_cast<std::uint8_t>(0x92 + extra)}, x, y, nils}));
        EXPECT_EQ(p.x, x_value) << hex(x) << " with " << int{extra} << " extra";
        EXPECT_EQ(p.y, y_value) << hex(y) << " with " << int{extra} << " extra";
      }
    }
    for (const auto& [raw, status] : raw_forms) {
      const bytes wire = cat({{0xdc, 0, static_cast<std::uint8_t>(16 + extra)}, before_raw, raw, nils});
      if (status == codec_status::ok) {
        EXPECT_EQ(decode_ok<Scalars>(wire).raw, std::byte{raw.back()}) << hex(wire);
      } else {
        const ringkernel::codec_result r = decode_expecting_untouched<Scalars>(wire, status);
        EXPECT_EQ(r.size, 3 + before_raw.size()) << hex(wire);  // the offset of the raw value
      }
    }
  }
}

TEST(DecodeAccepts, BytesAfterTheMessageAreNotRead) {
  const bytes wire = cat({{0x92, 0x01}, float32_half, {0xc1, 0xc1}});
  Point p{};
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), p);
  EXPECT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(r.size, 7u);  // the caller decides whether trailing bytes are an error
}

// ---- every error status -------------------------------------------------------------------------

TEST(DecodeRejects, TruncatedAtEveryPrefix) {
  const bytes arrays = encode_to_vector(sample_arrays<ArraysMap>());
  for (std::size_t n = 0; n < arrays.size(); ++n) {
    decode_expecting_untouched<ArraysMap>(bytes(arrays.begin(), arrays.begin() + static_cast<long>(n)),
                                          codec_status::truncated_input);
  }
  const bytes scalars = encode_to_vector(sample_scalars<Scalars>());
  for (std::size_t n = 0; n < scalars.size(); ++n) {
    decode_expecting_untouched<Scalars>(bytes(scalars.begin(), scalars.begin() + static_cast<long>(n)),
                                        codec_status::truncated_input);
  }
  // A length that claims more than the input holds, in a skipped value.
  decode_expecting_untouched<Point>(cat({{0x93, 0x01}, float32_half, {0xdb, 0xff, 0xff, 0xff, 0xff}}),
                                    codec_status::truncated_input);
  const ringkernel::codec_result r = decode_expecting_untouched<Point>(
      cat({{0x93, 0x01}, float32_half, {0xdd, 0xff, 0xff, 0xff, 0xff}}), codec_status::truncated_input);
  EXPECT_EQ(r.size, 7u);  // the array 32 header of the skipped value, not past it
}

TEST(DecodeRejects, TypeMismatchNamesTheOffset) {
  const ringkernel::codec_result r =
      decode_expecting_untouched<Point>(cat({{0x92}, str("1"), float32_half}), codec_status::type_mismatch);
  EXPECT_EQ(r.size, 1u);  // the str at offset 1
  decode_expecting_untouched<Point>({0x82, 0x01, 0x02, 0x03, 0x04}, codec_status::type_mismatch);  // map, not array
  decode_expecting_untouched<Point>({0x92, 0x01, 0xc3}, codec_status::type_mismatch);              // bool for float
  decode_expecting_untouched<Point>({0x92, 0xca, 0, 0, 0, 0, 0xc3}, codec_status::type_mismatch);  // float for int
  decode_expecting_untouched<Tag>(cat({{0x82, 0x01, 0x02}, str("label"), str("x")}), codec_status::type_mismatch);
  decode_expecting_untouched<Tag>(cat({{0x82}, str("id"), {0x01}, str("label"), {0xc4, 0x01, 'x'}}),
                                  codec_status::type_mismatch);  // bin for char[4]
  bytes scalars = encode_to_vector(sample_scalars<Scalars>());
  scalars[3] = 0x01;  // flag (after the array16 header) given as the integer 1
  const ringkernel::codec_result b = decode_expecting_untouched<Scalars>(scalars, codec_status::type_mismatch);
  EXPECT_EQ(b.size, 3u);
}

TEST(DecodeRejects, ValueOutOfRange) {
  decode_expecting_untouched<Point>(cat({{0x92, 0xce, 0x80, 0, 0, 0}, float32_half}), codec_status::value_out_of_range);
  decode_expecting_untouched<Tag>(cat({{0x82}, str("id"), {0xff}, str("label"), str("")}),  // -1 for uint16
                                  codec_status::value_out_of_range);
  decode_expecting_untouched<Tag>(cat({{0x82}, str("id"), {0xce, 0, 1, 0, 0}, str("label"), str("")}),
                                  codec_status::value_out_of_range);  // 65536 for uint16
  // 1e39 does not fit a float; an odd integer above 2^24 has no exact float.
  decode_expecting_untouched<Point>({0x92, 0x01, 0xcb, 0x48, 0x07, 0x82, 0x87, 0xf4, 0x9f, 0xd2, 0x8d},
                                    codec_status::value_out_of_range);
  decode_expecting_untouched<Point>({0x92, 0x01, 0xce, 0x01, 0x00, 0x00, 0x01}, codec_status::value_out_of_range);
  decode_expecting_untouched<Tag>(cat({{0x82}, str("id"), {0x01}, str("label"), {0xa2, 'a', 0x00}}),
                                  codec_status::value_out_of_range);  // NUL inside a str
}

TEST(DecodeRejects, WrongLength) {
  const ringkernel::codec_result r = decode_expecting_untouched<Tag>(
      cat({{0x82}, str("id"), {0x01}, str("label"), str("abcde")}), codec_status::wrong_length);
  EXPECT_EQ(r.size, 11u);  // offset of the str value
  ArraysMap a = sample_arrays<ArraysMap>();
  bytes wire = encode_to_vector(a);
  // blob: bin8 of 8 bytes -> claim 7 (and drop a byte) is a wrong length for std::uint8_t[8].
  const bytes blob_key = str("blob");
  auto at = std::search(wire.begin(), wire.end(), blob_key.begin(), blob_key.end()) + static_cast<long>(blob_key.size());
  ASSERT_EQ(at[0], 0xc4);
  at[1] = 7;
  wire.erase(at + 2);
  decode_expecting_untouched<ArraysMap>(wire, codec_status::wrong_length);
  // grid: an inner array of 2 instead of 3.
  wire = encode_to_vector(a);
  const bytes grid_key = str("grid");
  at = std::search(wire.begin(), wire.end(), grid_key.begin(), grid_key.end()) + static_cast<long>(grid_key.size());
  ASSERT_EQ(at[0], 0x92);
  ASSERT_EQ(at[1], 0x93);
  at[1] = 0x92;
  wire.erase(at + 2 + 4);  // drop -300000 (d2 + 4 bytes): keep the rest well formed
  wire.erase(at + 2);
  decode_expecting_untouched<ArraysMap>(wire, codec_status::wrong_length);
}

TEST(DecodeRejects, NestingTooDeepInSkippedValues) {
  bytes deep = cat({{0x93, 0x01}, float32_half});
  for (std::uint32_t i = 0; i < ringkernel::max_decode_depth; ++i) deep.push_back(0x91);
  deep.push_back(0x00);
  const ringkernel::codec_result r = decode_expecting_untouched<Point>(deep, codec_status::nesting_too_deep);
  EXPECT_EQ(r.size, 7u + ringkernel::max_decode_depth - 1);  // the header that opens one level too many
  // One level less fits: the message is level 1, the skipped value may open max - 1 levels.
  bytes fits = cat({{0x93, 0x01}, float32_half});
  for (std::uint32_t i = 0; i + 1 < ringkernel::max_decode_depth; ++i) fits.push_back(0x91);
  fits.push_back(0x00);
  EXPECT_EQ(decode_ok<Point>(fits).x, 1);
  // An empty array or map opens a level too: in place of that 0x00 it is one level too deep.
  for (const std::uint8_t empty : {std::uint8_t{0x90}, std::uint8_t{0x80}, std::uint8_t{0xdc}, std::uint8_t{0xdf}}) {
    bytes empty_too_deep(fits.begin(), fits.end() - 1);
    empty_too_deep.push_back(empty);
    if (empty == 0xdc) empty_too_deep.insert(empty_too_deep.end(), {0x00, 0x00});  // array 16 of 0
    if (empty == 0xdf) empty_too_deep.insert(empty_too_deep.end(), {0x00, 0x00, 0x00, 0x00});  // map 32 of 0
    SCOPED_TRACE(hex({empty}));
    decode_expecting_untouched<Point>(empty_too_deep, codec_status::nesting_too_deep);
    empty_too_deep.erase(empty_too_deep.begin() + 6);  // one 0x91 less: fits
    EXPECT_EQ(decode_ok<Point>(empty_too_deep).x, 1);
  }
}

TEST(DecodeRejects, DuplicateAndMissingFields) {
  const ringkernel::codec_result dup = decode_expecting_untouched<Tag>(
      cat({{0x83}, str("id"), {0x01}, str("label"), str("a"), str("id"), {0x02}}), codec_status::duplicate_field);
  EXPECT_EQ(dup.size, 13u);  // the second "id" key
  decode_expecting_untouched<Tag>(cat({{0x81}, str("id"), {0x01}}), codec_status::missing_field);
  decode_expecting_untouched<Tag>(cat({{0x82}, str("id"), {0x01}, str("Label"), str("a")}), codec_status::missing_field);
  decode_expecting_untouched<Point>({0x91, 0x01}, codec_status::missing_field);
  decode_expecting_untouched<Point>({0x90}, codec_status::missing_field);
}

TEST(DecodeRejects, InvalidMessagePack) {
  decode_expecting_untouched<Point>({0xc1}, codec_status::invalid_input);
  decode_expecting_untouched<Point>({0x92, 0xc1, 0x00}, codec_status::invalid_input);
  decode_expecting_untouched<Point>(cat({{0x93, 0x01}, float32_half, {0x92, 0x00, 0xc1}}), codec_status::invalid_input);
}

TEST(DecodeRejects, EmptyAndNullInput) {
  Point p{};
  EXPECT_EQ(ringkernel::decode(nullptr, 0, p).status, codec_status::truncated_input);
}

}  // namespace
}  // namespace codec_test
