// Copyright RingKernel authors.
// A float 64 decoded into a float field and a float 32 into a double field give the bits
// docs/wire-format.md §5 prescribes (ringkernel/detail/float_conversion.h): the hand-made cases of
// float_conversion_cases.h, whole messages through decode, and (in a build without -ffast-math) the
// host's IEEE conversions on millions of values. Compiled twice: into the codec tests and, with
// -ffast-math (crtfastmath: FTZ/DAZ on x86; NaN assumed away), into codec_fast_math_tests, where
// the results must not change.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

// The codec's headers first: in the -ffast-math build clang checks them with
// -Wnan-infinity-disabled too (they spell no NaN or infinity).
#include "float_conversion_cases.h"
#include "ringkernel/codec.h"
#include "ringkernel/detail/float_conversion.h"
#include "ringkernel/detail/msgpack_reader.h"
#if defined(CODEC_TEST_GENERATED_TRAITS)
#include "codec_messages.rk.h"
#else
#include "handwritten_traits.h"
#endif
// The shared test helpers' sample values are NaN and infinity, which clang refuses under -ffast-math.
#if defined(__clang__)
#pragma clang diagnostic push
#if __has_warning("-Wnan-infinity-disabled")
#pragma clang diagnostic ignored "-Wnan-infinity-disabled"
#endif
#endif
#include "codec_test_support.h"
#include "random_messages.h"
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

namespace codec_test {
namespace {

using ringkernel::codec_status;
using ringkernel::detail::narrow_double_bits;
using ringkernel::detail::widen_float_bits;

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
std::uint64_t bits_of(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

bytes float64_wire(std::uint64_t v) {
  bytes b{0xcb};
  for (int shift = 56; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(v >> shift));
  return b;
}
bytes float32_wire(std::uint32_t v) {
  bytes b{0xca};
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(v >> shift));
  return b;
}

TEST(FloatConversion, Float64IntoAFloatFieldGivesThePrescribedBits) {
  for (const narrowing_case& c : narrowing_cases) {
    SCOPED_TRACE(::testing::Message() << std::hex << "float 64 0x" << c.wire);
    const bytes in = float64_wire(c.wire);
    ringkernel::detail::msgpack_reader reader(in.data(), in.size());
    float out = 1.0f;
    const codec_status s = reader.read_float(out);
    if (c.fits) {
      ASSERT_EQ(s, codec_status::ok);
      EXPECT_EQ(bits_of(out), c.bits) << std::hex << "got 0x" << bits_of(out) << ", want 0x" << c.bits;
      EXPECT_EQ(reader.offset(), 9u);
    } else {
      EXPECT_EQ(s, codec_status::value_out_of_range);
      EXPECT_EQ(bits_of(out), bits_of(1.0f)) << "written on failure";
      EXPECT_EQ(reader.offset(), 0u);
    }
  }
}

TEST(FloatConversion, Float32IntoADoubleFieldGivesThePrescribedBits) {
  for (const widening_case& c : widening_cases) {
    SCOPED_TRACE(::testing::Message() << std::hex << "float 32 0x" << c.wire);
    const bytes in = float32_wire(c.wire);
    ringkernel::detail::msgpack_reader reader(in.data(), in.size());
    double out = 1.0;
    ASSERT_EQ(reader.read_double(out), codec_status::ok);
    EXPECT_EQ(bits_of(out), c.bits) << std::hex << "got 0x" << bits_of(out) << ", want 0x" << c.bits;
    EXPECT_EQ(reader.offset(), 5u);
  }
}

// Integers are taken only when exact, in this build too: uint 64 / int 64 on the wire.
TEST(FloatConversion, IntegersIntoFloatingPointFieldsOnlyWhenExact) {
  const auto uint64_wire = [](std::uint64_t v) {
    bytes b{0xcf};
    for (int shift = 56; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(v >> shift));
    return b;
  };
  const auto into_float = [](const bytes& in, std::uint32_t& bits) {
    ringkernel::detail::msgpack_reader reader(in.data(), in.size());
    float out = 0.0f;
    const codec_status s = reader.read_float(out);
    bits = bits_of(out);
    return s;
  };
  const auto into_double = [](const bytes& in, std::uint64_t& bits) {
    ringkernel::detail::msgpack_reader reader(in.data(), in.size());
    double out = 0.0;
    const codec_status s = reader.read_double(out);
    bits = bits_of(out);
    return s;
  };
  std::uint32_t f = 0;
  std::uint64_t d = 0;
  EXPECT_EQ(into_float(uint64_wire(1ull << 24), f), codec_status::ok);
  EXPECT_EQ(f, 0x4b800000u);
  EXPECT_EQ(into_float(uint64_wire((1ull << 24) + 1), f), codec_status::value_out_of_range);
  EXPECT_EQ(into_float(uint64_wire(1ull << 63), f), codec_status::ok);
  EXPECT_EQ(f, 0x5f000000u);
  EXPECT_EQ(into_float(uint64_wire(~0ull), f), codec_status::value_out_of_range);  // rounds to 2^64
  EXPECT_EQ(into_float({0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0}, f), codec_status::ok);  // int 64 -2^63
  EXPECT_EQ(f, 0xdf000000u);
  EXPECT_EQ(into_double(uint64_wire(1ull << 53), d), codec_status::ok);
  EXPECT_EQ(d, 0x4340000000000000ull);
  EXPECT_EQ(into_double(uint64_wire((1ull << 53) + 1), d), codec_status::value_out_of_range);
  EXPECT_EQ(into_double({0xd3, 0xff, 0xdf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, d), codec_status::value_out_of_range);  // -(2^53+1)
}

/// `message` with its float field (encoded as float 32 0.0) and the double field after it (float 64
/// 0.0) replaced by `float_value` and `double_value`.
bytes with_float_fields(bytes message, const bytes& float_value, const bytes& double_value) {
  const bytes zeros = {0xca, 0, 0, 0, 0, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0};
  const auto at = std::search(message.begin(), message.end(), zeros.begin(), zeros.end());
  if (at == message.end()) throw std::logic_error("no float 0.0 followed by double 0.0 in the message");
  const auto index = at - message.begin();
  message.erase(at, at + static_cast<std::ptrdiff_t>(zeros.size()));
  message.insert(message.begin() + index, double_value.begin(), double_value.end());
  message.insert(message.begin() + index, float_value.begin(), float_value.end());
  return message;
}

// Through decode: Scalars' f32 and f64 fields get a float 64 and a float 32 of each pair of cases.
TEST(FloatConversion, WholeMessagesDecodeTheFloatFieldsBitForBit) {
  Scalars zeros = sample_scalars<Scalars>();
  zeros.f32 = 0.0f;
  zeros.f64 = 0.0;
  const bytes encoded = encode_to_vector(zeros);
  ASSERT_FALSE(encoded.empty());
  for (std::size_t i = 0; i < narrowing_case_count; ++i) {
    const narrowing_case& n = narrowing_cases[i];
    const widening_case& w = widening_cases[i % widening_case_count];
    const bytes in = with_float_fields(encoded, float64_wire(n.wire), float32_wire(w.wire));
    SCOPED_TRACE(::testing::Message() << std::hex << "float 64 0x" << n.wire << ", float 32 0x" << w.wire);
    Scalars out{};
    const ringkernel::codec_result r = ringkernel::decode(in.data(), in.size(), out);
    if (!n.fits) {
      EXPECT_EQ(r.status, codec_status::value_out_of_range);
      continue;
    }
    ASSERT_EQ(r.status, codec_status::ok);
    EXPECT_EQ(r.size, in.size());
    EXPECT_EQ(bits_of(out.f32), n.bits);
    EXPECT_EQ(bits_of(out.f64), w.bits);
  }
}

#if defined(__FAST_MATH__)

// Evidence that this build is the one the file header describes: the compiler's own conversion
// flushes here what the codec keeps.
TEST(FloatConversion, ThisBuildsOwnConversionsFlushSubnormals) {
#if defined(__x86_64__) && defined(__linux__)
  volatile double tiny = 1e-40;  // a float subnormal
  EXPECT_EQ(bits_of(static_cast<float>(tiny)), 0u) << "crtfastmath did not set FTZ: this build tests less than it says";
#else
  GTEST_SKIP() << "FTZ from -ffast-math is checked on x86-64 Linux only";
#endif
}

#else

// Every result equals the host's IEEE conversion (x86-64, AArch64), on values spread over every
// exponent that matters, with random fractions and the fractions next to a rounding tie.
TEST(FloatConversion, NarrowingMatchesTheHostsIeeeConversion) {
  static_assert(std::numeric_limits<double>::is_iec559);
  std::mt19937_64 rng(random_test_seed());
  std::uint64_t checked = 0;
  const auto check = [&](std::uint64_t d) {
    const auto narrowed = narrow_double_bits(d);
    double value;
    std::memcpy(&value, &d, sizeof value);
    const float hardware = static_cast<float>(value);
    const bool finite_in = (d & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
    const bool overflowed = finite_in && (bits_of(hardware) & 0x7fffffffu) == 0x7f800000u;
    ASSERT_EQ(narrowed.fits, !overflowed) << std::hex << "0x" << d;
    if (narrowed.fits) {
      ASSERT_EQ(narrowed.bits, bits_of(hardware)) << std::hex << "0x" << d;
    }
    ++checked;
  };
  for (std::uint64_t exponent = 0; exponent < 0x800; ++exponent) {
    const bool near_float = exponent >= 0x340 && exponent <= 0x480;
    for (int i = 0; i < (near_float ? 4096 : 64); ++i) {
      const std::uint64_t sign = (rng() & 1) << 63;
      const std::uint64_t random_fraction = rng() & 0x000fffffffffffffull;
      // The bits below float's last kept bit: at, just below and just above half.
      const std::uint64_t tie_fraction = (random_fraction & ~0x1fffffffull) | 0x10000000ull;
      const std::uint64_t base = sign | (exponent << 52);
      check(base | random_fraction);
      check(base | tie_fraction);
      check(base | (tie_fraction - 1));
      check(base | (tie_fraction + 1));
    }
  }
  EXPECT_GT(checked, 5'000'000u);
}

TEST(FloatConversion, WideningMatchesTheHostsIeeeConversion) {
  std::mt19937_64 rng(random_test_seed());
  const auto check = [](std::uint32_t f) {
    float value;
    std::memcpy(&value, &f, sizeof value);
    ASSERT_EQ(widen_float_bits(f), bits_of(static_cast<double>(value))) << std::hex << "0x" << f;
  };
  for (std::uint32_t sign = 0; sign < 2; ++sign) {
    for (std::uint32_t fraction = 0; fraction < 0x800000u; ++fraction) {  // every subnormal, inf and NaN
      check(sign << 31 | fraction);
      check(sign << 31 | 0x7f800000u | fraction);
    }
    for (std::uint32_t exponent = 1; exponent < 0xff; ++exponent) {
      for (int i = 0; i < 1024; ++i) check(sign << 31 | exponent << 23 | static_cast<std::uint32_t>(rng() & 0x7fffffu));
    }
  }
}

#endif

}  // namespace
}  // namespace codec_test
