// Copyright RingKernel authors.
// bench_codec: ringkernel::encode / decode against memcpy of the struct (the floor) here, and against
// msgpack-cxx MSGPACK_DEFINE and hand-written msgpack-c in the peer files, all in one run.
// Names: <encode|decode>/<message>/<implementation>; <message>Map: the same message in map format
// (bench_map_messages.h; msgpack-cxx's peer then uses MSGPACK_DEFINE_MAP); a /varied suffix: a ring
// of 65,536 messages spanning every wire form, too many for a branch predictor to learn, instead of
// one message (bench_codec_varied.h).
// Results: bench/RESULTS.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>

#include "bench_codec_varied.h"
#include "ringkernel/codec.h"

namespace bench_codec {
namespace {

// Lets the output buffer's address escape, so that ClobberMemory() after each iteration makes the
// stores into it observable (a local array whose address never escapes may be dropped entirely:
// memcpy_encode measured the empty loop, 0.3 ns for 128 bytes, before this).
void escape(std::uint8_t* out) {
  benchmark::DoNotOptimize(out);
  benchmark::ClobberMemory();
}

// Checks after the timed loop that the last encoding is whole and decodes to the message it was
// made from (a failure fails the benchmark, as the peers' checks do).
template <class T>
bool encoded_ok(const ringkernel::codec_result& r, const std::uint8_t* out, const T& msg) {
  T back{};
  const ringkernel::codec_result d = ringkernel::decode(out, r.size, back);
  return r.status == ringkernel::codec_status::ok && d.status == ringkernel::codec_status::ok && d.size == r.size &&
         codec_test::values_equal(back, msg);
}

template <class T, bool Varied>
void ringkernel_encode(benchmark::State& state) {
  auto ring = encoder_input<Varied, T>();
  alignas(64) std::uint8_t out[ringkernel::max_encoded_size<T>];
  escape(out);
  ringkernel::codec_result r{ringkernel::codec_status::ok, 0};
  std::uint64_t i = 0;
  for (auto _ : state) {
    T& msg = ring.next(i++);
    benchmark::DoNotOptimize(msg);
    r = ringkernel::encode(msg, out, sizeof out);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();
  }
  if (i == 0 || !encoded_ok(r, out, ring.at(i - 1))) fail(state, "ringkernel::encode's last bytes do not decode back");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

template <class T, bool Varied>
void ringkernel_decode(benchmark::State& state) {
  const decoder_input<T>& in = decoder_bytes<T, Varied>();
  constexpr std::uint64_t mask = Varied ? ring_size - 1 : 0;
  const bool ok = decodes_every_entry(in, [](const std::uint8_t* p, std::size_t size, T& out) {
    const ringkernel::codec_result r = ringkernel::decode(p, size, out);
    return r.status == ringkernel::codec_status::ok && r.size == size;
  });
  if (!ok) fail(state, "ringkernel::decode differs from the message");
  T out{};
  std::uint64_t i = 0;
  for (auto _ : state) {
    const auto e = in.entries[i++ & mask];
    const std::uint8_t* p = in.bytes + e.offset;
    benchmark::DoNotOptimize(p);
    const ringkernel::codec_result r = ringkernel::decode(p, e.size, out);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(out);
  }
  if (i != 0 && !codec_test::values_equal(out, in.messages[(i - 1) & mask])) fail(state, "ringkernel round trip differs");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

template <class T, bool Varied>
void memcpy_encode(benchmark::State& state) {
  auto ring = encoder_input<Varied, T>();
  alignas(64) std::uint8_t out[sizeof(T)];
  escape(out);
  std::uint64_t i = 0;
  for (auto _ : state) {
    T& msg = ring.next(i++);
    benchmark::DoNotOptimize(msg);
    std::memcpy(out, &msg, sizeof msg);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

// The floor of decoding: copying the struct's bytes (decoder_input's messages, 64-byte aligned).
template <class T, bool Varied>
void memcpy_decode(benchmark::State& state) {
  const decoder_input<T>& in = decoder_bytes<T, Varied>();
  constexpr std::uint64_t mask = Varied ? ring_size - 1 : 0;
  T out{};
  std::uint64_t i = 0;
  for (auto _ : state) {
    const T* p = &in.messages[i++ & mask];
    benchmark::DoNotOptimize(p);
    std::memcpy(static_cast<void*>(&out), p, sizeof out);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

// Every row twice: the same message (no suffix) and the varied ring (/varied).
#define BENCH_CODEC_ROWS(fn, T, name)                   \
  BENCHMARK_TEMPLATE2(fn, T, false)->Name(name); \
  BENCHMARK_TEMPLATE2(fn, T, true)->Name(name "/varied")

BENCH_CODEC_ROWS(ringkernel_encode, Small, "encode/Telemetry64/ringkernel");
BENCH_CODEC_ROWS(memcpy_encode, Small, "encode/Telemetry64/memcpy");
BENCH_CODEC_ROWS(ringkernel_decode, Small, "decode/Telemetry64/ringkernel");
BENCH_CODEC_ROWS(memcpy_decode, Small, "decode/Telemetry64/memcpy");
BENCH_CODEC_ROWS(ringkernel_encode, Large, "encode/Order128/ringkernel");
BENCH_CODEC_ROWS(memcpy_encode, Large, "encode/Order128/memcpy");
BENCH_CODEC_ROWS(ringkernel_decode, Large, "decode/Order128/ringkernel");
BENCH_CODEC_ROWS(memcpy_decode, Large, "decode/Order128/memcpy");
#if BENCH_CODEC_MAP_MESSAGES
BENCH_CODEC_ROWS(ringkernel_encode, SmallMap, "encode/Telemetry64Map/ringkernel");
BENCH_CODEC_ROWS(memcpy_encode, SmallMap, "encode/Telemetry64Map/memcpy");
BENCH_CODEC_ROWS(ringkernel_decode, SmallMap, "decode/Telemetry64Map/ringkernel");
BENCH_CODEC_ROWS(memcpy_decode, SmallMap, "decode/Telemetry64Map/memcpy");
BENCH_CODEC_ROWS(ringkernel_encode, LargeMap, "encode/Order128Map/ringkernel");
BENCH_CODEC_ROWS(memcpy_encode, LargeMap, "encode/Order128Map/memcpy");
BENCH_CODEC_ROWS(ringkernel_decode, LargeMap, "decode/Order128Map/ringkernel");
BENCH_CODEC_ROWS(memcpy_decode, LargeMap, "decode/Order128Map/memcpy");
#endif

}  // namespace
}  // namespace bench_codec

BENCHMARK_MAIN();
