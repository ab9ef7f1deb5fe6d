// Copyright RingKernel authors.
// The generated registry's dispatch run in device code (label gpu), registry device_routes (see
// registry_device_support.h):
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
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "registry_device_support.h"

namespace {

using namespace registry_device_support;
using messaging_test::Aligned16;
using messaging_test::Blob64;
using messaging_test::Reading;
using messaging_test::Tagged;
using messaging_test::Tick;
using registry_device_test::Drain;
using registry_device_test::Hop;
using registry_device_test::Mode;
using registry_device_test::Route;
using registry_device_test::RouteDone;
using bytes = std::vector<std::uint8_t>;

static_assert(reg::message_count == 9 && reg::kernel_count == 7,
              "the tests below send one message of each type of the registry (samples())");
static_assert(reg::contains_v<Tagged> && reg::contains_v<Tick> && reg::contains_v<Reading> && reg::contains_v<Blob64> &&
              reg::contains_v<Aligned16> &&
              reg::contains_v<Route> && reg::contains_v<RouteDone> && reg::contains_v<Hop> && reg::contains_v<Drain>);

// ---------------------------------------------------------------------------------------------
// The routing cases (case_view, outcome, Recorder: registry_device_support.h), in a kernel and on
// the host.

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
      with_header(KernelMessage<Aligned16>::create_data(13, 14, Aligned16{0x89abcdefu, -0.75})),
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
