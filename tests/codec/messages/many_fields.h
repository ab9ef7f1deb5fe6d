// Copyright RingKernel authors.
// Test messages with more fields than the codec encodes and decodes in one host function
// (max_unchunked_fields, 32, ringkernel/detail/field_chunks.h): 35 fields are chunks of 16, 16 and
// 3 (field_chunk_size), with every field kind on both sides of each boundary, in both wire formats,
// and nested inside another message. Fields32Map has the most fields that stay in one function.
#pragma once

#include <cstddef>
#include <cstdint>

namespace codec_test {

enum class Mode : std::uint16_t { idle = 0, run = 7, halt = 65535 };

struct [[ringkernel::message]] Pair {
  std::int16_t left;
  std::uint32_t right;
};

struct [[ringkernel::message]] ManyFields {
  // chunk 0: fields 0..15
  std::uint8_t u8;
  std::int8_t i8;
  std::uint16_t u16;
  std::int16_t i16;
  std::uint32_t u32;
  std::int32_t i32;
  std::uint64_t u64;
  std::int64_t i64;
  float f32;
  double f64;
  bool flag;
  char letter;
  Mode mode;
  std::byte raw;
  char name[6];
  std::int32_t last_of_first[2];  // field 15
  // chunk 1: fields 16..31
  std::uint8_t first_of_second[3];  // field 16: bin
  Pair pair;
  double samples[3];
  char words[2][4];
  bool bits[5];
  std::int64_t big;
  std::uint64_t ubig;
  float ratio;
  std::int8_t small;
  Mode modes[2];
  std::uint16_t port;
  char code[12];
  std::int32_t delta;
  std::uint32_t count;
  double total;
  char last_of_second;  // field 31
  // chunk 2: fields 32..34
  std::uint64_t first_of_third;
  Pair pairs[2];
  char tail[3];
};

struct [[ringkernel::message(format = map)]] ManyFieldsMap {
  std::uint8_t u8;
  std::int8_t i8;
  std::uint16_t u16;
  std::int16_t i16;
  std::uint32_t u32;
  std::int32_t i32;
  std::uint64_t u64;
  std::int64_t i64;
  float f32;
  double f64;
  bool flag;
  char letter;
  Mode mode;
  std::byte raw;
  char name[6];
  std::int32_t last_of_first[2];
  std::uint8_t first_of_second[3];
  Pair pair;
  double samples[3];
  char words[2][4];
  bool bits[5];
  std::int64_t big;
  std::uint64_t ubig;
  float ratio;
  std::int8_t small;
  Mode modes[2];
  std::uint16_t port;
  char code[12];
  std::int32_t delta;
  std::uint32_t count;
  double total;
  char last_of_second;
  std::uint64_t first_of_third;
  Pair pairs[2];
  char tail[3];
};

/// 32 fields, a map: the widest message that still decodes in one function (no chunks).
struct [[ringkernel::message(format = map)]] Fields32Map {
  std::uint64_t id;
  double f64;
  std::int8_t i8;
  char label[9];
  std::uint16_t u16;
  bool bits[3];
  std::int32_t i32;
  Pair pair;
  std::uint8_t u8;
  float f32;
  std::int64_t i64;
  Mode mode;
  std::int16_t i16;
  std::uint8_t blob[5];
  char letter;
  std::uint32_t u32;
  std::int32_t grid[2][2];
  bool flag;
  double samples[2];
  std::byte raw;
  char words[3][3];
  Mode modes[3];
  std::int64_t balance;
  Pair pairs[2];
  std::uint64_t limit;
  float ratio;
  std::int16_t offset;
  char code[4];
  std::uint32_t count;
  double total;
  std::uint16_t port;
  bool done;
};

/// Chunked messages inside a message (and inside an array).
struct [[ringkernel::message]] ManyHolder {
  std::uint32_t id;
  ManyFields inner;
  ManyFieldsMap inner_maps[2];
  bool done;
};

}  // namespace codec_test
