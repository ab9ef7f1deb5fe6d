// Copyright RingKernel authors.
// bench_codec: ringkernel::encode / decode against memcpy of the struct (the floor) here, and against
// msgpack-cxx MSGPACK_DEFINE and hand-written msgpack-c in the peer files, all in one run.
// Names: <encode|decode>/<message>/<implementation>; <message>Map: the same message in map format
// (bench_map_messages.h; msgpack-cxx's peer then uses MSGPACK_DEFINE_MAP). Results: bench/RESULTS.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "bench_codec_peers.h"
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

template <class T>
T sample();
template <>
Small sample<Small>() { return codec_test::sample_telemetry(); }
template <>
Large sample<Large>() { return codec_test::sample_order(); }
#if BENCH_CODEC_MAP_MESSAGES
template <>
SmallMap sample<SmallMap>() { return same_layout_copy<SmallMap>(codec_test::sample_telemetry()); }
template <>
LargeMap sample<LargeMap>() { return same_layout_copy<LargeMap>(codec_test::sample_order()); }
#endif

template <class T>
void ringkernel_encode(benchmark::State& state) {
  message_ring<T> ring(sample<T>());
  alignas(64) std::uint8_t out[ringkernel::max_encoded_size<T>];
  escape(out);
  std::uint64_t i = 0;
  for (auto _ : state) {
    T& msg = ring.next(i++);
    benchmark::DoNotOptimize(msg);
    const ringkernel::codec_result r = ringkernel::encode(msg, out, sizeof out);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

template <class T>
void ringkernel_decode(benchmark::State& state) {
  const T msg = sample<T>();
  alignas(64) std::uint8_t in[ringkernel::max_encoded_size<T>];
  const ringkernel::codec_result encoded = ringkernel::encode(msg, in, sizeof in);
  if (encoded.status != ringkernel::codec_status::ok) std::abort();
  T out{};
  for (auto _ : state) {
    benchmark::DoNotOptimize(in);
    const ringkernel::codec_result r = ringkernel::decode(in, encoded.size, out);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(out);
  }
  if (!codec_test::values_equal(out, msg)) std::abort();
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

template <class T>
void memcpy_encode(benchmark::State& state) {
  message_ring<T> ring(sample<T>());
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

template <class T>
void memcpy_decode(benchmark::State& state) {
  const T msg = sample<T>();
  alignas(64) std::uint8_t in[sizeof(T)];
  std::memcpy(in, &msg, sizeof msg);
  T out{};
  for (auto _ : state) {
    benchmark::DoNotOptimize(in);
    std::memcpy(&out, in, sizeof out);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

BENCHMARK(ringkernel_encode<Small>)->Name("encode/Telemetry64/ringkernel");
BENCHMARK(memcpy_encode<Small>)->Name("encode/Telemetry64/memcpy");
BENCHMARK(ringkernel_decode<Small>)->Name("decode/Telemetry64/ringkernel");
BENCHMARK(memcpy_decode<Small>)->Name("decode/Telemetry64/memcpy");
BENCHMARK(ringkernel_encode<Large>)->Name("encode/Order128/ringkernel");
BENCHMARK(memcpy_encode<Large>)->Name("encode/Order128/memcpy");
BENCHMARK(ringkernel_decode<Large>)->Name("decode/Order128/ringkernel");
BENCHMARK(memcpy_decode<Large>)->Name("decode/Order128/memcpy");
#if BENCH_CODEC_MAP_MESSAGES
BENCHMARK(ringkernel_encode<SmallMap>)->Name("encode/Telemetry64Map/ringkernel");
BENCHMARK(memcpy_encode<SmallMap>)->Name("encode/Telemetry64Map/memcpy");
BENCHMARK(ringkernel_decode<SmallMap>)->Name("decode/Telemetry64Map/ringkernel");
BENCHMARK(memcpy_decode<SmallMap>)->Name("decode/Telemetry64Map/memcpy");
BENCHMARK(ringkernel_encode<LargeMap>)->Name("encode/Order128Map/ringkernel");
BENCHMARK(memcpy_encode<LargeMap>)->Name("encode/Order128Map/memcpy");
BENCHMARK(ringkernel_decode<LargeMap>)->Name("decode/Order128Map/ringkernel");
BENCHMARK(memcpy_decode<LargeMap>)->Name("decode/Order128Map/memcpy");
#endif

}  // namespace
}  // namespace bench_codec

BENCHMARK_MAIN();
