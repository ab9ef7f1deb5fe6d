// Copyright RingKernel authors.
// The generated registry run in device code (label gpu), registry device_routes
// (messaging_messages.h and registry_device_messages.h: 8 messages, 7 kernels, every direction,
// several priorities, causal and map messages, kernels without receives or without sends):
//  - find / find_kernel in a kernel, for every type id and kernel id of the host tables, return
//    entries of the device tables (device_tables::messages / kernels, at the host table's index)
//    whose type id, name, kernel, kernel id, direction, priority, causal, format, size, alignment,
//    field count, receive and send lists are the host table's (names read through the device
//    tables' pointers); ids that no entry has give nullptr;
//  - dispatch (a raw payload), dispatch_kernel_message (a raw KernelMessage<T>) and
//    dispatch_envelope (an envelope encoded on the host by the generated codec) route one message of
//    each type to a visitor (through ringkernel::on_device) that records the type it got and a
//    checksum of the message's field values, compared with the host's;
//  - hostile inputs give the documented statuses (docs/generator.md, "The generated API") with no
//    visitor call: an unknown type id for each of the three, every truncation of every envelope,
//    bytes that are no envelope, a raw message shorter than its KernelMessage<T> or below the type
//    id's end, and a misaligned one.
// Every case also runs through the same code on the host first: the host's results must be the
// documented ones (that part runs without a device too, then the test skips with the reason), and
// the device's must equal the host's. Each case's bytes lie in their own cudaMalloc of exactly
// their size, so compute-sanitizer memcheck reports a read past them; every output buffer is
// zeroed before the kernels write it (initcheck). One thread per case, no loop without a bound.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "device_routes.registry.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/kernel_message.h"

#include "cuda_check.h"

namespace {

namespace reg = ringkernel::registry::device_routes;
using messaging_test::Blob64;
using messaging_test::Reading;
using messaging_test::Tagged;
using messaging_test::Tick;
using registry_device_test::Drain;
using registry_device_test::Hop;
using registry_device_test::Mode;
using registry_device_test::Route;
using registry_device_test::RouteDone;
using ringkernel::codec_result;
using ringkernel::codec_status;
using ringkernel::KernelMessage;
using bytes = std::vector<std::uint8_t>;

static_assert(reg::message_count == 8 && reg::kernel_count == 7,
              "the tests below send one message of each type of the registry (samples())");
static_assert(reg::contains_v<Tagged> && reg::contains_v<Tick> && reg::contains_v<Reading> && reg::contains_v<Blob64> &&
              reg::contains_v<Route> && reg::contains_v<RouteDone> && reg::contains_v<Hop> && reg::contains_v<Drain>);

/// A type id and a kernel id that the registry lacks (checked on the host).
constexpr std::uint32_t unknown_type_id = 0xdeadbeefu;

// ---------------------------------------------------------------------------------------------
// A checksum of a message's values: FNV-1a 64 over every field, field by field through
// message_traits (nested messages and arrays element by element, so padding never counts), and over
// every header field of a KernelMessage; the same code on the host and the device.

struct checksum {
  std::uint64_t value = 0xcbf29ce484222325ull;
  __host__ __device__ void add_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      value ^= b[i];
      value *= 0x100000001b3ull;
    }
  }
  template <class F>
  __host__ __device__ void add(const F& v);
};

struct field_adder {
  checksum* sum;
  template <std::size_t I, class F>
  __host__ __device__ void operator()(ringkernel::field_index<I>, const F& v) const {
    const std::uint32_t index = I;  // which field, so that two fields' values cannot trade places
    sum->add_bytes(&index, sizeof index);
    sum->add(v);
  }
};

template <class F>
__host__ __device__ void checksum::add(const F& v) {
  if constexpr (std::is_array_v<F>) {
    for (std::size_t i = 0; i < std::extent_v<F>; ++i) add(v[i]);
  } else if constexpr (ringkernel::is_message_v<F>) {
    ringkernel::message_traits<F>::visit_fields(v, field_adder{this});
  } else {
    static_assert(std::is_scalar_v<F>, "fields are scalars, arrays or messages");
    add_bytes(&v, sizeof v);
  }
}

template <class T>
__host__ __device__ std::uint64_t payload_checksum(const T& payload) {
  checksum c;
  c.add(payload);
  return c.value;
}

template <class T>
__host__ __device__ std::uint64_t message_checksum(const KernelMessage<T>& m) {
  checksum c;
  c.add(m.header.sequence);
  c.add(m.header.timestamp_us);
  c.add(m.header.type_id);
  c.add(m.header.sender_id);
  c.add(m.header.receiver_id);
  c.add(m.header.type);
  c.add(m.header.flags);
  c.add(m.header.reserved);
  if constexpr (KernelMessage<T>::causal) c.add(m.header.hlc.bits);
  c.add(m.payload);
  return c.value;
}

// ---------------------------------------------------------------------------------------------
// Routing cases: what the visitor saw and what the call returned.

struct visit_record {
  std::uint32_t calls;
  std::uint32_t type_id;  // message_traits<T>::type_id of the T of the last call
  std::uint64_t checksum;  // payload_checksum (dispatch) or message_checksum (the others) of it
};

/// The visitor of every case: accepts each message type of the registry, raw (`dispatch`) or as a
/// KernelMessage<T> (`dispatch_kernel_message`, `dispatch_envelope`).
struct Recorder {
  visit_record* record;
  template <class M>
  __host__ __device__ void operator()(const M& m) const {
    ++record->calls;
    if constexpr (ringkernel::is_kernel_message_v<M>) {
      record->type_id = ringkernel::message_traits<typename M::payload_type>::type_id;
      record->checksum = message_checksum(m);
    } else {
      record->type_id = ringkernel::message_traits<M>::type_id;
      record->checksum = payload_checksum(m);
    }
  }
};

enum class route : std::uint32_t { dispatch = 0, kernel_message = 1, envelope = 2 };

/// One case as the code under test gets it (`in`: host or device bytes).
struct case_view {
  route how;
  std::uint32_t type_id;  // dispatch's type id
  const std::uint8_t* in;
  std::size_t size;  // dispatch_kernel_message's and dispatch_envelope's size
};

struct outcome {
  std::uint32_t dispatched;  // dispatch's result (1: true)
  std::uint32_t status;      // codec_status of the other two
  std::uint64_t size;        // codec_result::size
  visit_record visit;
};
static_assert(sizeof(outcome) == 32 && sizeof(case_view) == 24, "no padding: every byte is written");

template <class Visitor>
__host__ __device__ void run_case(const case_view& c, Visitor&& visitor, outcome& out) {
  switch (c.how) {
    case route::dispatch:
      out.dispatched = reg::dispatch(c.type_id, c.in, visitor) ? 1u : 0u;
      break;
    case route::kernel_message: {
      const codec_result r = reg::dispatch_kernel_message(c.in, c.size, visitor);
      out.status = static_cast<std::uint32_t>(r.status);
      out.size = r.size;
      break;
    }
    case route::envelope: {
      const codec_result r = reg::dispatch_envelope(c.in, c.size, visitor);
      out.status = static_cast<std::uint32_t>(r.status);
      out.size = r.size;
      break;
    }
  }
}

__global__ void run_cases(const case_view* cases, std::size_t count, outcome* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  outcome o{};
  run_case(cases[i], ringkernel::on_device(Recorder{&o.visit}), o);
  out[i] = o;
}

/// A case and what the documentation says of it.
struct test_case {
  std::string what;
  route how;
  std::uint32_t type_id;  // dispatch only
  bytes data;             // the bytes at `in`; a case's allocation holds offset + data.size() bytes
  std::size_t offset;     // `in` lies this far past a 256-byte aligned start (misaligned cases)
  std::size_t size;       // passed to dispatch_kernel_message / dispatch_envelope
  // Expected: dispatched (dispatch), status and size (the others; `size_at_most`: only size <=
  // expect_size, for truncations, whose offset is decode_envelope's, compared with the host's run);
  // calls, and for one call its type id and checksum.
  std::uint32_t expect_dispatched = 0;
  codec_status expect_status = codec_status::ok;
  std::size_t expect_size = 0;
  bool size_at_most = false;
  std::uint32_t expect_calls = 0;
  std::uint32_t expect_type_id = 0;
  std::uint64_t expect_checksum = 0;
};

template <class T>
bytes object_bytes(const T& v) {
  bytes out(sizeof v);
  std::memcpy(out.data(), &v, sizeof v);
  return out;
}

template <class T>
bytes envelope_bytes(const KernelMessage<T>& m) {
  bytes out(ringkernel::max_envelope_encoded_size<T>);
  const codec_result r = ringkernel::encode_envelope(m, out.data(), out.size());
  EXPECT_EQ(r.status, codec_status::ok) << "encode_envelope of " << ringkernel::message_traits<T>::name;
  out.resize(r.status == codec_status::ok ? r.size : 0);
  return out;
}

/// One message of each type of the registry, every header field and every payload field set
/// (chars after a string's NUL stay 0: the codec sends char arrays as strings). Which message gets
/// which sequence number depends on the order make_tuple's arguments are evaluated in; nothing
/// compares them with a fixed value.
auto samples() {
  std::uint64_t n = 0;
  const auto with_header = [&n](auto m) {
    ++n;
    m.header.sequence = 1000 + n;
    m.header.timestamp_us = 1'760'000'000'000'000 + static_cast<std::int64_t>(n);
    if constexpr (std::remove_cvref_t<decltype(m)>::causal) {
      m.header.hlc = ringkernel::hlc_timestamp{(static_cast<std::uint64_t>(m.header.timestamp_us) << 12) | n};
    }
    return m;
  };
  const Route route{0x01020304u, Mode::run, true, -3, 0x0123456789abcdefull};
  return std::make_tuple(
      with_header(KernelMessage<Tagged>::create_data(1, 2, Tagged{3, 4, 42})),
      with_header(KernelMessage<Tick>::create_data(2, 3, Tick{-7, 2.5f, "dispatch"})),
      with_header(KernelMessage<Reading>::create_control(4, ringkernel::broadcast_receiver,
                                                         Reading{Tagged{1, 0, 2}, {0.5, 1.0, -2.0}})),
      with_header(KernelMessage<Blob64>::create_data(5, 6, Blob64{{1, 2, 3, 4, 5, 6, 7, ~0ull}})),
      with_header(KernelMessage<Route>::create_data(7, 8, route)),
      with_header(KernelMessage<RouteDone>::create_data(8, 7, RouteDone{-0x0123456789abcdefll, 0.125})),
      with_header(KernelMessage<Hop>::create(9, 10, ringkernel::MessageType::ack,
                                             Hop{route, {{1.5f, -2.0f, 0.25f}, {3.0f, 1e-3f, -7.5f}}})),
      with_header(KernelMessage<Drain>::create(11, 12, ringkernel::MessageType::heartbeat, Drain{513, "sink"})));
}

/// Bytes of the MessagePack unsigned integer whose first byte is `first` (0: none).
std::size_t uint_length(std::uint8_t first) {
  switch (first) {
    case 0xce: return 5;  // uint 32
    case 0xcd: return 3;  // uint 16 (Drain's explicit id)
    case 0xcc: return 2;  // uint 8
    default: return first <= 0x7f ? 1 : 0;  // positive fixint
  }
}

/// The cases for one sample message m of type T.
template <class T>
void add_cases(const KernelMessage<T>& m, std::vector<test_case>& cases) {
  using traits = ringkernel::message_traits<T>;
  using message = KernelMessage<T>;
  const std::string name = traits::name;
  const std::uint64_t whole = message_checksum(m);

  // The three routes, each with one call of T's visitor.
  cases.push_back({name + ": dispatch", route::dispatch, traits::type_id, object_bytes(m.payload), 0, sizeof(T), 1u,
                   codec_status::ok, 0, false, 1, traits::type_id, payload_checksum(m.payload)});
  const bytes raw = object_bytes(m);
  cases.push_back({name + ": dispatch_kernel_message", route::kernel_message, 0, raw, 0, sizeof(message), 0,
                   codec_status::ok, sizeof(message), false, 1, traits::type_id, whole});
  const bytes envelope = envelope_bytes(m);
  cases.push_back({name + ": dispatch_envelope", route::envelope, 0, envelope, 0, envelope.size(), 0,
                   codec_status::ok, envelope.size(), false, 1, traits::type_id, whole});

  // dispatch_kernel_message: one byte short of KernelMessage<T> (truncated_input at 0), aligned to 4
  // only (invalid_input at 0), a type id that the registry lacks (wrong_message_type at 16).
  cases.push_back({name + ": dispatch_kernel_message, size one short", route::kernel_message, 0,
                   bytes(raw.begin(), raw.end() - 1), 0, sizeof(message) - 1, 0, codec_status::truncated_input, 0});
  static_assert(alignof(message) >= 8);
  cases.push_back({name + ": dispatch_kernel_message, misaligned", route::kernel_message, 0, raw, 4, sizeof(message), 0,
                   codec_status::invalid_input, 0});
  message unknown = m;
  unknown.header.type_id = unknown_type_id;
  cases.push_back({name + ": dispatch_kernel_message, unknown type id", route::kernel_message, 0, object_bytes(unknown),
                   0, sizeof(message), 0, codec_status::wrong_message_type, ringkernel::envelope_type_id_offset});

  // dispatch_envelope: the type id replaced by a uint 32 one that the registry lacks (wrong_message_type
  // at 1, where it starts after the fixarray), and every truncation (truncated_input at an offset no
  // further).
  const std::size_t id_length = envelope.size() < 2 ? 0 : uint_length(envelope[1]);
  if (envelope[0] == 0x98 && id_length != 0 && envelope.size() > 1 + id_length) {
    bytes other = {0x98, 0xce, 0xde, 0xad, 0xbe, 0xef};  // unknown_type_id
    other.insert(other.end(), envelope.begin() + 1 + static_cast<std::ptrdiff_t>(id_length), envelope.end());
    cases.push_back({name + ": dispatch_envelope, unknown type id", route::envelope, 0, other, 0, other.size(), 0,
                     codec_status::wrong_message_type, 1});
  } else {
    ADD_FAILURE() << name << ": the test expects an envelope to start with a fixarray of 8 and an unsigned type id";
  }
  for (std::size_t n = 0; n < envelope.size(); ++n) {
    cases.push_back({name + ": dispatch_envelope, truncated to " + std::to_string(n) + " bytes", route::envelope, 0,
                     bytes(envelope.begin(), envelope.begin() + static_cast<std::ptrdiff_t>(n)), 0, n, 0,
                     codec_status::truncated_input, n, true});
  }
}

std::vector<test_case> all_cases() {
  std::vector<test_case> cases;
  std::apply([&](const auto&... m) { (add_cases(m, cases), ...); }, samples());

  // dispatch of an id the registry lacks: false, no call (the bytes are a valid Blob64 all the same).
  const bytes blob = object_bytes(Blob64{{9, 8, 7, 6, 5, 4, 3, 2}});
  for (const std::uint32_t id : {unknown_type_id, 0u, 0xffffffffu, ringkernel::message_traits<Blob64>::kernel_id}) {
    cases.push_back({"dispatch, unknown type id " + std::to_string(id), route::dispatch, id, blob, 0, blob.size()});
  }
  // dispatch_kernel_message below the type id's end: truncated_input at 0 (no bytes read at all).
  const bytes tagged = object_bytes(std::get<0>(samples()));
  cases.push_back({"dispatch_kernel_message, no bytes", route::kernel_message, 0, {}, 0, 0, 0,
                   codec_status::truncated_input, 0});
  cases.push_back({"dispatch_kernel_message, 19 bytes", route::kernel_message, 0,
                   bytes(tagged.begin(), tagged.begin() + 19),
                   0, 19, 0, codec_status::truncated_input, 0});
  // Bytes that are no envelope: peek_envelope_type_id's status and offset.
  for (const bytes& in :
       {bytes{0xc1}, bytes{0x97, 0x01}, bytes{0x88, 0x01}, bytes{0x98, 0xa1, 'x'}, bytes{0x98, 0xc1}}) {
    std::uint32_t id = 0;
    const codec_result peeked = ringkernel::peek_envelope_type_id(in.data(), in.size(), id);
    EXPECT_NE(peeked.status, codec_status::ok);
    cases.push_back({"dispatch_envelope, no envelope (" + std::to_string(in.size()) + " bytes, first " +
                         std::to_string(in[0]) + ")",
                     route::envelope, 0, in, 0, in.size(), 0, peeked.status, peeked.size});
  }
  return cases;
}

/// Host memory for a case: `offset + data` in a 256-byte aligned block, like a cudaMalloc.
struct alignas(256) block {
  unsigned char bytes[256];
};

outcome run_on_host(const test_case& c) {
  std::vector<block> memory((c.offset + c.data.size()) / sizeof(block) + 1);
  auto* at = reinterpret_cast<std::uint8_t*>(memory.data()) + c.offset;
  if (!c.data.empty()) std::memcpy(at, c.data.data(), c.data.size());
  outcome o{};
  run_case(case_view{c.how, c.type_id, at, c.size}, Recorder{&o.visit}, o);
  return o;
}

void expect_documented(const test_case& c, const outcome& o, const char* where) {
  SCOPED_TRACE(std::string(where) + ": " + c.what);
  if (c.how == route::dispatch) {
    EXPECT_EQ(o.dispatched, c.expect_dispatched);
  } else {
    EXPECT_EQ(static_cast<codec_status>(o.status), c.expect_status)
        << ringkernel::to_string(static_cast<codec_status>(o.status)) << ", expected "
        << ringkernel::to_string(c.expect_status);
    if (c.size_at_most) {
      EXPECT_LE(o.size, c.expect_size);
    } else {
      EXPECT_EQ(o.size, c.expect_size);
    }
  }
  EXPECT_EQ(o.visit.calls, c.expect_calls);
  if (c.expect_calls == 1) {
    EXPECT_EQ(o.visit.type_id, c.expect_type_id) << "the visitor got another type";
    EXPECT_EQ(o.visit.checksum, c.expect_checksum) << "the visitor got other values";
  }
}

// ---------------------------------------------------------------------------------------------
// Table look-ups.

constexpr std::size_t name_capacity = 64;
constexpr std::size_t list_capacity = 8;

struct message_lookup {
  std::uint32_t found;
  std::int32_t index;  // into the table that find searched (device_tables::messages on the device), -1 outside it
  std::uint32_t type_id, kernel_id, direction, priority, causal, format, size, alignment, field_count;
  std::uint32_t name_null, kernel_null;
  std::uint32_t kernel_found;  // find_kernel(kernel_id) of this message
  std::int32_t kernel_index;
  std::uint32_t unused;
  char name[name_capacity];
  char kernel[name_capacity];
  char kernel_name[name_capacity];  // find_kernel(kernel_id)->name
};

struct kernel_lookup {
  std::uint32_t found;
  std::int32_t index;
  std::uint32_t kernel_id, receive_count, send_count, receives_null, sends_null, name_null;
  std::uint32_t receives[list_capacity];
  std::uint32_t sends[list_capacity];
  char name[name_capacity];
};
static_assert(sizeof(message_lookup) == 64 + 3 * name_capacity &&
                  sizeof(kernel_lookup) == 32 + 8 * list_capacity + name_capacity,
              "no padding: every byte is written");

/// Copies a table's string through its pointer (at most name_capacity - 1 characters); 1 if null.
__device__ std::uint32_t copy_name(const char* from, char (&to)[name_capacity]) {
  if (from == nullptr) return 1;
  for (std::size_t i = 0; i + 1 < name_capacity && from[i] != '\0'; ++i) to[i] = from[i];
  return 0;
}

__device__ void copy_list(const std::uint32_t* from, std::uint32_t count, std::uint32_t (&to)[list_capacity]) {
  for (std::uint32_t i = 0; i < count && i < list_capacity; ++i) to[i] = from[i];
}

__global__ void look_up_messages(const std::uint32_t* ids, std::size_t count, message_lookup* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  message_lookup r{};
  r.index = -1;
  r.kernel_index = -1;
  if (const ringkernel::message_info* m = reg::find(ids[i])) {
    r.found = 1;
    const std::ptrdiff_t at = m - reg::device_tables::messages;
    if (at >= 0 && at < static_cast<std::ptrdiff_t>(reg::message_count)) r.index = static_cast<std::int32_t>(at);
    r.type_id = m->type_id;
    r.kernel_id = m->kernel_id;
    r.direction = static_cast<std::uint32_t>(m->direction);
    r.priority = m->priority;
    r.causal = m->causal ? 1 : 0;
    r.format = static_cast<std::uint32_t>(m->format);
    r.size = m->size;
    r.alignment = m->alignment;
    r.field_count = m->field_count;
    r.name_null = copy_name(m->name, r.name);
    r.kernel_null = copy_name(m->kernel, r.kernel);
    if (const reg::kernel_info* k = reg::find_kernel(m->kernel_id)) {
      r.kernel_found = 1;
      const std::ptrdiff_t kat = k - reg::device_tables::kernels;
      if (kat >= 0 && kat < static_cast<std::ptrdiff_t>(reg::kernel_count)) {
        r.kernel_index = static_cast<std::int32_t>(kat);
      }
      copy_name(k->name, r.kernel_name);
    }
  }
  out[i] = r;
}

__global__ void look_up_kernels(const std::uint32_t* ids, std::size_t count, kernel_lookup* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  kernel_lookup r{};
  r.index = -1;
  if (const reg::kernel_info* k = reg::find_kernel(ids[i])) {
    r.found = 1;
    const std::ptrdiff_t at = k - reg::device_tables::kernels;
    if (at >= 0 && at < static_cast<std::ptrdiff_t>(reg::kernel_count)) r.index = static_cast<std::int32_t>(at);
    r.kernel_id = k->kernel_id;
    r.receive_count = k->receive_count;
    r.send_count = k->send_count;
    r.receives_null = k->receives == nullptr ? 1 : 0;
    r.sends_null = k->sends == nullptr ? 1 : 0;
    if (k->receives != nullptr) copy_list(k->receives, k->receive_count, r.receives);
    if (k->sends != nullptr) copy_list(k->sends, k->send_count, r.sends);
    r.name_null = copy_name(k->name, r.name);
  }
  out[i] = r;
}

/// Ids near and between the table's keys that no entry has (by the host's find).
template <class Find>
std::vector<std::uint32_t> absent_ids(const std::vector<std::uint32_t>& present, Find find) {
  std::vector<std::uint32_t> candidates = {0u, 1u, 0xffffffffu, unknown_type_id};
  for (const std::uint32_t id : present) {
    candidates.push_back(id - 1);
    candidates.push_back(id + 1);
    candidates.push_back(id ^ 0x80000000u);
  }
  std::vector<std::uint32_t> absent;
  for (const std::uint32_t id : candidates) {
    if (find(id) == nullptr) absent.push_back(id);
  }
  return absent;
}

// ---------------------------------------------------------------------------------------------
// Device plumbing.

struct cuda_free {
  void operator()(void* p) const { cudaFree(p); }
};
using device_ptr = std::unique_ptr<void, cuda_free>;

/// Skips the test, saying why, without a CUDA device; else makes the first one current.
#define REQUIRE_CUDA_DEVICE()                                                                      \
  const auto cuda_devices_ = ringkernel::devices(ringkernel::Backend::cuda);                       \
  if (cuda_devices_.empty()) GTEST_SKIP() << "no CUDA device (ringkernel::devices(Backend::cuda) is empty)"; \
  CUDA_CHECK(cudaSetDevice(cuda_devices_.front().ordinal))

template <class T>
void to_device(const std::vector<T>& from, device_ptr& to) {
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, from.size() * sizeof(T)));
  to.reset(p);
  CUDA_CHECK(cudaMemcpy(p, from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice));
}

/// A zeroed device array of n T, for a kernel's results.
template <class T>
void zeroed_on_device(std::size_t n, device_ptr& to) {
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  to.reset(p);
  CUDA_CHECK(cudaMemset(p, 0, n * sizeof(T)));
}

template <class T>
void from_device(const device_ptr& from, std::vector<T>& to) {
  CUDA_CHECK(cudaMemcpy(to.data(), from.get(), to.size() * sizeof(T), cudaMemcpyDeviceToHost));
}

constexpr unsigned threads_per_block = 128;
unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + threads_per_block - 1) / threads_per_block); }

/// Runs every case in a kernel, one thread each; each case's bytes in their own allocation of
/// exactly offset + data.size() bytes (none for an empty case: `in` is nullptr).
void run_on_device(const std::vector<test_case>& cases, std::vector<outcome>& outcomes) {
  std::vector<device_ptr> memory;
  std::vector<case_view> views;
  for (const test_case& c : cases) {
    const std::size_t bytes_needed = c.offset + c.data.size();
    std::uint8_t* at = nullptr;
    if (bytes_needed != 0) {
      void* p = nullptr;
      CUDA_CHECK(cudaMalloc(&p, bytes_needed));
      memory.emplace_back(p);
      if (c.offset != 0) CUDA_CHECK(cudaMemset(p, 0, c.offset));
      at = static_cast<std::uint8_t*>(p) + c.offset;
      if (!c.data.empty()) CUDA_CHECK(cudaMemcpy(at, c.data.data(), c.data.size(), cudaMemcpyHostToDevice));
    }
    views.push_back(case_view{c.how, c.type_id, at, c.size});
  }
  device_ptr views_device, outcomes_device;
  to_device(views, views_device);
  zeroed_on_device<outcome>(cases.size(), outcomes_device);
  if (::testing::Test::HasFatalFailure()) return;
  run_cases<<<blocks_for(cases.size()), threads_per_block>>>(
      static_cast<const case_view*>(views_device.get()), cases.size(), static_cast<outcome*>(outcomes_device.get()));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  outcomes.assign(cases.size(), outcome{});
  from_device(outcomes_device, outcomes);
}

// ---------------------------------------------------------------------------------------------

TEST(RegistryDevice, FindAndFindKernelReadTheDeviceTablesWhichMatchTheHostTables) {
  std::vector<std::uint32_t> type_ids, kernel_ids;
  for (const ringkernel::message_info& m : reg::messages) {
    ASSERT_LT(std::strlen(m.name), name_capacity);
    ASSERT_LT(std::strlen(m.kernel), name_capacity);
    type_ids.push_back(m.type_id);
  }
  for (const reg::kernel_info& k : reg::kernels) {
    ASSERT_LT(std::strlen(k.name), name_capacity);
    ASSERT_LE(k.receive_count, list_capacity);
    ASSERT_LE(k.send_count, list_capacity);
    kernel_ids.push_back(k.kernel_id);
  }
  const std::vector<std::uint32_t> absent_types = absent_ids(type_ids, [](std::uint32_t id) { return reg::find(id); });
  const std::vector<std::uint32_t> absent_kernels =
      absent_ids(kernel_ids, [](std::uint32_t id) { return reg::find_kernel(id); });
  ASSERT_GT(absent_types.size(), 4u);
  ASSERT_GT(absent_kernels.size(), 4u);
  // What the tables below are compared on differs between entries: a table that repeated one
  // entry, or the defaults, would not pass.
  bool kernel_without_receives = false, kernel_without_sends = false;
  for (const reg::kernel_info& k : reg::kernels) {
    kernel_without_receives = kernel_without_receives || (k.receive_count == 0 && k.receives == nullptr);
    kernel_without_sends = kernel_without_sends || (k.send_count == 0 && k.sends == nullptr);
  }
  EXPECT_TRUE(kernel_without_receives && kernel_without_sends);
  EXPECT_EQ(reg::find(0x1234u), &reg::messages[0]) << "Drain's explicit id is the smallest";

  REQUIRE_CUDA_DEVICE();
  std::vector<std::uint32_t> all_types = type_ids, all_kernels = kernel_ids;
  all_types.insert(all_types.end(), absent_types.begin(), absent_types.end());
  all_kernels.insert(all_kernels.end(), absent_kernels.begin(), absent_kernels.end());
  device_ptr types_device, kernels_device, message_results, kernel_results;
  to_device(all_types, types_device);
  to_device(all_kernels, kernels_device);
  zeroed_on_device<message_lookup>(all_types.size(), message_results);
  zeroed_on_device<kernel_lookup>(all_kernels.size(), kernel_results);
  ASSERT_FALSE(HasFatalFailure());
  look_up_messages<<<blocks_for(all_types.size()), threads_per_block>>>(
      static_cast<const std::uint32_t*>(types_device.get()), all_types.size(),
      static_cast<message_lookup*>(message_results.get()));
  CUDA_CHECK(cudaGetLastError());
  look_up_kernels<<<blocks_for(all_kernels.size()), threads_per_block>>>(
      static_cast<const std::uint32_t*>(kernels_device.get()), all_kernels.size(),
      static_cast<kernel_lookup*>(kernel_results.get()));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<message_lookup> messages(all_types.size());
  std::vector<kernel_lookup> kernels(all_kernels.size());
  from_device(message_results, messages);
  from_device(kernel_results, kernels);
  ASSERT_FALSE(HasFatalFailure());

  for (std::size_t i = 0; i < reg::message_count; ++i) {
    const ringkernel::message_info& want = reg::messages[i];
    const message_lookup& got = messages[i];
    SCOPED_TRACE(want.name);
    ASSERT_EQ(got.found, 1u) << "find(" << want.type_id << ") is nullptr on the device";
    EXPECT_EQ(got.index, static_cast<std::int32_t>(i)) << "not the host table's entry of device_tables::messages";
    EXPECT_EQ(got.type_id, want.type_id);
    EXPECT_EQ(got.name_null, 0u);
    EXPECT_STREQ(got.name, want.name);
    EXPECT_EQ(got.kernel_null, 0u);
    EXPECT_STREQ(got.kernel, want.kernel);
    EXPECT_EQ(got.kernel_id, want.kernel_id);
    EXPECT_EQ(got.direction, static_cast<std::uint32_t>(want.direction));
    EXPECT_EQ(got.priority, want.priority);
    EXPECT_EQ(got.causal, want.causal ? 1u : 0u);
    EXPECT_EQ(got.format, static_cast<std::uint32_t>(want.format));
    EXPECT_EQ(got.size, want.size);
    EXPECT_EQ(got.alignment, want.alignment);
    EXPECT_EQ(got.field_count, want.field_count);
    const reg::kernel_info* kernel = reg::find_kernel(want.kernel_id);
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(got.kernel_found, 1u);
    EXPECT_EQ(got.kernel_index, static_cast<std::int32_t>(kernel - reg::kernels));
    EXPECT_STREQ(got.kernel_name, kernel->name);
    EXPECT_STREQ(got.kernel_name, want.kernel);
  }
  for (std::size_t i = reg::message_count; i < all_types.size(); ++i) {
    EXPECT_EQ(messages[i].found, 0u) << "find(" << all_types[i]
                                     << ") on the device: an entry for an id the registry lacks";
  }
  for (std::size_t i = 0; i < reg::kernel_count; ++i) {
    const reg::kernel_info& want = reg::kernels[i];
    const kernel_lookup& got = kernels[i];
    SCOPED_TRACE(want.name);
    ASSERT_EQ(got.found, 1u) << "find_kernel(" << want.kernel_id << ") is nullptr on the device";
    EXPECT_EQ(got.index, static_cast<std::int32_t>(i)) << "not the host table's entry of device_tables::kernels";
    EXPECT_EQ(got.kernel_id, want.kernel_id);
    EXPECT_EQ(got.name_null, 0u);
    EXPECT_STREQ(got.name, want.name);
    EXPECT_EQ(got.receive_count, want.receive_count);
    EXPECT_EQ(got.send_count, want.send_count);
    EXPECT_EQ(got.receives_null, want.receives == nullptr ? 1u : 0u);
    EXPECT_EQ(got.sends_null, want.sends == nullptr ? 1u : 0u);
    for (std::uint32_t j = 0; j < want.receive_count; ++j) {
      EXPECT_EQ(got.receives[j], want.receives[j]) << "receives[" << j << "]";
    }
    for (std::uint32_t j = 0; j < want.send_count; ++j) EXPECT_EQ(got.sends[j], want.sends[j]) << "sends[" << j << "]";
  }
  for (std::size_t i = reg::kernel_count; i < all_kernels.size(); ++i) {
    EXPECT_EQ(kernels[i].found, 0u) << "find_kernel(" << all_kernels[i]
                                    << ") on the device: an entry for an id the registry lacks";
  }
}

TEST(RegistryDevice, DispatchRoutesEveryMessageAndHostileInputsGetTheDocumentedStatusWithoutACall) {
  ASSERT_EQ(reg::find(unknown_type_id), nullptr);
  ASSERT_EQ(reg::find_kernel(unknown_type_id), nullptr);
  const std::vector<test_case> cases = all_cases();
  ASSERT_FALSE(HasFailure());
  // The host runs the same code on the same bytes first: its results must be the documented ones.
  std::vector<outcome> on_host;
  for (const test_case& c : cases) {
    on_host.push_back(run_on_host(c));
    expect_documented(c, on_host.back(), "host");
  }
  std::size_t routed = 0;
  for (const test_case& c : cases) routed += c.expect_calls;
  EXPECT_EQ(routed, 3 * reg::message_count) << "one raw payload, raw message and envelope of each type";

  REQUIRE_CUDA_DEVICE();
  std::vector<outcome> on_device;
  run_on_device(cases, on_device);
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_EQ(on_device.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    expect_documented(cases[i], on_device[i], "device");
    SCOPED_TRACE("device against host: " + cases[i].what);
    EXPECT_EQ(on_device[i].dispatched, on_host[i].dispatched);
    EXPECT_EQ(on_device[i].status, on_host[i].status);
    EXPECT_EQ(on_device[i].size, on_host[i].size);
    EXPECT_EQ(on_device[i].visit.calls, on_host[i].visit.calls);
    EXPECT_EQ(on_device[i].visit.type_id, on_host[i].visit.type_id);
    EXPECT_EQ(on_device[i].visit.checksum, on_host[i].visit.checksum);
  }
}

}  // namespace
