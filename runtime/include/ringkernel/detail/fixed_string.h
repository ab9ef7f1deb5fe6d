// Copyright RingKernel authors.
// char[N] fields as C strings: the length up to the first NUL, and the zero-filled copy of a decoded
// str. Words of 8 bytes at a time (no per-byte branches) for the common small N; byte loops where
// the byte order is not little-endian. Host code on x86-64 (SSE2, part of every x86-64 CPU) takes
// 16 bytes at a time for N up to 64 instead: one compare and one mask per 16 bytes, where the words
// take about six instructions per 8 bytes (decode of a char[12]: 22 instructions fewer). With
// RINGKERNEL_CODEC_DEVICE_PATHS (byte_ops.h) host code keeps the words, as device code does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"

#if !defined(__CUDA_ARCH__) && defined(__SSE2__) && !defined(RINGKERNEL_CODEC_DEVICE_PATHS)
#include <emmintrin.h>
#define RINGKERNEL_CODEC_SSE2 1
#else
#define RINGKERNEL_CODEC_SSE2 0
#endif

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

/// Mask of the low `n` bytes of a word, n in [0, 8] (two shifts: no shift by 64).
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint64_t low_bytes_mask(std::size_t n) noexcept {
  return ~((~std::uint64_t{0} << (4 * n)) << (4 * n));
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint64_t load_word(const void* p) noexcept {
  std::uint64_t w;
  copy_bytes(&w, p, 8);
  return w;
}

/// Calls f(std::integral_constant<std::size_t, K>{}) for K = 0 .. sizeof...(K) - 1, unrolled.
template <class F, std::size_t... K>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void for_each_index(F&& f, std::index_sequence<K...>) noexcept {
  (f(std::integral_constant<std::size_t, K>{}), ...);
}

/// Mask of the low `n` bits of a word, n in [0, 64] (two shifts: no shift by 64).
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint64_t low_bits_mask(std::size_t n) noexcept {
  return ~((~std::uint64_t{0} << (n / 2)) << (n - n / 2));
}

#if RINGKERNEL_CODEC_SSE2
/// 16 bytes 0xff, then 16 zero bytes: the 16 bytes from (16 - n) keep the first n (0 <= n <= 16).
alignas(32) inline constexpr unsigned char sse_keep_table[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/// Bit i set iff s[i] is NUL, for i in [0, N) (8 <= N <= 64): 16-byte loads, the last one ending
/// at N (overlapping), or for N < 16 two 8-byte loads.
template <std::size_t N>
RINGKERNEL_CODEC_INLINE std::uint64_t sse_nul_bits(const char* s) noexcept {
  static_assert(N >= 8 && N <= 64);
  const __m128i zero = _mm_setzero_si128();
  if constexpr (N < 16) {
    const __m128i lo = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(s));
    const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(s + N - 8));
    const auto m = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_unpacklo_epi64(lo, hi), zero)));
    return std::uint64_t{m & 0xffu} | (std::uint64_t{m >> 8} << (N - 8));
  } else {
    std::uint64_t bits = 0;
    for_each_index(
        [&](auto k) RINGKERNEL_CODEC_LAMBDA_INLINE {
          constexpr std::size_t at = (decltype(k)::value + 1) * 16 <= N ? decltype(k)::value * 16 : N - 16;
          const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + at));
          bits |= std::uint64_t{static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)))} << at;
        },
        std::make_index_sequence<(N + 15) / 16>{});
    return bits;
  }
}
#endif

/// Characters before the first NUL of s[0..n) (n when there is none).
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint32_t bounded_strlen(const char* s, std::size_t n) noexcept {
  std::size_t i = 0;
#if RINGKERNEL_CODEC_LITTLE_ENDIAN
  for (; i + 8 <= n; i += 8) {
    const std::uint64_t word = load_word(s + i);
    if (has_zero_byte(word)) return static_cast<std::uint32_t>(i + lowest_zero_byte(word));
  }
  if (i < n && n >= 8) {  // the last n % 8 bytes: one word ending at n, its checked bytes masked
    const std::uint64_t word = load_word(s + n - 8) | low_bytes_mask(i - (n - 8));
    return static_cast<std::uint32_t>(has_zero_byte(word) ? n - 8 + lowest_zero_byte(word) : n);
  }
#endif
  while (i < n && s[i] != '\0') ++i;
  return static_cast<std::uint32_t>(i);
}

/// Characters before the first NUL of a char[N] (N when there is none).
template <std::size_t N>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint32_t fixed_strlen(const char* s) noexcept {
#if RINGKERNEL_CODEC_SSE2
  if constexpr (N >= 8 && N <= 64) {
    const std::uint64_t nul = sse_nul_bits<N>(s);
    if constexpr (N == 64) {
      return nul != 0 ? static_cast<std::uint32_t>(__builtin_ctzll(nul)) : 64u;
    } else {
      return static_cast<std::uint32_t>(__builtin_ctzll(nul | (std::uint64_t{1} << N)));
    }
  }
#endif
  return bounded_strlen(s, N);
}

/// The first `r` bytes at p (1 <= r <= 7) in the low bytes of a word, reading only p[0..r).
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint64_t load_short(const char* p, std::size_t r) noexcept {
  if (r >= 4) {  // two 4-byte loads that overlap in the middle
    std::uint32_t lo;
    std::uint32_t hi;
    copy_bytes(&lo, p, 4);
    copy_bytes(&hi, p + r - 4, 4);
    return std::uint64_t{lo} | (std::uint64_t{hi} << (8 * (r - 4)));
  }
  const std::size_t mid = r / 2;  // r = 1: all three are p[0]; 2: p[0], p[1], p[1]; 3: p[0..2]
  return std::uint64_t{static_cast<std::uint8_t>(p[0])} |
         (std::uint64_t{static_cast<std::uint8_t>(p[mid])} << (8 * mid)) |
         (std::uint64_t{static_cast<std::uint8_t>(p[r - 1])} << (8 * (r - 1)));
}

/// Copies str bytes data[0..length) into out[0..N) and zero-fills the rest (length <= N).
/// `readable`: bytes at `data` that may be read (the rest of the input, >= length); when it covers
/// the 16-byte vectors (SSE2) or else the words of N, whole vectors / words are loaded and masked,
/// else only data[0..length) is read (words, and overlapping loads for the tail). Either way the
/// result is built in registers and stored whole, unrolled. Returns false if the str contains a
/// NUL, which a char[N] cannot represent (out may then be partly written).
template <std::size_t N>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool copy_str_zero_filled(char (&out)[N], const char* data,
                                                                         std::uint32_t length,
                                                                         std::size_t readable) noexcept {
#if RINGKERNEL_CODEC_SSE2
  if constexpr (N <= 64) {
    constexpr std::size_t chunks = (N + 15) / 16;
    if (readable >= chunks * 16) {
      __m128i kept[chunks];
      std::uint64_t zeros = 0;  // bit i: data[i] is a NUL
      for_each_index(
          [&](auto k) RINGKERNEL_CODEC_LAMBDA_INLINE {
            constexpr std::size_t first = decltype(k)::value * 16;
            const std::size_t in_chunk = length <= first ? 0 : length - first >= 16 ? 16 : length - first;
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + first));
            const __m128i keep = _mm_loadu_si128(reinterpret_cast<const __m128i*>(sse_keep_table + 16 - in_chunk));
            const auto nul = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128())));
            zeros |= std::uint64_t{nul} << first;
            kept[decltype(k)::value] = _mm_and_si128(bytes, keep);
          },
          std::make_index_sequence<chunks>{});
      copy_bytes(out, kept, N);
      if constexpr (N <= 16) {  // 32-bit: one shift
        return (static_cast<std::uint32_t>(zeros) & ((std::uint32_t{1} << length) - 1u)) == 0;
      } else {
        return (zeros & low_bits_mask(length)) == 0;
      }
    }
  }
#endif
#if RINGKERNEL_CODEC_LITTLE_ENDIAN
  if constexpr (N <= 64) {
    constexpr std::size_t words = (N + 7) / 8;
    std::uint64_t w[words];
    std::uint64_t nul = 0;  // non-zero once a NUL was seen inside the string
    if (readable >= words * 8) {
      for_each_index(
          [&](auto k) RINGKERNEL_CODEC_LAMBDA_INLINE {
            constexpr std::size_t first = decltype(k)::value * 8;
            const std::size_t kept = length <= first ? 0 : length - first >= 8 ? 8 : length - first;
            const std::uint64_t keep = low_bytes_mask(kept);
            const std::uint64_t word = load_word(data + first);
            nul |= ~(((word & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL) | word | 0x7f7f7f7f7f7f7f7fULL) & keep;
            w[decltype(k)::value] = word & keep;
          },
          std::make_index_sequence<words>{});
    } else {
      for_each_index(
          [&](auto k) RINGKERNEL_CODEC_LAMBDA_INLINE {
            constexpr std::size_t first = decltype(k)::value * 8;
            std::uint64_t word = 0;
            if (first + 8 <= length) {
              word = load_word(data + first);
              nul |= has_zero_byte(word);
            } else if (first < length) {
              const std::size_t r = length - first;  // 1..7 bytes left
              // After a whole word, the word ending at `length` holds them in its high bytes.
              word = first >= 8 ? load_word(data + length - 8) >> (8 * (8 - r)) : load_short(data, r);
              nul |= has_zero_byte(word | ~low_bytes_mask(r));
            }
            w[decltype(k)::value] = word;
          },
          std::make_index_sequence<words>{});
    }
    copy_bytes(out, w, N);
    return nul == 0;
  }
#endif
  (void)readable;
  if (bounded_strlen(data, length) != length) return false;
  copy_bytes(out, data, length);
  fill_zero(out + length, N - length);
  return true;
}

}  // namespace ringkernel::detail
