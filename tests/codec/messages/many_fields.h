// Copyright RingKernel authors.
// Test messages with more fields than the codec encodes and decodes in one host function
// (max_unchunked_fields, 32, ringkernel/detail/field_chunks.h): 35 fields are chunks of 16, 16 and
// 3 (field_chunk_size), with every field kind on both sides of each boundary, in both wire formats,
// and nested inside another message. Fields32Map has the most fields that stay in one function;
// Fields64Map and Fields70Map have as many map fields as one word of the decoder's field set, and more.
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

/// 64 fields, a map: the fields it has seen fill one 64-bit word of the decoder's field set
/// exactly (ringkernel/detail/map_message_decoder.h), eight fields of eight kinds to a line.
struct [[ringkernel::message(format = map)]] Fields64Map {
  std::int32_t f0; std::uint8_t f1; bool f2; std::uint16_t f3; std::int64_t f4; char f5; float f6; std::int8_t f7;
  std::int32_t f8; std::uint8_t f9; bool f10; std::uint16_t f11; std::int64_t f12; char f13; float f14; std::int8_t f15;
  std::int32_t f16; std::uint8_t f17; bool f18; std::uint16_t f19; std::int64_t f20; char f21; float f22; std::int8_t f23;
  std::int32_t f24; std::uint8_t f25; bool f26; std::uint16_t f27; std::int64_t f28; char f29; float f30; std::int8_t f31;
  std::int32_t f32; std::uint8_t f33; bool f34; std::uint16_t f35; std::int64_t f36; char f37; float f38; std::int8_t f39;
  std::int32_t f40; std::uint8_t f41; bool f42; std::uint16_t f43; std::int64_t f44; char f45; float f46; std::int8_t f47;
  std::int32_t f48; std::uint8_t f49; bool f50; std::uint16_t f51; std::int64_t f52; char f53; float f54; std::int8_t f55;
  std::int32_t f56; std::uint8_t f57; bool f58; std::uint16_t f59; std::int64_t f60; char f61; float f62; std::int8_t f63;
};

/// 70 fields, a map: the field set takes a second word (fields 64..69).
struct [[ringkernel::message(format = map)]] Fields70Map {
  std::int32_t f0; std::uint8_t f1; bool f2; std::uint16_t f3; std::int64_t f4; char f5; float f6; std::int8_t f7;
  std::int32_t f8; std::uint8_t f9; bool f10; std::uint16_t f11; std::int64_t f12; char f13; float f14; std::int8_t f15;
  std::int32_t f16; std::uint8_t f17; bool f18; std::uint16_t f19; std::int64_t f20; char f21; float f22; std::int8_t f23;
  std::int32_t f24; std::uint8_t f25; bool f26; std::uint16_t f27; std::int64_t f28; char f29; float f30; std::int8_t f31;
  std::int32_t f32; std::uint8_t f33; bool f34; std::uint16_t f35; std::int64_t f36; char f37; float f38; std::int8_t f39;
  std::int32_t f40; std::uint8_t f41; bool f42; std::uint16_t f43; std::int64_t f44; char f45; float f46; std::int8_t f47;
  std::int32_t f48; std::uint8_t f49; bool f50; std::uint16_t f51; std::int64_t f52; char f53; float f54; std::int8_t f55;
  std::int32_t f56; std::uint8_t f57; bool f58; std::uint16_t f59; std::int64_t f60; char f61; float f62; std::int8_t f63;
  std::int32_t f64; std::uint8_t f65; bool f66; std::uint16_t f67; std::int64_t f68; char f69;
};

/// Chunked messages inside a message (and inside an array).
struct [[ringkernel::message]] ManyHolder {
  std::uint32_t id;
  ManyFields inner;
  ManyFieldsMap inner_maps[2];
  bool done;
};

}  // namespace codec_test
