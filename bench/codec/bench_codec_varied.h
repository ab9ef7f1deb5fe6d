// Copyright RingKernel authors.
// The codec benchmark's inputs. "same message" rows (names without a suffix): every encoder reads
// the sample message of its type through message_ring (one field touched per iteration), every
// decoder decodes the sample's bytes. "varied" rows (names ending /varied): every iteration takes
// the next of ring_size messages built before the timed loop by a seeded generator whose field
// values span every wire form (positive and negative fixint, u8..u64, i8..i64, str from empty to
// full, true and false, float special values), forms drawn at random: no codec's branches can be
// predicted, the worst case for a branchy codec (ring_size says why the ring is so long). Every
// decoder of a message type reads the same bytes from the same 64-byte-aligned storage
// (decoder_input); every encoder steps through the same messages (varied_messages).
#pragma once

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bench_codec_peers.h"
#include "ringkernel/codec.h"

namespace bench_codec {

/// Messages in a varied ring (a power of two: the benchmarks index it with a mask). Large enough
/// that no branch predictor learns the sequence: on a Zen 5 core, rings of 256 to 4,096 messages
/// were partly learned (RingKernel's Telemetry64 decode 11 ns at 256, 44 ns at 4,096, 63 ns at
/// 16,384 and 66 ns at 65,536: bench/RESULTS.md, "Varied input is learned by the branch predictor").
inline constexpr std::size_t ring_size = 65536;
static_assert((ring_size & (ring_size - 1)) == 0);

/// The benchmark message whose field layout (and generator and sample) a type shares.
template <class T>
struct layout_twin {
  using type = T;
};
#if BENCH_CODEC_MAP_MESSAGES
template <>
struct layout_twin<SmallMap> {
  using type = Small;
};
template <>
struct layout_twin<LargeMap> {
  using type = Large;
};
#endif
template <class T>
using layout_twin_t = typename layout_twin<T>::type;

/// The same-message rows' message (the codec tests' samples), as M (a map message or a peer's mirror).
template <class M, class Twin = layout_twin_t<M>>
M sample_message() {
  if constexpr (std::is_same_v<Twin, Small>) return same_layout_copy<M>(codec_test::sample_telemetry());
  else return same_layout_copy<M>(codec_test::sample_order());
}

/// splitmix64: a fixed seed gives the same messages on every machine and compiler.
struct varied_random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  /// A value in [lo, hi]: either end (a form's boundary) one time in four, else uniform.
  std::uint64_t in(std::uint64_t lo, std::uint64_t hi) {
    const std::uint64_t pick = below(8);
    if (pick == 0) return lo;
    if (pick == 1) return hi;
    const std::uint64_t span = hi - lo;
    return span == ~std::uint64_t{0} ? next() : lo + below(span + 1);
  }
};

/// An integer of a wire form chosen uniformly among the forms that I can hold: positive fixint,
/// u8, u16, u32, u64 and (signed I) negative fixint, i8, i16, i32, i64.
template <class I>
I varied_integer(varied_random& rng) {
  using limits = std::numeric_limits<I>;
  constexpr std::uint64_t positive_upper[] = {0x7f, 0xff, 0xffff, 0xffffffffULL, ~0ULL};
  constexpr std::int64_t negative_lower[] = {-32, -128, -32768, -2147483648LL, std::numeric_limits<std::int64_t>::min()};
  const std::uint64_t max = static_cast<std::uint64_t>(limits::max());
  std::size_t positive = 0, negative = 0;
  while (positive < 5 && (positive == 0 || positive_upper[positive - 1] < max)) ++positive;
  if constexpr (limits::is_signed) {
    while (negative < 5 && (negative == 0 || negative_lower[negative - 1] > static_cast<std::int64_t>(limits::min()))) {
      ++negative;
    }
  }
  const std::size_t form = static_cast<std::size_t>(rng.below(positive + negative));
  if (form < positive) {
    const std::uint64_t lo = form == 0 ? 0 : positive_upper[form - 1] + 1;
    const std::uint64_t hi = positive_upper[form] < max ? positive_upper[form] : max;
    return static_cast<I>(rng.in(lo, hi));
  }
  const std::size_t f = form - positive;
  const std::int64_t hi = f == 0 ? -1 : negative_lower[f - 1] - 1;
  const std::int64_t lo = negative_lower[f];
  // Offsets below hi, in unsigned arithmetic (the i64 form spans more than INT64_MAX).
  const std::uint64_t down = rng.in(0, static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo));
  return static_cast<I>(static_cast<std::int64_t>(static_cast<std::uint64_t>(hi) - down));
}

/// One time in three a special value (zeros of both signs, infinities, quiet NaNs, the smallest
/// subnormal, the extremes), else a finite value with a fraction or (one time in three) an integral
/// one (msgpack-cxx writes those as ints).
template <class F>
F varied_float(varied_random& rng) {
  using limits = std::numeric_limits<F>;
  const F special[] = {F(0),           -F(0),          limits::infinity(), -limits::infinity(),
                       limits::quiet_NaN(), -limits::quiet_NaN(), limits::denorm_min(), -limits::denorm_min(),
                       limits::min(),  limits::max(),  limits::lowest(),  limits::epsilon()};
  const std::uint64_t kind = rng.below(3);
  if (kind == 0) return special[rng.below(sizeof special / sizeof special[0])];
  const F sign = rng.below(2) ? F(-1) : F(1);
  if (kind == 1) return sign * static_cast<F>(rng.below(1u << 20));
  const int exponent = static_cast<int>(rng.below(61)) - 30;
  return sign * std::ldexp(F(1) + static_cast<F>(rng.below(1u << 20)) / F(1u << 20), exponent);
}

template <std::size_t N>
void varied_text(varied_random& rng, char (&field)[N]) {
  std::memset(field, 0, N);
  const std::size_t length = static_cast<std::size_t>(rng.below(N + 1));  // 0 .. N (full: no NUL)
  for (std::size_t i = 0; i < length; ++i) field[i] = static_cast<char>(' ' + rng.below(95));
}

inline void fill_varied(varied_random& rng, Small& m) {
  m.sequence = varied_integer<std::uint64_t>(rng);
  m.timestamp_ns = varied_integer<std::int64_t>(rng);
  m.sensor_id = varied_integer<std::uint32_t>(rng);
  m.status = varied_integer<std::int32_t>(rng);
  m.value = varied_float<double>(rng);
  m.min = varied_float<float>(rng);
  m.max = varied_float<float>(rng);
  m.flags = varied_integer<std::uint16_t>(rng);
  m.channel = varied_integer<std::uint8_t>(rng);
  m.valid = rng.below(2) != 0;
  varied_text(rng, m.unit);
}

inline void fill_varied(varied_random& rng, Large& m) {
  constexpr codec_test::Color colors[] = {codec_test::Color::red, codec_test::Color::green, codec_test::Color::blue};
  m.order_id = varied_integer<std::uint64_t>(rng);
  m.account_id = varied_integer<std::uint64_t>(rng);
  m.price_ticks = varied_integer<std::int64_t>(rng);
  m.quantity = varied_integer<std::int64_t>(rng);
  m.limit_price = varied_float<double>(rng);
  m.instrument = varied_integer<std::uint32_t>(rng);
  m.venue = varied_integer<std::int32_t>(rng);
  m.side = colors[rng.below(3)];
  m.reduce_only = rng.below(2) != 0;
  m.tags = varied_integer<std::uint16_t>(rng);
  varied_text(rng, m.symbol);
  for (std::int32_t& leg : m.legs) leg = varied_integer<std::int32_t>(rng);
  for (std::uint8_t& b : m.client_ref) b = static_cast<std::uint8_t>(rng.next());
}

template <class M>
struct message_table {
  alignas(64) M messages[ring_size];
};

/// The varied ring as M (a map message or a peer's mirror of Twin): the same values for every M of
/// one layout. Built once per M, before any timed loop.
/// Filled in place: a table is megabytes, more than a thread's stack holds as a temporary.
template <class M, class Twin = layout_twin_t<M>>
message_table<M>& varied_messages() {
  static message_table<M> table;
  [[maybe_unused]] static const bool filled = [] {
    varied_random rng{std::is_same_v<Twin, Small> ? 0x5eed0064ULL : 0x5eed0128ULL};
    for (M& m : table.messages) {
      Twin twin{};
      fill_varied(rng, twin);
      m = same_layout_copy<M>(twin);
    }
    return true;
  }();
  return table;
}

/// What a varied encoder reads: iteration i the message i mod ring_size (nothing is written into
/// the ring, so there is no store-forwarding stall to avoid, unlike message_ring).
template <class M>
struct varied_ring {
  static constexpr std::uint64_t size = ring_size;
  M* messages;
  M& next(std::uint64_t i) { return messages[i & (size - 1)]; }
  M& at(std::uint64_t i) { return messages[i & (size - 1)]; }  // what next(i) returned
};

/// An encoder's messages: the same-message ring or the varied one.
template <bool Varied, class M, class Twin = layout_twin_t<M>>
auto encoder_input() {
  if constexpr (Varied) return varied_ring<M>{varied_messages<M, Twin>().messages};
  else return message_ring<M>(sample_message<M, Twin>());
}

/// A decoder's input: the ringkernel::encode bytes of `count` messages back to back in one
/// 64-byte-aligned buffer, and the messages themselves (memcpy's input, and what each entry must
/// decode to). One static instance per message type and case, read by every decoder.
template <class T>
struct decoder_input {
  struct entry {
    std::uint32_t offset;
    std::uint32_t size;
  };
  alignas(64) std::uint8_t bytes[ring_size * ringkernel::max_encoded_size<T>];
  alignas(64) T messages[ring_size];
  entry entries[ring_size];
  std::size_t count;
  bool ok = true;
  decoder_input(const T* source, std::size_t n) : count(n) {
    std::size_t offset = 0;
    for (std::size_t k = 0; k < n; ++k) {
      messages[k] = source[k];
      const ringkernel::codec_result r = ringkernel::encode(source[k], bytes + offset, sizeof bytes - offset);
      ok &= r.status == ringkernel::codec_status::ok;
      entries[k] = {static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(r.size)};
      offset += r.size;
    }
  }
};

template <class T, bool Varied>
const decoder_input<T>& decoder_bytes() {
  if constexpr (Varied) {
    static const decoder_input<T> in(varied_messages<T>().messages, ring_size);
    return in;
  } else {
    static const T sample = sample_message<T>();
    static const decoder_input<T> in(&sample, 1);
    return in;
  }
}

/// Decodes every entry in ring order into one reused T with decode(bytes, size, T&) -> bool, as the
/// timed loop does, and compares each with its message (untimed).
template <class T, class Decode>
bool decodes_every_entry(const decoder_input<T>& in, Decode decode) {
  T out{};
  for (std::size_t k = 0; k < in.count; ++k) {
    const auto& e = in.entries[k];
    if (!in.ok || !decode(in.bytes + e.offset, e.size, out) || !codec_test::values_equal(out, in.messages[k])) {
      return false;
    }
  }
  return true;
}

/// The error a benchmark reports (once: SkipWithError may be called only once).
inline void fail(benchmark::State& state, const char* message) {
  if (!state.error_occurred()) state.SkipWithError(message);
}

}  // namespace bench_codec
