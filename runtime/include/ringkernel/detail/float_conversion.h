// Copyright RingKernel authors.
// float <-> double conversions of the decoder, done on bit patterns with integer arithmetic, so a
// value decodes to the same bits on every host and device whatever floating-point flags the code
// that includes the codec was compiled with. A plain conversion does not: the GPU returns its one
// canonical NaN (0x7fffffff) instead of the input's sign and payload; nvcc's --use_fast_math
// (-ftz=true) flushes float subnormals to zero in cvt.f32.f64; GCC's and Clang's -ffast-math link
// crtfastmath (x86 FTZ/DAZ: subnormals flushed) and let the compiler assume no NaN or infinity.
//
// The rules are IEEE 754's convertFormat, as x86-64 and AArch64 conversions apply them:
//   double -> float: rounded to nearest, ties to even; subnormal results kept; a finite value that
//     rounds beyond FLT_MAX does not fit (the decoder's value_out_of_range); +-inf stays +-inf; a
//     NaN keeps its sign and the top 22 bits of its payload, and is made quiet.
//   float -> double: exact; a NaN keeps its sign and payload (moved to the top bits), made quiet.
#pragma once

#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"  // RINGKERNEL_CODEC_INLINE: a message decodes as one function

namespace ringkernel::detail {

/// A double narrowed to float: `fits` false when a finite value rounds beyond +-FLT_MAX.
struct narrowed_float {
  bool fits;
  std::uint32_t bits;
};

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE constexpr narrowed_float narrow_double_bits(std::uint64_t d) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(d >> 32) & 0x80000000u;
  const int exponent = static_cast<int>((d >> 52) & 0x7ff);
  const std::uint64_t fraction = d & 0x000fffffffffffffull;
  if (exponent == 0x7ff) {
    if (fraction == 0) return {true, sign | 0x7f800000u};
    return {true, sign | 0x7fc00000u | static_cast<std::uint32_t>(fraction >> 29)};
  }
  if (exponent == 0) return {true, sign};  // zero, or a double subnormal: far below 2^-150
  // value = significand * 2^(exponent - 1075), significand in [2^52, 2^53). As a float it has
  // biased exponent `float_exponent` (normal when >= 1) and keeps the top 24 bits (normal) or
  // fewer (subnormal: unit 2^-149).
  const std::uint64_t significand = fraction | (std::uint64_t{1} << 52);
  const int float_exponent = exponent - 896;
  const int shift = float_exponent >= 1 ? 29 : 30 - float_exponent;
  if (shift >= 54) return {true, sign};  // below half the smallest subnormal, 2^-150
  const std::uint64_t kept = significand >> shift;
  const std::uint64_t rest = significand & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  const bool round_up = rest > half || (rest == half && (kept & 1) != 0);
  // A normal float is (exponent - 1) << 23 plus its 24-bit significand: a round-up to 2^24 carries
  // into the exponent; a subnormal rounded up to 2^23 is the smallest normal.
  const std::uint64_t base = float_exponent >= 1 ? static_cast<std::uint64_t>(float_exponent - 1) << 23 : 0;
  const std::uint64_t magnitude = base + kept + (round_up ? 1 : 0);
  if (magnitude >= 0x7f800000u) return {false, 0};
  return {true, sign | static_cast<std::uint32_t>(magnitude)};
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE constexpr std::uint64_t widen_float_bits(std::uint32_t f) noexcept {
  const std::uint64_t sign = static_cast<std::uint64_t>(f & 0x80000000u) << 32;
  const std::uint32_t exponent = (f >> 23) & 0xff;
  std::uint64_t fraction = f & 0x7fffffu;
  if (exponent == 0xff) {
    if (fraction == 0) return sign | 0x7ff0000000000000ull;
    return sign | 0x7ff8000000000000ull | (fraction << 29);
  }
  if (exponent != 0) return sign | (static_cast<std::uint64_t>(exponent + 896) << 52) | (fraction << 29);
  if (fraction == 0) return sign;
  // Subnormal, fraction * 2^-149: normalised with its leading bit moved to bit 23, it is
  // 2^(-126 - moved) times 1.fraction.
  std::uint64_t moved = 0;
  while ((fraction & 0x800000u) == 0) {
    fraction <<= 1;
    ++moved;
  }
  return sign | ((897 - moved) << 52) | ((fraction & 0x7fffffu) << 29);
}

}  // namespace ringkernel::detail
