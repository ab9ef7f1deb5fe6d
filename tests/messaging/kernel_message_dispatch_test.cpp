// Copyright RingKernel authors.
// The generated registry's dispatch_kernel_message (messaging.registry.rk.h): a raw KernelMessage<T>
// whose T is known only from its header's type id reaches the handler of T, equal, and the result
// says how many bytes it took; an unknown id, too few bytes or a misaligned pointer get a status and
// no call.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "dispatch_test_support.h"
#include "messaging.registry.rk.h"

namespace {

using messaging_test::blob;
using messaging_test::reading;
using messaging_test::Recorder;
using messaging_test::stamped_aligned16;
using messaging_test::stamped_tick;
using messaging_test::tagged;
using messaging_test::Aligned16;
using messaging_test::Blob64;
using messaging_test::Reading;
using messaging_test::Tagged;
using ringkernel::codec_result;
using ringkernel::codec_status;
using ringkernel::KernelMessage;
namespace reg = ringkernel::registry::messaging;

/// `m`'s bytes in a heap block of exactly `size` bytes (ASan sees any read past it).
template <class T>
std::vector<unsigned char> raw_bytes(const KernelMessage<T>& m, std::size_t size = sizeof(KernelMessage<T>)) {
  static_assert(alignof(KernelMessage<T>) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "heap blocks must be aligned for it");
  std::vector<unsigned char> bytes(sizeof m);
  std::memcpy(bytes.data(), &m, sizeof m);
  bytes.resize(size);
  bytes.shrink_to_fit();
  return bytes;
}

template <class T>
void expect_routed(const KernelMessage<T>& sent) {
  const std::vector<unsigned char> bytes = raw_bytes(sent);
  Recorder<T> recorder{&sent};
  const codec_result r = reg::dispatch_kernel_message(bytes.data(), bytes.size(), recorder);
  EXPECT_EQ(r.status, codec_status::ok) << ringkernel::to_string(r.status);
  EXPECT_EQ(r.size, sizeof(KernelMessage<T>));
  EXPECT_EQ(recorder.calls, 1);
  EXPECT_EQ(recorder.equal, 1) << "type id " << ringkernel::message_traits<T>::type_id;
}

TEST(KernelMessageDispatch, EveryMessageOfTheRegistryReachesItsOwnHandlerEqual) {
  expect_routed(tagged);
  expect_routed(stamped_tick());  // causal: a 40-byte header
  expect_routed(reading);
  expect_routed(blob);
  expect_routed(stamped_aligned16());  // payload aligned to 16, at 48
}

// Messages of different types back to back in one buffer, each at an offset aligned for it: the
// returned size steps from one to the next.
TEST(KernelMessageDispatch, WalksABufferOfMixedMessagesByTheReturnedSize) {
  alignas(64) unsigned char buffer[sizeof tagged + sizeof blob + sizeof reading] = {};
  static_assert(sizeof tagged % alignof(KernelMessage<Blob64>) == 0);
  static_assert((sizeof tagged + sizeof blob) % alignof(KernelMessage<Reading>) == 0);
  std::memcpy(buffer, &tagged, sizeof tagged);
  std::memcpy(buffer + sizeof tagged, &blob, sizeof blob);
  std::memcpy(buffer + sizeof tagged + sizeof blob, &reading, sizeof reading);
  std::vector<std::uint32_t> seen;
  std::size_t at = 0;
  while (at < sizeof buffer) {
    const codec_result r = reg::dispatch_kernel_message(buffer + at, sizeof buffer - at, [&](const auto& m) {
      seen.push_back(m.header.type_id);
      using T = typename std::decay_t<decltype(m)>::payload_type;
      if constexpr (std::is_same_v<T, Blob64>) {
        EXPECT_TRUE(m == blob);
      }
      if constexpr (std::is_same_v<T, Reading>) {
        EXPECT_TRUE(m == reading);
      }
      if constexpr (std::is_same_v<T, Tagged>) {
        EXPECT_TRUE(m == tagged);
      }
    });
    ASSERT_EQ(r.status, codec_status::ok) << "at " << at;
    at += r.size;
  }
  EXPECT_EQ(at, sizeof buffer);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{ringkernel::message_traits<Tagged>::type_id,
                                              ringkernel::message_traits<Blob64>::type_id,
                                              ringkernel::message_traits<Reading>::type_id}));
}

TEST(KernelMessageDispatch, UnknownTypeIdIsWrongMessageTypeAtOffset16WithoutACall) {
  for (const std::uint32_t id : {0u, 7u, 0xffffffffu}) {
    KernelMessage<Tagged> m = tagged;
    m.header.type_id = id;
    const std::vector<unsigned char> bytes = raw_bytes(m);
    Recorder<Tagged> recorder{&tagged};
    const codec_result r = reg::dispatch_kernel_message(bytes.data(), bytes.size(), recorder);
    EXPECT_EQ(r.status, codec_status::wrong_message_type) << id;
    EXPECT_EQ(r.size, ringkernel::envelope_type_id_offset);
    EXPECT_EQ(recorder.calls, 0);
  }
}

// Every size short of the whole message, the type id readable or not: truncated_input at 0, no
// call, and no byte read past `size` (each buffer is exactly that long).
TEST(KernelMessageDispatch, FewerBytesThanTheMessageAreTruncatedInputWithoutACall) {
  const auto truncations = [](const auto& sent) {
    using T = typename std::decay_t<decltype(sent)>::payload_type;
    for (std::size_t n = 0; n < sizeof(KernelMessage<T>); ++n) {
      const std::vector<unsigned char> bytes = raw_bytes(sent, n);
      Recorder<T> recorder{&sent};
      const codec_result r = reg::dispatch_kernel_message(bytes.data(), n, recorder);
      EXPECT_EQ(r.status, codec_status::truncated_input) << "size " << n;
      EXPECT_EQ(r.size, 0u);
      EXPECT_EQ(recorder.calls, 0) << "size " << n;
    }
  };
  truncations(tagged);
  truncations(stamped_tick());  // causal: a 40-byte header
  truncations(reading);
  truncations(blob);
  truncations(stamped_aligned16());
}

TEST(KernelMessageDispatch, AMisalignedMessageIsInvalidInputWithoutACall) {
  static_assert(alignof(KernelMessage<Blob64>) >= 8);
  alignas(64) unsigned char buffer[sizeof blob + 8] = {};
  for (const std::size_t shift : {1u, 4u}) {
    std::memcpy(buffer + shift, &blob, sizeof blob);
    Recorder<Blob64> recorder{&blob};
    const codec_result r = reg::dispatch_kernel_message(buffer + shift, sizeof blob, recorder);
    EXPECT_EQ(r.status, codec_status::invalid_input) << "shift " << shift;
    EXPECT_EQ(r.size, 0u);
    EXPECT_EQ(recorder.calls, 0);
  }
}

// A message aligned to 16 at an address aligned to 8 only (or less): invalid_input, no call. At 16
// it is routed.
TEST(KernelMessageDispatch, AMessageAlignedTo16AtAnAddressAlignedTo8IsInvalidInputWithoutACall) {
  const KernelMessage<Aligned16> sent = stamped_aligned16();
  static_assert(alignof(KernelMessage<Aligned16>) == 16 && sizeof(KernelMessage<Aligned16>) == 64);
  alignas(64) unsigned char buffer[sizeof sent + 16] = {};
  for (const std::size_t shift : {0u, 4u, 8u, 16u}) {
    std::memcpy(buffer + shift, &sent, sizeof sent);
    Recorder<Aligned16> recorder{&sent};
    const codec_result r = reg::dispatch_kernel_message(buffer + shift, sizeof sent, recorder);
    const bool aligned = shift % 16 == 0;
    EXPECT_EQ(r.status, aligned ? codec_status::ok : codec_status::invalid_input) << "shift " << shift;
    EXPECT_EQ(r.size, aligned ? sizeof sent : 0u) << "shift " << shift;
    EXPECT_EQ(recorder.calls, aligned ? 1 : 0) << "shift " << shift;
    EXPECT_EQ(recorder.equal, aligned ? 1 : 0) << "shift " << shift;
  }
}

}  // namespace
