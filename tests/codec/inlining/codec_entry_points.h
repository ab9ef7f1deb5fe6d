// Copyright RingKernel authors.
// CODEC_ENTRY_POINTS(T): the out-of-line functions encode_T and decode_T around ringkernel::encode
// and ringkernel::decode of codec_test::T, which the inlining checks (tests/check_inlined.cmake)
// find in the object by name and inspect.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/codec.h"

#define CODEC_ENTRY_POINTS(T)                                                                              \
  __attribute__((noinline)) ringkernel::codec_result encode_##T(const codec_test::T& m, std::uint8_t* out, \
                                                                std::size_t capacity) {                    \
    return ringkernel::encode(m, out, capacity);                                                           \
  }                                                                                                        \
  __attribute__((noinline)) ringkernel::codec_result decode_##T(const std::uint8_t* in, std::size_t size,  \
                                                                codec_test::T& m) {                        \
    return ringkernel::decode(in, size, m);                                                                \
  }
