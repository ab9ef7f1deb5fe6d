// Copyright RingKernel authors.
// The codec benchmark's messages and peers. Each peer lives in its own translation unit (msgpack-c's
// C headers and msgpack-cxx's headers define clashing macros) and registers its own benchmarks;
// all of them run in one bench_codec process.
#pragma once

#include <cstddef>
#include <cstdint>

#include "codec_test_support.h"

namespace bench_codec {

/// Representative messages: 64 bytes (telemetry sample) and 128 bytes (order) of struct.
using Small = codec_test::Telemetry64;
using Large = codec_test::Order128;
static_assert(sizeof(Small) == 64 && sizeof(Large) == 128);

/// Varies one field per iteration so no peer can fold the work into constants.
inline void touch(Small& m, std::uint64_t i) { m.sequence = i; }
inline void touch(Large& m, std::uint64_t i) { m.order_id = i; }

}  // namespace bench_codec
