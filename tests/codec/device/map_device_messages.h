// Copyright RingKernel authors.
// Messages whose device code made nvcc's cicc run out of memory or take minutes before the codec
// changed its device paths (helper-173 audit; map_device_instantiations.cu compiles them):
//  - a map decode: every field's decoder sat in the chain of name compares, and cicc copied
//    decoders to carry what one compare had learnt about the key to the next (names of one length
//    and prefix); DeviceTelemetry: > 9 GB and out of memory (ringkernel/detail/map_message_decoder.h);
//  - a decode and then an encode into the kernel's local buffer: cicc knew where the writer's
//    stores went (ringkernel/detail/msgpack_writer.h); either format, 16 int32 fields: out of memory.
#pragma once

#include <cstdint>

namespace codec_device_check {

enum class Gear : std::uint8_t { park = 0, drive = 3, reverse = 255 };

struct [[ringkernel::message]] Reading {
  std::int16_t raw;
  float scaled;
};

// The audit's message: 2 float and 16 int32 fields, the int32 names of one length and prefix.
struct [[ringkernel::message(format = map)]] DeviceTelemetry {
  float temperature;
  float voltage;
  std::int32_t c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15;
};

// The same fields as an array.
struct [[ringkernel::message]] DeviceTelemetryArray {
  float temperature;
  float voltage;
  std::int32_t c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15;
};

// 32 fields of every kind, named v0..v31.
struct [[ringkernel::message(format = map)]] DeviceMixedMap {
  float v0;
  double v1;
  std::int32_t v2;
  std::uint16_t v3;
  std::int64_t v4;
  Gear v5;
  Reading v6;
  bool v7;
  std::uint8_t v8;
  char v9[6];
  float v10;
  double v11;
  std::int32_t v12;
  std::uint16_t v13;
  std::int64_t v14;
  Gear v15;
  Reading v16;
  bool v17;
  std::uint8_t v18;
  char v19[6];
  float v20;
  double v21;
  std::int32_t v22;
  std::uint32_t v23;
  std::int8_t v24;
  std::uint64_t v25;
  std::int16_t v26;
  std::int32_t v27[3];
  float v28[2];
  Reading v29[2];
  std::int32_t v30;
  std::int32_t v31;
};

}  // namespace codec_device_check
