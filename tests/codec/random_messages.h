// Copyright RingKernel authors.
// Random values for any test message, field by field through its traits: integers spread over
// every MessagePack width class (fixint, 8/16/32/64-bit, negative fixint, both signs) with the
// width boundaries themselves drawn often, floats and doubles as random bit patterns (NaN payloads,
// signalling NaNs, subnormals, -0.0, infinities), enums as any value of their underlying type,
// char[N] as a string of random length 0..N of non-NUL bytes (any byte, UTF-8 or not) followed by
// NULs, bin arrays as random bytes, nested messages and arrays recursively.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include "codec_test_support.h"

namespace codec_test {

/// The seed of the random tests: RINGKERNEL_TEST_SEED when set, else a fixed one.
inline std::uint64_t random_test_seed() {
  if (const char* s = std::getenv("RINGKERNEL_TEST_SEED"); s != nullptr && *s != '\0') {
    return std::strtoull(s, nullptr, 0);
  }
  return 0x5eed'2026'1123ull;
}

class random_filler {
 public:
  explicit random_filler(std::uint64_t seed) : rng_(seed) {}

  template <class T>
  void fill(T& value) {
    if constexpr (std::is_array_v<T>) {
      fill_array(value);
    } else if constexpr (ringkernel::is_message_v<T>) {
      ringkernel::message_traits<T>::visit_fields(value, [self = this](auto, auto& field) { self->fill(field); });
    } else if constexpr (std::is_enum_v<T>) {
      value = static_cast<T>(integer<std::underlying_type_t<T>>());
    } else if constexpr (std::is_same_v<T, bool>) {
      value = (rng_() & 1) != 0;
    } else if constexpr (std::is_same_v<T, std::byte>) {
      value = static_cast<std::byte>(rng_());
    } else if constexpr (std::is_same_v<T, float>) {
      const auto bits = static_cast<std::uint32_t>(rng_());
      if ((bits & 0x7fc0'0000u) == 0x7f80'0000u && (bits & 0x003f'ffffu) != 0) ++signalling_float_nans_;
      value = std::bit_cast<float>(bits);
    } else if constexpr (std::is_same_v<T, double>) {
      value = std::bit_cast<double>(static_cast<std::uint64_t>(rng_()));
    } else {
      static_assert(std::is_integral_v<T>, "a field type this filler does not know");
      value = integer<T>();
    }
  }

  /// A value of I from one of MessagePack's width classes, or one of their boundaries.
  template <class I>
  I integer() {
    // Lower and upper ends of each encoding's range: positive fixint, uint8, uint16, uint32,
    // uint64 (as far as int64 reaches; the top half of uint64 separately), negative fixint, int8,
    // int16, int32, int64.
    static constexpr std::array<std::array<std::int64_t, 2>, 10> classes = {{
        {0, 127},
        {128, 255},
        {256, 65535},
        {65536, 4294967295LL},
        {4294967296LL, std::numeric_limits<std::int64_t>::max()},
        {-32, -1},
        {-128, -33},
        {-32768, -129},
        {std::numeric_limits<std::int32_t>::min(), -32769},
        {std::numeric_limits<std::int64_t>::min(), std::int64_t{std::numeric_limits<std::int32_t>::min()} - 1},
    }};
    for (;;) {
      const std::size_t pick = rng_() % (classes.size() + 1);
      std::int64_t v = 0;
      if (pick == classes.size()) {  // the top half of uint64
        if constexpr (std::is_unsigned_v<I> && sizeof(I) == 8) return static_cast<I>(rng_() | (1ull << 63));
        continue;
      } else {
        const auto& range = classes[pick];
        const std::uint64_t width = static_cast<std::uint64_t>(range[1]) - static_cast<std::uint64_t>(range[0]);
        const unsigned way = rng_() % 4;  // either end half the time, else anywhere in the range
        const std::uint64_t step = way == 0 ? 0 : way == 1 ? width : rng_() % (width + 1);
        v = static_cast<std::int64_t>(static_cast<std::uint64_t>(range[0]) + step);
      }
      if (v < 0 && std::is_unsigned_v<I>) continue;
      if (v >= 0 && static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(std::numeric_limits<I>::max())) continue;
      if (v < 0 && v < static_cast<std::int64_t>(std::numeric_limits<I>::min())) continue;
      return static_cast<I>(v);
    }
  }

  /// Floats filled with a signalling NaN since the last reset (msgpack-c's object model holds a
  /// float32 as a double, which makes such a NaN quiet).
  int signalling_float_nans() const { return signalling_float_nans_; }
  void reset_counts() { signalling_float_nans_ = 0; }

 private:
  template <class E, std::size_t N>
  void fill_array(E (&array)[N]) {
    if constexpr (std::is_same_v<E, char>) {
      const std::size_t length = rng_() % (N + 1);
      for (std::size_t i = 0; i < N; ++i) {
        array[i] = i < length ? static_cast<char>(1 + rng_() % 255) : '\0';
      }
    } else if constexpr (std::is_same_v<E, std::uint8_t> || std::is_same_v<E, std::byte>) {
      for (E& e : array) e = static_cast<E>(rng_());
    } else {
      for (E& e : array) fill(e);
    }
  }

  std::mt19937_64 rng_;
  int signalling_float_nans_ = 0;
};

}  // namespace codec_test
