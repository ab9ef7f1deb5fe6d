// Copyright RingKernel authors.
// ringkernel::describe_decode_failure (ringkernel/decode_diagnostic.h): for each status the decoder
// returns, at the top level, in nested messages, arrays of messages and 2-D arrays, in map and array
// formats, the exact text: the path of the refused value, decode's own status and offset, and what
// was found there. Every failing case also checks that the text carries decode's status and offset.
#include <gtest/gtest.h>

#include <string>

#include "codec_test_support.h"
#include "reference/wire_forms.h"
#include "ringkernel/decode_diagnostic.h"

namespace codec_test {
namespace {

using codec_variants::array_header;
using codec_variants::cat;
using codec_variants::map_header;
using codec_variants::nested_arrays;
using codec_variants::operator+=;
using codec_variants::str;
using codec_variants::tagged;
using ringkernel::codec_status;

/// decode<T> refuses `wire` with `status`, and the description is `expected`, which names decode's
/// status and offset.
template <class T>
void expect_described(const bytes& wire, codec_status status, const std::string& expected) {
  T m{};
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), m);
  ASSERT_EQ(r.status, status) << ringkernel::to_string(r.status) << " for " << hex(wire);
  const std::string text = ringkernel::describe_decode_failure<T>(wire.data(), wire.size());
  EXPECT_EQ(text, expected) << hex(wire);
  const std::string verdict = std::string(": ") + ringkernel::to_string(r.status) + " at byte " + std::to_string(r.size);
  EXPECT_NE(text.find(verdict), std::string::npos) << text << " lacks '" << verdict << "'";
}

const bytes zero = {0x00};
const bytes half = {0xca, 0x3f, 0x00, 0x00, 0x00};  // 0.5f

/// Scalars with every field 0 (flag false, letter 'a', color 1) but the one at `index`, given `value`.
bytes scalars_with(std::size_t index, const bytes& value) {
  bytes out = array_header(16);  // dc 00 10: fields from byte 3 on, one byte each
  const bytes defaults[16] = {{0xc2}, {0x61}, zero, zero, zero, zero, zero, zero,
                              zero,   zero,   zero, zero, {0x01}, zero, zero, zero};
  for (std::size_t i = 0; i < 16; ++i) out += i == index ? value : defaults[i];
  return out;
}

bytes tag_map(const bytes& id, const bytes& label) { return cat({map_header(2), str("id"), id, str("label"), label}); }

/// Outer{{1, 1.0f}, {{1, "x"}, {id, label}}, 2^40} (docs/wire-format.md §7): tags[1] at byte 34,
/// its id value at 38.
bytes outer_with(const bytes& id, const bytes& label) {
  return cat({map_header(3), str("origin"), {0x92, 0x01, 0xca, 0x3f, 0x80, 0x00, 0x00}, str("tags"), array_header(2),
              tag_map({0x01}, str("x")), tag_map(id, label), str("sequence"), tagged(0xcf, 1ull << 40, 8)});
}

TEST(DecodeDiagnostic, AcceptedInputIsDescribedAsNothing) {
  const bytes point = {0x92, 0x01, 0xca, 0x3f, 0x00, 0x00, 0x00};
  EXPECT_EQ(ringkernel::describe_decode_failure<Point>(point.data(), point.size()), "");
  const bytes outer = outer_with({0xcd, 0x01, 0x2c}, str("wxyz"));
  EXPECT_EQ(ringkernel::describe_decode_failure<Outer>(outer.data(), outer.size()), "");
  const Arrays arrays = sample_arrays<Arrays>();
  const bytes encoded = encode_to_vector(arrays);
  EXPECT_EQ(ringkernel::describe_decode_failure<Arrays>(encoded.data(), encoded.size()), "");
}

TEST(DecodeDiagnostic, TopLevelScalars) {
  expect_described<Scalars>(scalars_with(6, {0xcd, 0x01, 0x2c}), codec_status::value_out_of_range,
                            "codec_test::Scalars.u8: value out of range at byte 9 (uint8 field given 300)");
  expect_described<Scalars>(scalars_with(2, {0xd1, 0xff, 0x00}), codec_status::value_out_of_range,
                            "codec_test::Scalars.i8: value out of range at byte 5 (int8 field given -256)");
  expect_described<Scalars>(scalars_with(0, {0x01}), codec_status::type_mismatch,
                            "codec_test::Scalars.flag: type mismatch at byte 3 (the int 1 where bool takes true or "
                            "false; 0 and 1 are ints, not bools)");
  expect_described<Scalars>(scalars_with(4, str("7")), codec_status::type_mismatch,
                            "codec_test::Scalars.i32: type mismatch at byte 7 (a str of 1 byte where int32 takes an int)");
  expect_described<Scalars>(scalars_with(9, {0xc1}), codec_status::invalid_input,
                            "codec_test::Scalars.u64: invalid input (the byte 0xc1, or a misaligned raw message) at byte 12 "
                            "(the byte 0xc1, which MessagePack never uses)");
  expect_described<Scalars>(scalars_with(1, {0xcc, 0x80}), codec_status::value_out_of_range,
                            "codec_test::Scalars.letter: value out of range at byte 4 (char field given 128)");
}

TEST(DecodeDiagnostic, EnumOutOfItsUnderlyingRange) {
  expect_described<Scalars>(scalars_with(12, {0xcd, 0x01, 0x2c}), codec_status::value_out_of_range,
                            "codec_test::Scalars.color: value out of range at byte 15 (enum (uint8) field given 300)");
  expect_described<Scalars>(scalars_with(14, {0xce, 0x80, 0x00, 0x00, 0x00}), codec_status::value_out_of_range,
                            "codec_test::Scalars.level: value out of range at byte 17 (enum (int32) field given 2147483648)");
}

TEST(DecodeDiagnostic, FloatingPointValuesOutOfRange) {
  expect_described<Scalars>(scalars_with(10, codec_variants::float64(0x7e37e43c8800759cull)),  // 1e300
                            codec_status::value_out_of_range,
                            "codec_test::Scalars.f32: value out of range at byte 13 (float field given the float 64 "
                            "1e+300, beyond its range)");
  expect_described<Scalars>(scalars_with(10, tagged(0xce, 16777217, 4)), codec_status::value_out_of_range,
                            "codec_test::Scalars.f32: value out of range at byte 13 (float field given the int "
                            "16777217, which it cannot hold exactly)");
  expect_described<Scalars>(scalars_with(11, tagged(0xcf, (1ull << 53) + 1, 8)), codec_status::value_out_of_range,
                            "codec_test::Scalars.f64: value out of range at byte 14 (double field given the int "
                            "9007199254740993, which it cannot hold exactly)");
}

TEST(DecodeDiagnostic, TruncatedInputNamesTheValueItEndsIn) {
  const bytes whole = scalars_with(6, {0xcd, 0x00, 0x2c});
  expect_described<Scalars>(bytes(whole.begin(), whole.begin() + 11), codec_status::truncated_input,
                            "codec_test::Scalars.u8: truncated input at byte 9 (a uint 16 cut by the end of the input, "
                            "2 bytes left)");
  expect_described<Scalars>(bytes(whole.begin(), whole.begin() + 9), codec_status::truncated_input,
                            "codec_test::Scalars.u8: truncated input at byte 9 (the input ends at byte 9, before this "
                            "value)");
  expect_described<Point>(bytes{}, codec_status::truncated_input,
                          "codec_test::Point: truncated input at byte 0 (the input ends at byte 0, before this value)");
  // Inside a nested field: the str of tags[1].label is cut.
  const bytes outer = outer_with({0x02}, str("wxyz"));
  expect_described<Outer>(bytes(outer.begin(), outer.begin() + 47), codec_status::truncated_input,
                          "codec_test::Outer.tags[1].label: truncated input at byte 45 (a str of 4 bytes cut by the end "
                          "of the input, 2 bytes left)");
}

TEST(DecodeDiagnostic, NestedMessagesAndArraysOfMessages) {
  expect_described<Outer>(outer_with({0xce, 0x00, 0x01, 0x11, 0x70}, str("wxyz")), codec_status::value_out_of_range,
                          "codec_test::Outer.tags[1].id: value out of range at byte 38 (uint16 field given 70000)");
  expect_described<Outer>(outer_with({0x02}, str("abcde")), codec_status::wrong_length,
                          "codec_test::Outer.tags[1].label: wrong array/str/bin length at byte 45 (a str of 5 bytes for "
                          "char[4])");
  bytes bad_origin = outer_with({0x02}, str("x"));
  bad_origin[10] = 0xa1;  // origin.y: float 32 -> a str of 1 byte "?"
  expect_described<Outer>(bad_origin, codec_status::type_mismatch,
                          "codec_test::Outer.origin.y: type mismatch at byte 10 (a str of 1 byte where float takes a "
                          "float or an int)");
  bytes origin_as_map = outer_with({0x02}, str("x"));
  origin_as_map[8] = 0x82;
  expect_described<Outer>(origin_as_map, codec_status::type_mismatch,
                          "codec_test::Outer.origin: type mismatch at byte 8 (a map of 2 entries where codec_test::Point "
                          "takes an array of 2 fields)");
}

/// Arrays with the field at `index` (0..10) given `value`, the others as sample_arrays<Arrays>() has them.
bytes arrays_with(std::size_t index, const bytes& value, std::size_t* offset) {
  const Arrays sample = sample_arrays<Arrays>();
  bytes out = array_header(11);
  std::size_t i = 0;
  ringkernel::message_traits<Arrays>::visit_fields(sample, [&](auto, const auto& field) {
    if (i == index) {
      *offset = out.size();
      out += value;
    } else {
      bytes one(ringkernel::detail::max_value_size<std::remove_cvref_t<decltype(field)>>());
      ringkernel::detail::msgpack_writer<true> w(one.data(), one.size());
      ringkernel::detail::encode_value(field, w);
      one.resize(w.size());
      out += one;
    }
    ++i;
  });
  return out;
}

TEST(DecodeDiagnostic, TwoDimensionalArraysAndCharArrays) {
  std::size_t at = 0;
  const bytes row = cat({array_header(3), {0x01, 0x02}, str("3")});
  const bytes grid = arrays_with(3, cat({array_header(2), cat({array_header(3), {0x01, 0x02, 0x03}}), row}), &at);
  expect_described<Arrays>(grid, codec_status::type_mismatch,
                           "codec_test::Arrays.grid[1][2]: type mismatch at byte " + std::to_string(at + 8) +
                               " (a str of 1 byte where int32 takes an int)");
  const bytes short_grid = arrays_with(3, cat({array_header(3)}), &at);
  expect_described<Arrays>(short_grid, codec_status::wrong_length,
                           "codec_test::Arrays.grid: wrong array/str/bin length at byte " + std::to_string(at) +
                               " (an array of 3 elements for int32[2][3])");
  const bytes words = arrays_with(4, cat({array_header(2), str("ab"), str(std::string("ab\0d", 4))}), &at);
  expect_described<Arrays>(words, codec_status::value_out_of_range,
                           "codec_test::Arrays.words[1]: value out of range at byte " + std::to_string(at + 4) +
                               " (a NUL at position 2 of the str, which char[5] cannot carry (re-encoding would cut it))");
  const bytes blobs = arrays_with(5, cat({array_header(2), {0xc4, 0x03, 1, 2, 3}, {0xc4, 0x02, 1, 2}}), &at);
  expect_described<Arrays>(blobs, codec_status::wrong_length,
                           "codec_test::Arrays.blobs[1]: wrong array/str/bin length at byte " + std::to_string(at + 6) +
                               " (a bin of 2 bytes for uint8[3])");
  const bytes name = arrays_with(0, str("seventeen bytes!!"), &at);
  expect_described<Arrays>(name, codec_status::wrong_length,
                           "codec_test::Arrays.name: wrong array/str/bin length at byte 1 (a str of 17 bytes for char[16])");
  const bytes points = arrays_with(9, cat({array_header(2), {0x92, 0x01, 0x00}, {0x92, 0xce, 0x80, 0, 0, 0, 0x00}}), &at);
  expect_described<Arrays>(points, codec_status::value_out_of_range,
                           "codec_test::Arrays.points[1].x: value out of range at byte " + std::to_string(at + 5) +
                               " (int32 field given 2147483648)");
}

TEST(DecodeDiagnostic, MapMissingFieldsNameEveryOneAndTheKeysPresent) {
  expect_described<Tag>(cat({map_header(2), str("id"), {0x01}, str("lable"), str("x")}), codec_status::missing_field,
                        "codec_test::Tag.label: missing field at byte 0 (the map at byte 0 has no key \"label\"; keys "
                        "present: \"id\", \"lable\")");
  expect_described<Outer>(cat({map_header(2), str("origin"), {0x92, 0x01, 0x00}, str("sequence"), {0x05}}),
                          codec_status::missing_field,
                          "codec_test::Outer.tags: missing field at byte 0 (the map at byte 0 has no key \"tags\"; keys "
                          "present: \"origin\", \"sequence\")");
  expect_described<ScalarsMap>(cat({map_header(1), str("i64"), {0x00}}), codec_status::missing_field,
                               "codec_test::ScalarsMap.flag: missing field at byte 0 (the map at byte 0 has no keys "
                               "\"flag\", \"letter\", \"i8\", \"i16\", \"i32\", \"u8\", \"u16\", \"u32\", \"u64\", "
                               "\"f32\", \"f64\", \"color\", \"offset\", \"level\", \"raw\"; keys present: \"i64\")");
  // In a nested map, found after its last entry: tags[1] has only its id.
  const bytes outer = cat({map_header(3), str("origin"), {0x92, 0x01, 0x00}, str("tags"), array_header(2),
                           tag_map({0x01}, str("x")), cat({map_header(1), str("id"), {0x02}}), str("sequence"), {0x05}});
  expect_described<Outer>(outer, codec_status::missing_field,
                          "codec_test::Outer.tags[1].label: missing field at byte 30 (the map at byte 30 has no key "
                          "\"label\"; keys present: \"id\")");
  expect_described<Tag>(map_header(0), codec_status::missing_field,
                        "codec_test::Tag.id: missing field at byte 0 (the map at byte 0 has no keys \"id\", \"label\"; "
                        "keys present: none)");
}

TEST(DecodeDiagnostic, MapKeysFromTheInputAreEscapedAndCapped) {
  const bytes odd = cat({map_header(3), str("id"), {0x01}, str(std::string("\x01\xff\"\\k", 5)), {0x00},
                         str(std::string(40, 'k')), {0x00}});
  expect_described<Tag>(odd, codec_status::missing_field,
                        "codec_test::Tag.label: missing field at byte 0 (the map at byte 0 has no key \"label\"; keys "
                        "present: \"id\", \"\\x01\\xff\\\"\\\\k\", \"" + std::string(32, 'k') + "\"... (40 bytes))");
  bytes many = map_header(11);
  for (int k = 0; k < 11; ++k) many += cat({str("k" + std::to_string(k)), {0x00}});
  expect_described<Tag>(many, codec_status::missing_field,
                        "codec_test::Tag.id: missing field at byte 0 (the map at byte 0 has no keys \"id\", \"label\"; "
                        "keys present: \"k0\", \"k1\", \"k2\", \"k3\", \"k4\", \"k5\", \"k6\", \"k7\" and 3 more)");
}

TEST(DecodeDiagnostic, MapDuplicateUnknownAndNonStrKeys) {
  expect_described<Tag>(cat({map_header(3), str("id"), {0x01}, str("id"), {0x02}, str("label"), str("")}),
                        codec_status::duplicate_field,
                        "codec_test::Tag.id: duplicate field at byte 5 (the key \"id\" again, first at byte 1)");
  expect_described<Tag>(cat({map_header(3), str("id"), {0x01}, str("zz"), {0xc1}, str("label"), str("")}),
                        codec_status::invalid_input,
                        "codec_test::Tag: invalid input (the byte 0xc1, or a misaligned raw message) at byte 8 (the byte "
                        "0xc1, which MessagePack never uses, in the value of unknown key \"zz\" (at byte 5), which "
                        "decode skips)");
  expect_described<Tag>(cat({map_header(2), {0x01}, {0x01}, str("label"), str("")}), codec_status::type_mismatch,
                        "codec_test::Tag: type mismatch at byte 1 (map key 0 is the int 1, not a str)");
  // An unknown key's value nested past the limit, inside tags[0] (a Tag at depth 2 of 32).
  const bytes deep = cat({map_header(3), str("origin"), {0x92, 0x01, 0x00}, str("tags"), array_header(2),
                          cat({map_header(3), str("id"), {0x01}, str("x"), nested_arrays(40), str("label"), str("")})});
  expect_described<Outer>(deep, codec_status::nesting_too_deep,
                          "codec_test::Outer.tags[0]: nesting too deep at byte 53 (an array of 1 element nested deeper "
                          "than max_decode_depth (32 levels in all), in the value of unknown key \"x\" (at byte 22), "
                          "which decode skips)");
}

TEST(DecodeDiagnostic, ArrayFormatShortAndExtraElements) {
  expect_described<Point>({0x91, 0x01}, codec_status::missing_field,
                          "codec_test::Point.y: missing field at byte 0 (an array of 1 element where codec_test::Point "
                          "has 2 fields; missing: \"y\")");
  expect_described<Point>({0x90}, codec_status::missing_field,
                          "codec_test::Point.x: missing field at byte 0 (an array of 0 elements where codec_test::Point "
                          "has 2 fields; missing: \"x\", \"y\")");
  expect_described<Point>(cat({{0x93, 0x01}, half, {0xc1}}), codec_status::invalid_input,
                          "codec_test::Point: invalid input (the byte 0xc1, or a misaligned raw message) at byte 7 (the "
                          "byte 0xc1, which MessagePack never uses, in extra element 2 (after codec_test::Point's 2 "
                          "fields), which decode skips)");
  expect_described<Point>(cat({{0x93, 0x01}, half, {0xdc, 0x00, 0x05}}), codec_status::truncated_input,
                          "codec_test::Point: truncated input at byte 7 (an array of 5 elements, more than the 0 bytes "
                          "after its header can hold, in extra element 2 (after codec_test::Point's 2 fields), which "
                          "decode skips)");
  expect_described<Point>(cat({{0x93, 0x01}, half, nested_arrays(40)}), codec_status::nesting_too_deep,
                          "codec_test::Point: nesting too deep at byte 38 (an array of 1 element nested deeper than "
                          "max_decode_depth (32 levels in all), in extra element 2 (after codec_test::Point's 2 "
                          "fields), which decode skips)");
  expect_described<Point>(cat({map_header(0)}), codec_status::type_mismatch,
                          "codec_test::Point: type mismatch at byte 0 (a map of 0 entries where codec_test::Point takes "
                          "an array of 2 fields)");
}

}  // namespace
}  // namespace codec_test
