// Copyright RingKernel authors.
// Peer: msgpack-cxx with MSGPACK_DEFINE (how C++ users write it by hand): pack into a reused
// msgpack::sbuffer; unpack into a reused zone and convert. The structs mirror the benchmark
// messages field for field; ringkernel::decode must read what the peer writes.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <msgpack.hpp>
#include <vector>

#include "bench_codec_peers.h"
#include "ringkernel/codec.h"

MSGPACK_ADD_ENUM(codec_test::Color);

namespace bench_codec {
namespace {

struct SmallCxx {
  std::uint64_t sequence;
  std::int64_t timestamp_ns;
  std::uint32_t sensor_id;
  std::int32_t status;
  double value;
  float min;
  float max;
  std::uint16_t flags;
  std::uint8_t channel;
  bool valid;
  char unit[20];
  MSGPACK_DEFINE(sequence, timestamp_ns, sensor_id, status, value, min, max, flags, channel, valid, unit);
};

struct LargeCxx {
  std::uint64_t order_id;
  std::uint64_t account_id;
  std::int64_t price_ticks;
  std::int64_t quantity;
  double limit_price;
  std::uint32_t instrument;
  std::int32_t venue;
  codec_test::Color side;
  bool reduce_only;
  std::uint16_t tags;
  char symbol[12];
  std::int32_t legs[4];
  std::uint8_t client_ref[48];
  MSGPACK_DEFINE(order_id, account_id, price_ticks, quantity, limit_price, instrument, venue, side, reduce_only,
                 tags, symbol, legs, client_ref);
};

// The same members as maps keyed by member name (MSGPACK_DEFINE_MAP), for the map messages.
struct SmallMapCxx : SmallCxx {
  MSGPACK_DEFINE_MAP(sequence, timestamp_ns, sensor_id, status, value, min, max, flags, channel, valid, unit);
};
struct LargeMapCxx : LargeCxx {
  MSGPACK_DEFINE_MAP(order_id, account_id, price_ticks, quantity, limit_price, instrument, venue, side, reduce_only,
                     tags, symbol, legs, client_ref);
};

static_assert(sizeof(SmallCxx) == sizeof(Small) && sizeof(LargeCxx) == sizeof(Large));
static_assert(sizeof(SmallMapCxx) == sizeof(Small) && sizeof(LargeMapCxx) == sizeof(Large));

// Same members, same order, same types: the mirror is a byte copy of the message.
SmallCxx sample_small() { return same_layout_copy<SmallCxx>(codec_test::sample_telemetry()); }
LargeCxx sample_large() { return same_layout_copy<LargeCxx>(codec_test::sample_order()); }
void touch(SmallCxx& m, std::uint64_t i) { m.sequence = i; }
void touch(LargeCxx& m, std::uint64_t i) { m.order_id = i; }

// msgpack-cxx 4.x writes a float whose value is integral as an int (125.0f as 7d), so its bytes
// differ from msgpack-c's; they must still decode with ringkernel::decode to the same message.
template <class Cxx, class T>
bool ringkernel_reads_it(const Cxx& c, const T& m) {
  msgpack::sbuffer buffer;
  msgpack::pack(buffer, c);
  T back{};
  const ringkernel::codec_result r =
      ringkernel::decode(reinterpret_cast<const std::uint8_t*>(buffer.data()), buffer.size(), back);
  return r.status == ringkernel::codec_status::ok && r.size == buffer.size() && codec_test::values_equal(back, m);
}

template <class Cxx, class T>
void msgpack_cxx_encode(benchmark::State& state, Cxx msg, T reference) {
  if (!ringkernel_reads_it(msg, reference)) state.SkipWithError("ringkernel::decode cannot read msgpack-cxx's bytes");
  msgpack::sbuffer buffer(256);
  message_ring<Cxx> ring(msg);
  std::uint64_t i = 0;
  for (auto _ : state) {
    Cxx& m = ring.next(i++);
    benchmark::DoNotOptimize(m);
    buffer.clear();
    msgpack::pack(buffer, m);
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(Cxx)));
}

// Decodes the bytes ringkernel::encode writes (the same input as every other decoder; msgpack-cxx's
// own packing is shorter, integral floats as ints) with msgpack-cxx's fastest way for a stream of
// messages: unpack into one reused zone (cleared after each message, as the msgpack-c peer does)
// and convert, str and bin referring into the input (an unpack_reference_func that says so, as
// msgpack-c's msgpack_unpack does; by default msgpack-cxx copies them into the zone). (The
// object_handle form, msgpack::unpack(data, size), allocates a zone and its first 8 KiB chunk for
// every message.)
bool refer_into_input(msgpack::type::object_type, std::size_t, void*) { return true; }

template <class Cxx, class T>
void msgpack_cxx_decode(benchmark::State& state, Cxx msg, T reference) {
  const codec_test::bytes in = codec_test::encode_to_vector(reference);
  msgpack::zone zone;
  Cxx out{};
  for (auto _ : state) {
    benchmark::DoNotOptimize(in.data());
    std::size_t offset = 0;
    const msgpack::object object =
        msgpack::unpack(zone, reinterpret_cast<const char*>(in.data()), in.size(), offset, refer_into_input);
    object.convert(out);
    zone.clear();
    benchmark::DoNotOptimize(out);
  }
  if (std::memcmp(&out, &msg, sizeof out) != 0) state.SkipWithError("msgpack-cxx round trip differs");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(Cxx)));
}

BENCHMARK_CAPTURE(msgpack_cxx_encode, x, sample_small(), codec_test::sample_telemetry())
    ->Name("encode/Telemetry64/msgpack_cxx");
BENCHMARK_CAPTURE(msgpack_cxx_decode, x, sample_small(), codec_test::sample_telemetry())
    ->Name("decode/Telemetry64/msgpack_cxx");
BENCHMARK_CAPTURE(msgpack_cxx_encode, x, sample_large(), codec_test::sample_order())
    ->Name("encode/Order128/msgpack_cxx");
BENCHMARK_CAPTURE(msgpack_cxx_decode, x, sample_large(), codec_test::sample_order())
    ->Name("decode/Order128/msgpack_cxx");
#if BENCH_CODEC_MAP_MESSAGES
BENCHMARK_CAPTURE(msgpack_cxx_encode, x, same_layout_copy<SmallMapCxx>(sample_small()),
                  same_layout_copy<SmallMap>(codec_test::sample_telemetry()))
    ->Name("encode/Telemetry64Map/msgpack_cxx");
BENCHMARK_CAPTURE(msgpack_cxx_decode, x, same_layout_copy<SmallMapCxx>(sample_small()),
                  same_layout_copy<SmallMap>(codec_test::sample_telemetry()))
    ->Name("decode/Telemetry64Map/msgpack_cxx");
BENCHMARK_CAPTURE(msgpack_cxx_encode, x, same_layout_copy<LargeMapCxx>(sample_large()),
                  same_layout_copy<LargeMap>(codec_test::sample_order()))
    ->Name("encode/Order128Map/msgpack_cxx");
BENCHMARK_CAPTURE(msgpack_cxx_decode, x, same_layout_copy<LargeMapCxx>(sample_large()),
                  same_layout_copy<LargeMap>(codec_test::sample_order()))
    ->Name("decode/Order128Map/msgpack_cxx");
#endif

}  // namespace
}  // namespace bench_codec
