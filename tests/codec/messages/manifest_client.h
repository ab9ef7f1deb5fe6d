// Copyright RingKernel authors.
// Messages for the manifest client test (manifest_client_test.py): every field kind of
// docs/generator.md's manifest section, in both wire formats, nested, as multi-dimensional arrays,
// and the enums whose manifest values need care (int64 minimum, uint64 maximum, a char enumerator
// that is negative on the wire, an enum on bool). manifest_client_writer.cpp fills them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace manifest_client {

enum class Color : std::uint8_t { red = 1, green = 2, blue = 255 };
enum class Offset : std::int64_t { lowest = -9223372036854775807LL - 1, highest = 9223372036854775807LL };
enum class Huge : std::uint64_t { zero = 0, top = 18446744073709551615ull };
enum class Latin : char { e_acute = '\xe9', z = 'z' };
enum class Switch : bool { off, on };
enum class Octet : char8_t { nul = 0, top = 0xff };

struct [[ringkernel::message]] Point {
  float x;
  float y;
};

struct [[ringkernel::message(format = map)]] Tag {
  char name[8];
  std::int16_t weight;
};

// Array format, an explicit id.
struct [[ringkernel::message(id = 0x4d43)]] Everything {
  bool flag;
  char letter;
  std::int8_t i8;
  std::int16_t i16;
  std::int32_t i32;
  std::int64_t i64;
  std::uint8_t u8;
  std::uint16_t u16;
  std::uint32_t u32;
  std::uint64_t u64;
  float f32;
  double f64;
  char8_t c8;
  char16_t c16;
  char32_t c32;
  std::byte one_byte;
  char text[12];           // str
  char8_t utf8[4];         // array of ints
  std::uint8_t bytes[4];   // bin
  unsigned char uc[3];     // bin
  std::byte raw[3];        // bin
  char16_t wide[2];        // array of ints
  bool bits[3];
  Color color;
  Offset offsets[2];
  Huge huge;
  Latin latin;
  Switch power;
  Octet octet;
  Color palette[2][2];
  Point corner;
  Point path[2];
  Tag tags[2];
  std::int32_t grid[2][3];
  char names[2][5];          // array of str
  std::uint8_t planes[2][3]; // array of bin
  char8_t code[2][2];        // array of arrays of ints
  double samples[2];
};

// Map format, causal, the type id the FNV-1a hash of the qualified name; nests the array-format one.
struct [[ringkernel::message(format = map, causal = true)]] Outer {
  Everything inner;
  Tag tag;
  Latin latins[2];
  Switch switches[2];
  char8_t c8s[3];
  std::uint8_t data[2];
  float scale;
};

}  // namespace manifest_client
