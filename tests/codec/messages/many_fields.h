// Copyright RingKernel authors.
// Test messages with more fields than one of the codec's host chunks holds (field_chunk_size, 16,
// ringkernel/detail/field_chunks.h): 35 fields are chunks of 16, 16 and 3, with every field kind
// on both sides of each boundary, in both wire formats, and nested inside another message.
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

/// Chunked messages inside a message (and inside an array).
struct [[ringkernel::message]] ManyHolder {
  std::uint32_t id;
  ManyFields inner;
  ManyFieldsMap inner_maps[2];
  bool done;
};

}  // namespace codec_test
