// Copyright RingKernel authors.
// Big-endian loads/stores, byte copies and float bit casts used by the MessagePack writer and reader.
// Host and device: only compiler builtins, no library calls that CUDA device code lacks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"

// Forced inlining (the macros below) only where the compiler optimises: unoptimised builds (a
// user's Debug build, the asan preset) keep every function of its own, which compiles in a fraction
// of the time and can be stepped through; the forced form compiled a 70-field message's whole fold
// into one -O0 function. Device code keeps nvcc's inlining in every build.
#if !defined(__CUDA_ARCH__) && (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define RINGKERNEL_CODEC_HOST_FORCES_INLINING 1
#else
#define RINGKERNEL_CODEC_HOST_FORCES_INLINING 0
#endif

// Hot codec paths must inline into one straight-line function per message (the compilers'
// heuristics stop at the reader's switch otherwise).
#if defined(__CUDA_ARCH__)
#define RINGKERNEL_CODEC_INLINE __forceinline__
#elif RINGKERNEL_CODEC_HOST_FORCES_INLINING
#define RINGKERNEL_CODEC_INLINE inline __attribute__((always_inline))
#else
#define RINGKERNEL_CODEC_INLINE inline
#endif

// The same for the lambdas the codec unrolls with (written after the lambda's parameter list).
#if RINGKERNEL_CODEC_HOST_FORCES_INLINING
#define RINGKERNEL_CODEC_LAMBDA_INLINE __attribute__((always_inline))
#else
#define RINGKERNEL_CODEC_LAMBDA_INLINE
#endif

// On the entry points: inline every call (generated visit_fields included), so the writer/reader
// state lives in registers instead of being reloaded after every byte store (char stores alias it).
#if RINGKERNEL_CODEC_HOST_FORCES_INLINING
#define RINGKERNEL_CODEC_FLATTEN __attribute__((flatten))
#else
#define RINGKERNEL_CODEC_FLATTEN
#endif

// The message fold (encode_message, decode_message and the generated visit_fields they call, see
// RINGKERNEL_GEN_VISIT_INLINE): GCC's flatten inlines it, transitively; clang 19's flatten inlines
// only the entry point's direct calls (LLVM changed that later, llvm/llvm-project#188615), so clang
// needs it forced (clang-19 code ran at half GCC's speed without). Not forced for GCC: that changes
// GCC's inlining order, and cost 10 more instructions per decode of a 64-byte message (measured).
// Test codec.inlining checks both.
#if defined(__clang__) && RINGKERNEL_CODEC_HOST_FORCES_INLINING
#define RINGKERNEL_CODEC_FOLD_INLINE inline __attribute__((always_inline))
#else
#define RINGKERNEL_CODEC_FOLD_INLINE inline
#endif

// Before a loop over a small array (at most 8 elements, field_codec.h's unroll_limit): unrolled
// completely, each element straight-line code with a constant index. Unrolled by the optimiser, not
// in the source (a fold over an index pack, as before): g++ 12 with -g then spent 14 s and 1.1 GB
// on the decoder of a message with a `std::int32_t[2][3]` before other fields (jump threading
// copied every element's early exits, with the inlined readers' debug statements, through the
// elements after it); now 6 s, same instructions (bench/RESULTS.md). nvcc's host pass: its front
// end hands `GCC unroll` to the host compiler once its "unrecognized GCC pragma" is silenced.
#if defined(__CUDA_ARCH__)
#define RINGKERNEL_CODEC_UNROLL _Pragma("unroll")
#elif defined(__NVCC__)
#define RINGKERNEL_CODEC_UNROLL                                                               \
  _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1675") _Pragma("GCC unroll 8") \
      _Pragma("nv_diagnostic pop")
#elif defined(__GNUC__) || defined(__clang__)
#define RINGKERNEL_CODEC_UNROLL _Pragma("GCC unroll 8")
#else
#define RINGKERNEL_CODEC_UNROLL
#endif

// Paths that every message type or field would otherwise carry a copy of in device code (nvcc
// inlines every device function it can): a kernel decoding the envelopes of 38 types took nvcc
// 3.6 minutes. Both macros make them device functions of their own in device code and leave host
// code as it was. RINGKERNEL_CODEC_DEVICE_NOINLINE (skipping unknown values, a registry's per-type
// envelope decoder): no attribute in host code, the host compilers decide. RINGKERNEL_CODEC_DEVICE_
// OUTLINED (the envelope's elements, the float forms other than a field's own, the checked
// writers): inlined in host code like the code around them (RINGKERNEL_CODEC_INLINE); `inline` in
// device code too, so that every translation unit may define them (relocatable device code).
#if defined(__CUDA_ARCH__)
#define RINGKERNEL_CODEC_DEVICE_NOINLINE __noinline__
#define RINGKERNEL_CODEC_DEVICE_OUTLINED __noinline__ inline
#else
#define RINGKERNEL_CODEC_DEVICE_NOINLINE
#define RINGKERNEL_CODEC_DEVICE_OUTLINED RINGKERNEL_CODEC_INLINE
#endif

namespace ringkernel::detail {

RINGKERNEL_HOST_DEVICE inline void copy_bytes(void* dst, const void* src, std::size_t n) noexcept {
  __builtin_memcpy(dst, src, n);
}

RINGKERNEL_HOST_DEVICE inline void fill_zero(void* dst, std::size_t n) noexcept {
  __builtin_memset(dst, 0, n);
}

RINGKERNEL_HOST_DEVICE inline bool bytes_equal(const void* a, const void* b, std::size_t n) noexcept {
  const auto* pa = static_cast<const std::uint8_t*>(a);
  const auto* pb = static_cast<const std::uint8_t*>(b);
  for (std::size_t i = 0; i < n; ++i) {
    if (pa[i] != pb[i]) return false;
  }
  return true;
}

RINGKERNEL_HOST_DEVICE inline std::uint32_t float_bits(float f) noexcept {
  std::uint32_t u;
  copy_bytes(&u, &f, sizeof u);
  return u;
}

RINGKERNEL_HOST_DEVICE inline std::uint64_t double_bits(double d) noexcept {
  std::uint64_t u;
  copy_bytes(&u, &d, sizeof u);
  return u;
}

RINGKERNEL_HOST_DEVICE inline float float_from_bits(std::uint32_t u) noexcept {
  float f;
  copy_bytes(&f, &u, sizeof f);
  return f;
}

RINGKERNEL_HOST_DEVICE inline double double_from_bits(std::uint64_t u) noexcept {
  double d;
  copy_bytes(&d, &u, sizeof d);
  return d;
}

// RINGKERNEL_CODEC_DEVICE_PATHS (a switch for tests): host code takes the paths that CUDA device code
// takes wherever the codec has two (byte-by-byte big-endian numbers here; map keys looked up one by
// one, map_message_decoder.h; no field chunks, field_chunks.h; char[N] in 8-byte words,
// fixed_string.h), so that they run on machines without a GPU (codec_device_paths_tests).
#if !defined(__CUDA_ARCH__) && !defined(RINGKERNEL_CODEC_DEVICE_PATHS) && \
    (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RINGKERNEL_CODEC_BSWAP 1  // one byte swap and one unaligned store/load per number
#else
#define RINGKERNEL_CODEC_BSWAP 0  // byte by byte: portable to every byte order, and the device
#endif

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void store_be16(std::uint8_t* p, std::uint16_t v) noexcept {
#if RINGKERNEL_CODEC_BSWAP
  v = __builtin_bswap16(v);
  copy_bytes(p, &v, 2);
#else
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
#endif
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void store_be32(std::uint8_t* p, std::uint32_t v) noexcept {
#if RINGKERNEL_CODEC_BSWAP
  v = __builtin_bswap32(v);
  copy_bytes(p, &v, 4);
#else
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
#endif
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void store_be64(std::uint8_t* p, std::uint64_t v) noexcept {
#if RINGKERNEL_CODEC_BSWAP
  v = __builtin_bswap64(v);
  copy_bytes(p, &v, 8);
#else
  store_be32(p, static_cast<std::uint32_t>(v >> 32));
  store_be32(p + 4, static_cast<std::uint32_t>(v));
#endif
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint16_t load_be16(const std::uint8_t* p) noexcept {
#if RINGKERNEL_CODEC_BSWAP
  std::uint16_t v;
  copy_bytes(&v, p, 2);
  return __builtin_bswap16(v);
#else
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
#endif
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint32_t load_be32(const std::uint8_t* p) noexcept {
#if RINGKERNEL_CODEC_BSWAP
  std::uint32_t v;
  copy_bytes(&v, p, 4);
  return __builtin_bswap32(v);
#else
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
#endif
}

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint64_t load_be64(const std::uint8_t* p) noexcept {
#if RINGKERNEL_CODEC_BSWAP
  std::uint64_t v;
  copy_bytes(&v, p, 8);
  return __builtin_bswap64(v);
#else
  return (std::uint64_t{load_be32(p)} << 32) | load_be32(p + 4);
#endif
}

}  // namespace ringkernel::detail
