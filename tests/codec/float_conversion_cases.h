// Copyright RingKernel authors.
// Inputs whose decoding into a float or double field a plain conversion gets wrong somewhere (the
// GPU's canonical NaN, flushed subnormals under --use_fast_math / -ffast-math, ties, the edge of
// float's range), with the bits docs/wire-format.md §5 prescribes. Shared by the host tests (plain
// and -ffast-math builds) and the device test (--use_fast_math). Host and device code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/status.h"

namespace codec_test {

/// A float 64 on the wire, decoded into a float: ok with `bits`, or value_out_of_range.
struct narrowing_case {
  std::uint64_t wire;
  bool fits;
  std::uint32_t bits;
};

/// A float 32 on the wire, decoded into a double.
struct widening_case {
  std::uint32_t wire;
  std::uint64_t bits;
};

inline constexpr narrowing_case narrowing_cases[] = {
    {0x0000000000000000ull, true, 0x00000000u},   // +0
    {0x8000000000000000ull, true, 0x80000000u},   // -0
    {0x3ff0000000000000ull, true, 0x3f800000u},   // 1
    {0xc004000000000000ull, true, 0xc0200000u},   // -2.5
    {0x400921fb54442d18ull, true, 0x40490fdbu},   // pi
    {0x3ff0000010000000ull, true, 0x3f800000u},   // 1 + 2^-24: a tie, to the even 1
    {0x3ff0000030000000ull, true, 0x3f800002u},   // 1 + 3*2^-24: a tie, to the even 1 + 2^-22
    {0x3ff0000010000001ull, true, 0x3f800001u},   // just above the tie: up
    {0x47efffffe0000000ull, true, 0x7f7fffffu},   // FLT_MAX
    {0x47efffffefffffffull, true, 0x7f7fffffu},   // the largest double that rounds to FLT_MAX
    {0x47effffff0000000ull, false, 0},            // the tie above FLT_MAX rounds to 2^128
    {0xc7effffff0000000ull, false, 0},            // and its negative
    {0x7e37e43c8800759cull, false, 0},            // 1e300
    {0x7ff0000000000000ull, true, 0x7f800000u},   // +inf
    {0xfff0000000000000ull, true, 0xff800000u},   // -inf
    {0x7ff8000000000000ull, true, 0x7fc00000u},   // quiet NaN
    {0xfff8000020000000ull, true, 0xffc00001u},   // negative quiet NaN, payload kept
    {0x7ff4000000000000ull, true, 0x7fe00000u},   // signalling NaN: made quiet, payload kept
    {0x7ff0000000000001ull, true, 0x7fc00000u},   // signalling NaN whose payload is all below float's
    {0x7fffffffffffffffull, true, 0x7fffffffu},   // NaN, every payload bit set
    {0x3810000000000000ull, true, 0x00800000u},   // 2^-126, the smallest normal float
    {0x380fffffe0000000ull, true, 0x00800000u},   // (1 - 2^-24) * 2^-126: a tie, up to the normal
    {0x380fffffc0000000ull, true, 0x007fffffu},   // the largest subnormal float
    {0xb80fffffc0000000ull, true, 0x807fffffu},   // and its negative
    {0x36a0000000000000ull, true, 0x00000001u},   // 2^-149, the smallest subnormal
    {0x36a8000000000000ull, true, 0x00000002u},   // 1.5 * 2^-149: a tie, to the even 2
    {0x36b4000000000000ull, true, 0x00000002u},   // 2.5 * 2^-149: a tie, to the even 2
    {0x3690000000000000ull, true, 0x00000000u},   // 2^-150: a tie, to the even 0
    {0xb690000000000001ull, true, 0x80000001u},   // just beyond -2^-150: to -2^-149
    {0x368fffffffffffffull, true, 0x00000000u},   // just below 2^-150
    {0x0000000000000001ull, true, 0x00000000u},   // the smallest double subnormal
    {0x800fffffffffffffull, true, 0x80000000u},   // the largest negative double subnormal
};

inline constexpr widening_case widening_cases[] = {
    {0x00000000u, 0x0000000000000000ull},  // +0
    {0x80000000u, 0x8000000000000000ull},  // -0
    {0x3f800000u, 0x3ff0000000000000ull},  // 1
    {0x40490fdbu, 0x400921fb60000000ull},  // pi as a float
    {0x7f7fffffu, 0x47efffffe0000000ull},  // FLT_MAX
    {0x00800000u, 0x3810000000000000ull},  // the smallest normal
    {0x007fffffu, 0x380fffffc0000000ull},  // the largest subnormal
    {0x00400000u, 0x3800000000000000ull},  // 2^-127
    {0x00000001u, 0x36a0000000000000ull},  // 2^-149
    {0x80000003u, 0xb6b8000000000000ull},  // -3 * 2^-149
    {0x7f800000u, 0x7ff0000000000000ull},  // +inf
    {0xff800000u, 0xfff0000000000000ull},  // -inf
    {0x7fc00000u, 0x7ff8000000000000ull},  // quiet NaN
    {0xffc00001u, 0xfff8000020000000ull},  // negative quiet NaN, payload kept
    {0x7f800001u, 0x7ff8000020000000ull},  // signalling NaN: made quiet, payload kept
    {0xffbfffffu, 0xffffffffe0000000ull},  // negative signalling NaN, every payload bit
    {0x7fffffffu, 0x7fffffffe0000000ull},  // the GPU's canonical NaN
};

inline constexpr std::size_t narrowing_case_count = sizeof narrowing_cases / sizeof narrowing_cases[0];
inline constexpr std::size_t widening_case_count = sizeof widening_cases / sizeof widening_cases[0];

}  // namespace codec_test
