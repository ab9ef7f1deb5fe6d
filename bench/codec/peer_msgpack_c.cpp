// Copyright RingKernel authors.
// Peer: msgpack-c's C API written by hand, as a careful C programmer would: msgpack_pack_* calls
// into a fixed buffer (no allocation), and msgpack_unpack into a reused zone followed by a checked
// field-by-field conversion. Must produce the same bytes as ringkernel::encode.
#include <benchmark/benchmark.h>
#include <msgpack.h>

#include <cstdint>
#include <cstring>

#include "bench_codec_varied.h"
#include "ringkernel/codec.h"

namespace bench_codec {
namespace {

struct fixed_buffer {
  std::uint8_t data[512];
  std::size_t size;
};

int fixed_buffer_write(void* target, const char* bytes, size_t length) {
  auto* b = static_cast<fixed_buffer*>(target);
  if (length > sizeof b->data - b->size) return -1;
  std::memcpy(b->data + b->size, bytes, length);
  b->size += length;
  return 0;
}

void pack_str(msgpack_packer* pk, const char* s, std::size_t capacity) {
  const std::size_t length = strnlen(s, capacity);
  msgpack_pack_str(pk, length);
  msgpack_pack_str_body(pk, s, length);
}

void pack(msgpack_packer* pk, const Small& m) {
  msgpack_pack_array(pk, 11);
  msgpack_pack_uint64(pk, m.sequence);
  msgpack_pack_int64(pk, m.timestamp_ns);
  msgpack_pack_uint32(pk, m.sensor_id);
  msgpack_pack_int32(pk, m.status);
  msgpack_pack_double(pk, m.value);
  msgpack_pack_float(pk, m.min);
  msgpack_pack_float(pk, m.max);
  msgpack_pack_uint16(pk, m.flags);
  msgpack_pack_uint8(pk, m.channel);
  m.valid ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
  pack_str(pk, m.unit, sizeof m.unit);
}

void pack(msgpack_packer* pk, const Large& m) {
  msgpack_pack_array(pk, 13);
  msgpack_pack_uint64(pk, m.order_id);
  msgpack_pack_uint64(pk, m.account_id);
  msgpack_pack_int64(pk, m.price_ticks);
  msgpack_pack_int64(pk, m.quantity);
  msgpack_pack_double(pk, m.limit_price);
  msgpack_pack_uint32(pk, m.instrument);
  msgpack_pack_int32(pk, m.venue);
  msgpack_pack_uint8(pk, static_cast<std::uint8_t>(m.side));
  m.reduce_only ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
  msgpack_pack_uint16(pk, m.tags);
  pack_str(pk, m.symbol, sizeof m.symbol);
  msgpack_pack_array(pk, 4);
  for (std::int32_t leg : m.legs) msgpack_pack_int32(pk, leg);
  msgpack_pack_bin(pk, sizeof m.client_ref);
  msgpack_pack_bin_body(pk, m.client_ref, sizeof m.client_ref);
}

// Checked conversions of one msgpack_object (what hand-written C decoding has to do).
template <class U>
bool get_unsigned(const msgpack_object& o, U& out) {
  if (o.type != MSGPACK_OBJECT_POSITIVE_INTEGER || o.via.u64 > static_cast<std::uint64_t>(static_cast<U>(~U{0}))) return false;
  out = static_cast<U>(o.via.u64);
  return true;
}
template <class S>
bool get_signed(const msgpack_object& o, S& out, std::int64_t min, std::int64_t max) {
  if (o.type == MSGPACK_OBJECT_POSITIVE_INTEGER && o.via.u64 <= static_cast<std::uint64_t>(max)) {
    out = static_cast<S>(o.via.u64);
    return true;
  }
  if (o.type == MSGPACK_OBJECT_NEGATIVE_INTEGER && o.via.i64 >= min) {
    out = static_cast<S>(o.via.i64);
    return true;
  }
  return false;
}
template <class F>
bool get_float(const msgpack_object& o, F& out) {
  if (o.type != MSGPACK_OBJECT_FLOAT32 && o.type != MSGPACK_OBJECT_FLOAT64) return false;
  out = static_cast<F>(o.via.f64);
  return true;
}
bool get_bool(const msgpack_object& o, bool& out) {
  if (o.type != MSGPACK_OBJECT_BOOLEAN) return false;
  out = o.via.boolean;
  return true;
}
bool get_str(const msgpack_object& o, char* out, std::size_t capacity) {
  if (o.type != MSGPACK_OBJECT_STR || o.via.str.size > capacity) return false;
  std::memcpy(out, o.via.str.ptr, o.via.str.size);
  std::memset(out + o.via.str.size, 0, capacity - o.via.str.size);
  return true;
}

bool convert(const msgpack_object& o, Small& m) {
  if (o.type != MSGPACK_OBJECT_ARRAY || o.via.array.size < 11) return false;
  const msgpack_object* f = o.via.array.ptr;
  return get_unsigned(f[0], m.sequence) && get_signed(f[1], m.timestamp_ns, INT64_MIN, INT64_MAX) &&
         get_unsigned(f[2], m.sensor_id) && get_signed(f[3], m.status, INT32_MIN, INT32_MAX) &&
         get_float(f[4], m.value) && get_float(f[5], m.min) && get_float(f[6], m.max) &&
         get_unsigned(f[7], m.flags) && get_unsigned(f[8], m.channel) && get_bool(f[9], m.valid) &&
         get_str(f[10], m.unit, sizeof m.unit);
}

bool convert(const msgpack_object& o, Large& m) {
  if (o.type != MSGPACK_OBJECT_ARRAY || o.via.array.size < 13) return false;
  const msgpack_object* f = o.via.array.ptr;
  std::uint8_t side = 0;
  if (!(get_unsigned(f[0], m.order_id) && get_unsigned(f[1], m.account_id) &&
        get_signed(f[2], m.price_ticks, INT64_MIN, INT64_MAX) && get_signed(f[3], m.quantity, INT64_MIN, INT64_MAX) &&
        get_float(f[4], m.limit_price) && get_unsigned(f[5], m.instrument) &&
        get_signed(f[6], m.venue, INT32_MIN, INT32_MAX) && get_unsigned(f[7], side) && get_bool(f[8], m.reduce_only) &&
        get_unsigned(f[9], m.tags) && get_str(f[10], m.symbol, sizeof m.symbol))) {
    return false;
  }
  m.side = static_cast<codec_test::Color>(side);
  const msgpack_object& legs = f[11];
  if (legs.type != MSGPACK_OBJECT_ARRAY || legs.via.array.size != 4) return false;
  for (std::size_t i = 0; i < 4; ++i) {
    if (!get_signed(legs.via.array.ptr[i], m.legs[i], INT32_MIN, INT32_MAX)) return false;
  }
  const msgpack_object& ref = f[12];
  if (ref.type != MSGPACK_OBJECT_BIN || ref.via.bin.size != sizeof m.client_ref) return false;
  std::memcpy(m.client_ref, ref.via.bin.ptr, sizeof m.client_ref);
  return true;
}

// Whether pack writes the bytes ringkernel::encode writes for msg.
template <class T>
bool same_bytes_as_ringkernel(msgpack_packer* pk, fixed_buffer& buffer, const T& msg) {
  buffer.size = 0;
  pack(pk, msg);
  const codec_test::bytes ours = codec_test::encode_to_vector(msg);
  return buffer.size == ours.size() && std::memcmp(buffer.data, ours.data(), ours.size()) == 0;
}

template <class T, bool Varied>
void msgpack_c_encode(benchmark::State& state) {
  auto ring = encoder_input<Varied, T>();
  fixed_buffer buffer{};
  msgpack_packer pk;
  msgpack_packer_init(&pk, &buffer, fixed_buffer_write);
  for (std::uint64_t k = 0; k < decltype(ring)::size; ++k) {
    if (!same_bytes_as_ringkernel(&pk, buffer, ring.at(k))) fail(state, "msgpack-c bytes differ from ringkernel::encode");
  }
  std::uint64_t i = 0;
  for (auto _ : state) {
    T& m = ring.next(i++);
    benchmark::DoNotOptimize(m);
    buffer.size = 0;
    pack(&pk, m);
    benchmark::DoNotOptimize(buffer);
    benchmark::ClobberMemory();
  }
  const codec_test::bytes last = i == 0 ? codec_test::bytes{} : codec_test::encode_to_vector(ring.at(i - 1));
  if (buffer.size != last.size() || std::memcmp(buffer.data, last.data(), last.size()) != 0) {
    fail(state, "msgpack-c's last bytes differ from ringkernel::encode");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

bool unpack_convert(msgpack_zone& zone, const std::uint8_t* p, std::size_t size, auto& out) {
  std::size_t offset = 0;
  msgpack_object object;
  bool ok = msgpack_unpack(reinterpret_cast<const char*>(p), size, &offset, &zone, &object) == MSGPACK_UNPACK_SUCCESS;
  ok &= convert(object, out);
  msgpack_zone_clear(&zone);
  return ok;
}

template <class T, bool Varied>
void msgpack_c_decode(benchmark::State& state) {
  const decoder_input<T>& in = decoder_bytes<T, Varied>();
  constexpr std::uint64_t mask = Varied ? ring_size - 1 : 0;
  msgpack_zone zone;
  msgpack_zone_init(&zone, 2048);
  const bool checked = decodes_every_entry(in, [&](const std::uint8_t* p, std::size_t size, T& out) {
    return unpack_convert(zone, p, size, out);
  });
  if (!checked) fail(state, "msgpack-c decodes a different message");
  T out{};
  bool ok = true;
  std::uint64_t i = 0;
  for (auto _ : state) {
    const auto e = in.entries[i++ & mask];
    const std::uint8_t* p = in.bytes + e.offset;
    benchmark::DoNotOptimize(p);
    ok &= unpack_convert(zone, p, e.size, out);
    benchmark::DoNotOptimize(out);
  }
  msgpack_zone_destroy(&zone);
  if (!ok || (i != 0 && !codec_test::values_equal(out, in.messages[(i - 1) & mask]))) {
    fail(state, "msgpack-c round trip failed");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sizeof(T)));
}

// Every row twice: the same message (no suffix) and the varied ring (/varied).
#define BENCH_C_ROWS(fn, T, name)                       \
  BENCHMARK_TEMPLATE(fn, T, false)->Name(name); \
  BENCHMARK_TEMPLATE(fn, T, true)->Name(name "/varied")

BENCH_C_ROWS(msgpack_c_encode, Small, "encode/Telemetry64/msgpack_c");
BENCH_C_ROWS(msgpack_c_decode, Small, "decode/Telemetry64/msgpack_c");
BENCH_C_ROWS(msgpack_c_encode, Large, "encode/Order128/msgpack_c");
BENCH_C_ROWS(msgpack_c_decode, Large, "decode/Order128/msgpack_c");

}  // namespace
}  // namespace bench_codec
