// Copyright RingKernel authors.
// char[N] fields as C strings: the length up to the first NUL, and the zero-filled copy of a decoded
// str. Words of 8 bytes at a time (no per-byte branches) for the common small N; byte loops where
// the byte order is not little-endian.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"

#if defined(__CUDA_ARCH__) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define RINGKERNEL_CODEC_LITTLE_ENDIAN 1
#else
#define RINGKERNEL_CODEC_LITTLE_ENDIAN 0
#endif

namespace ringkernel::detail {

/// Index of the lowest zero byte of a little-endian word that has one.
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint32_t lowest_zero_byte(std::uint64_t word) noexcept {
  // Exact zero-byte mask (no false positives from borrows): bit 7 of each byte set iff the byte is 0.
  const std::uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
  const std::uint64_t zero_bits = ~(((word & low7) + low7) | word | low7);
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__ffsll(static_cast<long long>(zero_bits)) - 1) / 8;
#else
  return static_cast<std::uint32_t>(__builtin_ctzll(zero_bits)) / 8;
#endif
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool has_zero_byte(std::uint64_t word) noexcept {
  const std::uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
  return ~(((word & low7) + low7) | word | low7) != 0;
}

/// Characters before the first NUL of s[0..n) (n when there is none).
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint32_t bounded_strlen(const char* s, std::size_t n) noexcept {
  std::size_t i = 0;
#if RINGKERNEL_CODEC_LITTLE_ENDIAN
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    copy_bytes(&word, s + i, 8);
    if (has_zero_byte(word)) return static_cast<std::uint32_t>(i + lowest_zero_byte(word));
  }
#endif
  while (i < n && s[i] != '\0') ++i;
  return static_cast<std::uint32_t>(i);
}

/// Copies str bytes data[0..length) into out[0..N) and zero-fills the rest. `readable`: bytes at
/// `data` that may be read (the rest of the input); when it covers N, whole words are copied and
/// masked instead of byte loops. Returns false if the str contains a NUL, which a char[N] cannot
/// represent (out may then be partly written).
template <std::size_t N>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool copy_str_zero_filled(char (&out)[N], const char* data,
                                                                         std::uint32_t length,
                                                                         std::size_t readable) noexcept {
#if RINGKERNEL_CODEC_LITTLE_ENDIAN
  if constexpr (N <= 256) {
    constexpr std::size_t words = (N + 7) / 8;
    if (readable >= words * 8) {
      std::uint64_t w[words];
      copy_bytes(w, data, words * 8);
      bool nul_inside = false;
      for (std::size_t k = 0; k < words; ++k) {
        const std::size_t first = k * 8;
        if (first >= length) {
          w[k] = 0;
        } else if (first + 8 > length) {
          const std::uint64_t keep = (std::uint64_t{1} << ((length - first) * 8)) - 1;
          nul_inside |= has_zero_byte(w[k] | ~keep);
          w[k] &= keep;
        } else {
          nul_inside |= has_zero_byte(w[k]);
        }
      }
      copy_bytes(out, w, N);
      return !nul_inside;
    }
  }
#endif
#if RINGKERNEL_CODEC_LITTLE_ENDIAN
  if constexpr (N <= 64) {  // near the end of the input: gather words in registers, store words
    constexpr std::size_t words = (N + 7) / 8;
    std::uint64_t w[words];
    for (std::size_t k = 0; k < words; ++k) {
      std::uint64_t word = 0;
      for (std::size_t j = 0; j < 8 && k * 8 + j < length; ++j) {
        const auto c = static_cast<std::uint8_t>(data[k * 8 + j]);
        if (c == 0) return false;
        word |= std::uint64_t{c} << (8 * j);
      }
      w[k] = word;
    }
    copy_bytes(out, w, N);
    return true;
  }
#endif
  if (bounded_strlen(data, length) != length) return false;
  copy_bytes(out, data, length);
  fill_zero(out + length, N - length);
  return true;
}

}  // namespace ringkernel::detail
