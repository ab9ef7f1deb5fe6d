// Copyright RingKernel authors.
// Test messages for the MessagePack codec: every field kind of DESIGN.md §4 in both wire formats,
// nested messages, multi-dimensional arrays and lengths that reach the 16- and 32-bit headers.
// Traits come from ringkernel-gen (codec_messages.rk.h) or, for the handwritten-traits build,
// from ../handwritten_traits.h.
#pragma once

#include <cstddef>
#include <cstdint>

namespace codec_test {

enum class Color : std::uint8_t { red = 1, green = 2, blue = 255 };
enum class Offset : std::int64_t { low = -9223372036854775807LL - 1, high = 9223372036854775807LL };
enum Level : int { level_low = -5, level_high = 5 };  // unscoped, underlying int

struct [[ringkernel::message]] Scalars {
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
  Color color;
  Offset offset;
  Level level;
  std::byte raw;
};

struct [[ringkernel::message(format = map)]] ScalarsMap {
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
  Color color;
  Offset offset;
  Level level;
  std::byte raw;
};

struct [[ringkernel::message]] Point {
  std::int32_t x;
  float y;
};

struct [[ringkernel::message(format = map)]] Tag {
  std::uint16_t id;
  char label[4];
};

struct [[ringkernel::message]] Arrays {
  char name[16];
  std::uint8_t blob[8];
  std::byte raw[4];
  std::int32_t grid[2][3];
  char words[2][5];
  std::uint8_t blobs[2][3];
  bool flags[3];
  double values[2];
  Color colors[2];
  Point points[2];
  Tag tag;
};

struct [[ringkernel::message(format = map)]] ArraysMap {
  char name[16];
  std::uint8_t blob[8];
  std::byte raw[4];
  std::int32_t grid[2][3];
  char words[2][5];
  std::uint8_t blobs[2][3];
  bool flags[3];
  double values[2];
  Color colors[2];
  Point points[2];
  Tag tag;
};

/// Full lengths need str16 / bin16 / array16 headers.
struct [[ringkernel::message]] Wide {
  char text[300];
  std::uint8_t data[300];
  std::int16_t series[20];
};

/// Full lengths need str32 / bin32 / array32 headers.
struct [[ringkernel::message]] Huge {
  char text[70000];
  std::uint8_t data[70000];
  bool marks[65536];
};

/// Three message levels, map inside array inside map.
struct [[ringkernel::message(format = map)]] Outer {
  Point origin;
  Tag tags[2];
  std::uint64_t sequence;
};

/// Representative 64-byte and 128-byte messages (benchmarks, fuzzing, device round trips).
struct [[ringkernel::message]] Telemetry64 {
  std::uint64_t sequence;
  std::int64_t timestamp_ns;
  std::uint32_t sensor_id;
  std::int32_t status;
  double value;
  float min;
  float max;
  std::uint16_t flags;
  std::uint8_t channel;
  bool valid;
  char unit[20];
};

struct [[ringkernel::message]] Order128 {
  std::uint64_t order_id;
  std::uint64_t account_id;
  std::int64_t price_ticks;
  std::int64_t quantity;
  double limit_price;
  std::uint32_t instrument;
  std::int32_t venue;
  Color side;
  bool reduce_only;
  std::uint16_t tags;
  char symbol[12];
  std::int32_t legs[4];
  std::uint8_t client_ref[48];
};

}  // namespace codec_test
