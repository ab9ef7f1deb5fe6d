// Copyright RingKernel authors.
// The codec benchmark's messages in map format (docs/wire-format.md §2): the same members as
// Telemetry64 and Order128 (tests/codec/messages/codec_messages.h), so the same struct layout and
// values, written as maps from member name to value. Generated traits only (ringkernel-gen).
#pragma once

#include <cstdint>

#include "messages/codec_messages.h"

namespace bench_codec {

struct [[ringkernel::message(format = map)]] Telemetry64Map {
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

struct [[ringkernel::message(format = map)]] Order128Map {
  std::uint64_t order_id;
  std::uint64_t account_id;
  std::int64_t price_ticks;
  std::int64_t quantity;
  double limit_price;
  std::uint32_t instrument;
  std::int32_t venue;
  codec_test::Color side;
  bool reduce_only;
  std::uint16_t tags;
  char symbol[12];
  std::int32_t legs[4];
  std::uint8_t client_ref[48];
};

}  // namespace bench_codec
