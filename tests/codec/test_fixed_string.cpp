// Copyright RingKernel authors.
// char[N] helpers of ringkernel/detail/fixed_string.h against byte-by-byte references, for sizes
// on both sides of every width the fast paths work in (8-byte words, 16-byte SSE2 vectors, the
// 64-byte limit of both): the length of a char[N] (what encode writes) for every position of the
// first NUL, and the zero-filled copy of a decoded str for every length and every number of
// readable input bytes around the thresholds at which the paths switch. Inputs are heap blocks of
// exactly the readable size, so that AddressSanitizer (asan preset) reports a read past them. Built
// twice: as it is (SSE2 on x86-64) and with RINGKERNEL_CODEC_DEVICE_PATHS (the word paths, which
// hosts other than x86-64 and CUDA device code run), codec_device_paths_tests.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ringkernel/detail/fixed_string.h"

namespace {

using ringkernel::detail::copy_str_zero_filled;
using ringkernel::detail::fixed_strlen;

// Non-NUL bytes of both signs (0x80..0xff included), different at every index.
char filler(std::size_t i) { return static_cast<char>(1 + (i * 37) % 255); }

template <std::size_t N>
void check_lengths() {
  for (std::size_t nul = 0; nul <= N; ++nul) {  // nul == N: no NUL at all
    char s[N];
    for (std::size_t i = 0; i < N; ++i) s[i] = filler(i);
    if (nul < N) s[nul] = '\0';
    if (nul + 2 < N) s[nul + 2] = '\0';  // a later NUL must not matter
    ASSERT_EQ(fixed_strlen<N>(s), nul) << "char[" << N << "] with its first NUL at " << nul;
  }
}

// One heap block of exactly `readable` bytes: data[0..length) of the str, then the rest of the
// input (non-NUL bytes, as the following values of a message would be).
std::unique_ptr<char[]> input(std::size_t length, std::size_t readable, std::size_t nul_at) {
  std::unique_ptr<char[]> data(new char[readable]);
  for (std::size_t i = 0; i < readable; ++i) data[i] = filler(i + 11);
  if (nul_at < length) data[nul_at] = '\0';
  if (length < readable) data[length] = '\0';  // a NUL right after the str is not part of it
  return data;
}

template <std::size_t N>
void check_copies() {
  for (std::size_t length = 0; length <= N; ++length) {
    for (std::size_t readable = length; readable <= length + 72; ++readable) {
      const auto data = input(length, readable, N);
      char out[N];
      std::memset(out, 0x5a, N);
      ASSERT_TRUE(copy_str_zero_filled(out, data.get(), static_cast<std::uint32_t>(length), readable))
          << "char[" << N << "], str of " << length << " bytes, " << readable << " readable";
      for (std::size_t i = 0; i < N; ++i) {
        ASSERT_EQ(out[i], i < length ? data[i] : '\0')
            << "char[" << N << "], str of " << length << " bytes, " << readable << " readable, byte " << i;
      }
    }
    // A NUL inside the str, at every position, with little and with plenty to read after it.
    for (std::size_t nul_at = 0; nul_at < length; ++nul_at) {
      for (const std::size_t readable : {length, length + 8, length + 64}) {
        const auto data = input(length, readable, nul_at);
        char out[N];
        EXPECT_FALSE(copy_str_zero_filled(out, data.get(), static_cast<std::uint32_t>(length), readable))
            << "char[" << N << "], str of " << length << " bytes with a NUL at " << nul_at << ", " << readable
            << " readable";
      }
    }
  }
}

template <std::size_t N>
void check_size() {
  SCOPED_TRACE("char[" + std::to_string(N) + "]");
  check_lengths<N>();
  check_copies<N>();
}

TEST(FixedString, LengthAndCopyBelowTheWordWidth) {
  check_size<1>();
  check_size<2>();
  check_size<3>();
  check_size<7>();
}

TEST(FixedString, LengthAndCopyAroundTheWordAndVectorWidths) {
  check_size<8>();
  check_size<9>();
  check_size<12>();
  check_size<15>();
  check_size<16>();
  check_size<17>();
  check_size<20>();
  check_size<24>();
}

TEST(FixedString, LengthAndCopyUpToAndPastTheSixtyFourByteLimit) {
  check_size<31>();
  check_size<32>();
  check_size<33>();
  check_size<47>();
  check_size<48>();
  check_size<63>();
  check_size<64>();
  check_size<65>();
  check_size<100>();
}

}  // namespace
