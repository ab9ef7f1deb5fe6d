// Copyright RingKernel authors.
// The generated registry's dispatch_envelope (messaging.registry.rk.h): an envelope's bytes routed to
// the handler of its message type. Every message of the registry arrives equal at its own handler;
// a type id the registry lacks is wrong_message_type at the type id with no call; every truncation
// and hostile bytes give exactly decode_envelope's (or peek_envelope_type_id's) status and offset,
// with no call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "dispatch_test_support.h"
#include "messaging.registry.rk.h"
#include "ringkernel/envelope_codec.h"

namespace {

using messaging_test::blob;
using messaging_test::envelope_bytes;
using messaging_test::reading;
using messaging_test::Recorder;
using messaging_test::stamped_aligned16;
using messaging_test::stamped_tick;
using messaging_test::tagged;
using messaging_test::Blob64;
using messaging_test::Reading;
using messaging_test::Tagged;
using ringkernel::codec_result;
using ringkernel::codec_status;
using ringkernel::KernelMessage;
using bytes = std::vector<std::uint8_t>;
namespace reg = ringkernel::registry::messaging;

static_assert(reg::message_count == 5, "the tests below send one envelope of each message");

/// dispatch_envelope on an exact-size copy (ASan sees any overread) against decode_envelope<T>.
template <class T>
codec_result dispatch_as_decode(const bytes& in, Recorder<T>& recorder) {
  const bytes exact(in);
  const codec_result got = reg::dispatch_envelope(exact.data(), exact.size(), recorder);
  KernelMessage<T> decoded{};
  const codec_result want = ringkernel::decode_envelope(exact.data(), exact.size(), decoded);
  EXPECT_EQ(got.status, want.status) << ringkernel::to_string(got.status) << " vs " << ringkernel::to_string(want.status);
  EXPECT_EQ(got.size, want.size);
  return got;
}

template <class T>
void expect_routed(const KernelMessage<T>& sent) {
  const bytes envelope = envelope_bytes(sent);
  Recorder<T> recorder{&sent};
  const codec_result r = dispatch_as_decode(envelope, recorder);
  EXPECT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(r.size, envelope.size());
  EXPECT_EQ(recorder.calls, 1);
  EXPECT_EQ(recorder.equal, 1) << "type id " << ringkernel::message_traits<T>::type_id;
  EXPECT_EQ(recorder.last_type_id, ringkernel::message_traits<T>::type_id);
}

TEST(EnvelopeDispatch, EveryMessageOfTheRegistryReachesItsOwnHandlerEqual) {
  expect_routed(tagged);
  expect_routed(stamped_tick());
  expect_routed(reading);
  expect_routed(blob);
  expect_routed(stamped_aligned16());  // payload aligned to 16, at 48
}

TEST(EnvelopeDispatch, TakesLambdasAndTemporaryVisitorsAndReturnsTheDecodeResult) {
  const bytes envelope = envelope_bytes(reading);
  double sum = 0;
  const codec_result r = reg::dispatch_envelope(envelope.data(), envelope.size(), [&](const auto& m) {
    if constexpr (std::is_same_v<std::decay_t<decltype(m)>, KernelMessage<Reading>>) {
      for (double s : m.payload.samples) sum += s;
    }
  });
  EXPECT_EQ(r.status, codec_status::ok);
  EXPECT_EQ(sum, 3.5);
  EXPECT_EQ(reg::dispatch_envelope(envelope.data(), envelope.size(), Recorder<Reading>{&reading}).status,
            codec_status::ok);
}

// The type id is replaced by one the registry lacks: wrong_message_type where the id starts (after
// a fixarray, array 16 or array 32 header), as decode_envelope of any message of the registry says.
TEST(EnvelopeDispatch, UnknownTypeIdIsWrongMessageTypeAtTheTypeIdWithoutACall) {
  const bytes envelope = envelope_bytes(tagged);
  ASSERT_EQ(envelope[0], 0x98);
  ASSERT_EQ(envelope[1], 0xce) << "the test expects a uint 32 type id";
  const bytes rest(envelope.begin() + 6, envelope.end());
  const auto with_id = [&](bytes head) {
    head.insert(head.end(), rest.begin(), rest.end());
    return head;
  };
  const struct {
    bytes in;
    std::size_t at;
    const char* what;
  } cases[] = {{with_id({0x98, 0x07}), 1, "fixint 7"},
               {with_id({0x98, 0x00}), 1, "0, reserved"},
               {with_id({0x98, 0xce, 0xff, 0xff, 0xff, 0xff}), 1, "uint 32"},
               {with_id({0xdc, 0x00, 0x08, 0x07}), 3, "array 16"},
               {with_id({0xdd, 0x00, 0x00, 0x00, 0x08, 0x07}), 5, "array 32"},
               {{0x98, 0x07}, 1, "nothing after the type id"}};
  for (const auto& c : cases) {
    Recorder<Tagged> recorder{&tagged};
    const codec_result r = dispatch_as_decode(c.in, recorder);
    EXPECT_EQ(r.status, codec_status::wrong_message_type) << c.what;
    EXPECT_EQ(r.size, c.at) << c.what;
    EXPECT_EQ(recorder.calls, 0) << c.what;
  }
}

TEST(EnvelopeDispatch, EveryTruncationIsDecodeEnvelopesStatusAtItsOffsetWithoutACall) {
  const auto truncations = [](const auto& sent) {
    using T = typename std::decay_t<decltype(sent)>::payload_type;
    const bytes envelope = envelope_bytes(sent);
    for (std::size_t n = 0; n < envelope.size(); ++n) {
      Recorder<T> recorder{&sent};
      const codec_result r =
          dispatch_as_decode(bytes(envelope.begin(), envelope.begin() + static_cast<std::ptrdiff_t>(n)), recorder);
      EXPECT_EQ(r.status, codec_status::truncated_input) << "length " << n;
      EXPECT_LE(r.size, n);
      EXPECT_EQ(recorder.calls, 0) << "length " << n;
    }
  };
  truncations(tagged);
  truncations(stamped_tick());
  truncations(reading);
  truncations(blob);
  truncations(stamped_aligned16());
}

// Bytes that are no envelope: peek_envelope_type_id's status and offset; a corrupt body after a
// known type id: decode_envelope's. No call either way.
TEST(EnvelopeDispatch, HostileBytesGiveThePeekOrDecodeStatusWithoutACall) {
  const bytes no_envelope[] = {{}, {0x97, 0x01}, {0x88, 0x01}, {0xc1}, {0x98, 0xc1}, {0x98, 0xa1, 'x'}, {0x98, 0xff}};
  for (const bytes& in : no_envelope) {
    std::uint32_t id = 0;
    const codec_result peeked = ringkernel::peek_envelope_type_id(in.data(), in.size(), id);
    ASSERT_NE(peeked.status, codec_status::ok);
    Recorder<Tagged> recorder{&tagged};
    const codec_result r = dispatch_as_decode(in, recorder);
    EXPECT_EQ(r.status, peeked.status);
    EXPECT_EQ(r.size, peeked.size);
    EXPECT_EQ(recorder.calls, 0);
  }
  // One corrupt byte at a time, each after a valid type id of the registry (peek succeeds): in the
  // header after the type id, and in the payload alone (a valid header, then a malformed payload).
  const bytes valid = envelope_bytes(tagged);
  const bytes payload = {0x93, 0x03, 0x00, 0x2a};  // Tagged{3, 0, 42} as a MessagePack array, last
  ASSERT_GE(valid.size(), 10 + payload.size());
  ASSERT_TRUE(std::equal(payload.begin(), payload.end(), valid.end() - 4));
  bytes in_header = valid;
  in_header[9] = 0xc1;
  bytes in_payload = valid;
  in_payload.back() = 0xc1;  // never used in MessagePack
  for (const bytes* corrupt : {&in_header, &in_payload}) {
    std::uint32_t id = 0;
    ASSERT_EQ(ringkernel::peek_envelope_type_id(corrupt->data(), corrupt->size(), id).status, codec_status::ok);
    ASSERT_EQ(id, ringkernel::message_traits<Tagged>::type_id);
    Recorder<Tagged> recorder{&tagged};
    const codec_result r = dispatch_as_decode(*corrupt, recorder);
    EXPECT_NE(r.status, codec_status::ok) << (corrupt == &in_header ? "header" : "payload");
    EXPECT_EQ(recorder.calls, 0);
    if (corrupt == &in_payload) {
      EXPECT_GE(r.size, valid.size() - payload.size()) << "the error lies in the payload";
      EXPECT_LE(r.size, valid.size());
    }
  }
}

}  // namespace
