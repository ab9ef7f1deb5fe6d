// Copyright RingKernel authors.
// Peer: msgpack-cxx with MSGPACK_DEFINE (how C++ users write it by hand): pack into a reused
// msgpack::sbuffer; unpack into a reused zone and convert. The structs mirror the benchmark
// messages field for field; ringkernel::decode must read what the peer writes.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <msgpack.hpp>
#include <exception>

#include "bench_codec_varied.h"
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
void touch(SmallCxx& m, std::uint64_t i) { m.sequence = i; }
void touch(LargeCxx& m, std::uint64_t i) { m.order_id = i; }

// What ringkernel::decode reads from msgpack-cxx's bytes: msgpack-cxx 4.x writes a float whose
// value is integral as an int (125.0f as 7d; -0.0 too, as 00, so its sign is lost) where msgpack-c
// and RingKernel write a float.
template <class F>
void unsigned_zero(F& f) {
  if (f == F(0)) f = F(0);
}
SmallCxx as_read_back(SmallCxx m) {
  unsigned_zero(m.value);
  unsigned_zero(m.min);
  unsigned_zero(m.max);
  return m;
}
LargeCxx as_read_back(LargeCxx m) {
  unsigned_zero(m.limit_price);
  return m;
}

// msgpack-cxx converts a str into char[N] up to one NUL after it and leaves the rest of the array
// (a reused message keeps the tail of a longer string): zero the tail before comparing.
template <std::size_t N>
void zero_tail(char (&s)[N]) {
  const std::size_t length = strnlen(s, N);
  std::memset(s + length, 0, N - length);
}
template <class Cxx>
Cxx terminated(Cxx m) {
  if constexpr (sizeof(Cxx) == sizeof(Small)) zero_tail(m.unit);
  else zero_tail(m.symbol);
  return m;
}

// Whether ringkernel::decode reads msgpack-cxx's bytes of every message in the ring as the message.
template <class Cxx, class T, class Ring>
bool ringkernel_reads_it(Ring& ring) {
  msgpack::sbuffer buffer;
  for (std::uint64_t k = 0; k < Ring::size; ++k) {
    buffer.clear();
    msgpack::pack(buffer, ring.at(k));
    T back{};
    const ringkernel::codec_result r =
        ringkernel::decode(reinterpret_cast<const std::uint8_t*>(buffer.data()), buffer.size(), back);
    if (r.status != ringkernel::codec_status::ok || r.size != buffer.size() ||
        !codec_test::values_equal(back, same_layout_copy<T>(as_read_back(ring.at(k))))) {
      return false;
    }
  }
  return true;
}

template <class Cxx, class T, bool Varied>
void msgpack_cxx_encode(benchmark::State& state) {
  auto ring = encoder_input<Varied, Cxx, layout_twin_t<T>>();
  if (!ringkernel_reads_it<Cxx, T>(ring)) fail(state, "ringkernel::decode cannot read msgpack-cxx's bytes");
  msgpack::sbuffer buffer(256);
  std::uint64_t i = 0;
  for (auto _ : state) {
    Cxx& m = ring.next(i++);
    benchmark::DoNotOptimize(m);
    buffer.clear();
    msgpack::pack(buffer, m);
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  T back{};
  const ringkernel::codec_result r =
      ringkernel::decode(reinterpret_cast<const std::uint8_t*>(buffer.data()), buffer.size(), back);
  if (i == 0 || r.status != ringkernel::codec_status::ok ||
      !codec_test::values_equal(back, same_layout_copy<T>(as_read_back(ring.at(i - 1))))) {
    fail(state, "msgpack-cxx's last bytes differ");
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

template <class Cxx>
void unpack_convert(msgpack::zone& zone, const std::uint8_t* p, std::size_t size, Cxx& out) {
  std::size_t offset = 0;
  const msgpack::object object =
      msgpack::unpack(zone, reinterpret_cast<const char*>(p), size, offset, refer_into_input);
  object.convert(out);
  zone.clear();
}

template <class Cxx, class T, bool Varied>
void msgpack_cxx_decode(benchmark::State& state) {
  const decoder_input<T>& in = decoder_bytes<T, Varied>();
  constexpr std::uint64_t mask = Varied ? ring_size - 1 : 0;
  msgpack::zone zone;
  Cxx out{};
  try {
    const bool ok = decodes_every_entry(in, [&](const std::uint8_t* p, std::size_t size, T& message) {
      unpack_convert(zone, p, size, out);
      message = same_layout_copy<T>(terminated(out));
      return true;
    });
    if (!ok) fail(state, "msgpack-cxx decodes a different message");
  } catch (const std::exception&) {
    fail(state, "msgpack-cxx cannot decode ringkernel::encode's bytes");
  }
  std::uint64_t i = 0;
  for (auto _ : state) {
    const auto e = in.entries[i++ & mask];
    const std::uint8_t* p = in.bytes + e.offset;
    benchmark::DoNotOptimize(p);
    unpack_convert(zone, p, e.size, out);
    benchmark::DoNotOptimize(out);
  }
  if (i != 0 && !codec_test::values_equal(same_layout_copy<T>(terminated(out)), in.messages[(i - 1) & mask])) {
    fail(state, "msgpack-cxx round trip differs");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(Cxx)));
}

// Every row twice: the same message (no suffix) and the varied ring (/varied).
#define BENCH_CXX_ROWS(fn, Cxx, T, name)                \
  BENCHMARK_TEMPLATE(fn, Cxx, T, false)->Name(name); \
  BENCHMARK_TEMPLATE(fn, Cxx, T, true)->Name(name "/varied")

BENCH_CXX_ROWS(msgpack_cxx_encode, SmallCxx, Small, "encode/Telemetry64/msgpack_cxx");
BENCH_CXX_ROWS(msgpack_cxx_decode, SmallCxx, Small, "decode/Telemetry64/msgpack_cxx");
BENCH_CXX_ROWS(msgpack_cxx_encode, LargeCxx, Large, "encode/Order128/msgpack_cxx");
BENCH_CXX_ROWS(msgpack_cxx_decode, LargeCxx, Large, "decode/Order128/msgpack_cxx");
#if BENCH_CODEC_MAP_MESSAGES
BENCH_CXX_ROWS(msgpack_cxx_encode, SmallMapCxx, SmallMap, "encode/Telemetry64Map/msgpack_cxx");
BENCH_CXX_ROWS(msgpack_cxx_decode, SmallMapCxx, SmallMap, "decode/Telemetry64Map/msgpack_cxx");
BENCH_CXX_ROWS(msgpack_cxx_encode, LargeMapCxx, LargeMap, "encode/Order128Map/msgpack_cxx");
BENCH_CXX_ROWS(msgpack_cxx_decode, LargeMapCxx, LargeMap, "decode/Order128Map/msgpack_cxx");
#endif

}  // namespace
}  // namespace bench_codec
