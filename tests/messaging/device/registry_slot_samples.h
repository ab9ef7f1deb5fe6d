// Copyright RingKernel authors.
// The messages of the kernel_message_slot device tests (test_registry_device_slots.cu), registry
// device_routes (registry_device_support.h): message i (i < message_slots) is of type i % 9 with
// every header and payload field made from i, the same on the host and the device; its header's type
// id is T's, another message's, 0 or one the registry lacks, a quarter of the messages each (the
// slot routes by T, so all must reach T's handler). Two more slots: a value-initialised one and one
// whose type id was overwritten with an unknown id after make_kernel_message_slot (no handler).
// expected(i): the type id and checksum T's handler must see for message i.
#pragma once

#include <cstdint>
#include <cstring>

#include "registry_device_support.h"

namespace registry_slot_samples {

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
using ringkernel::message_traits;
using slot = reg::kernel_message_slot;

static_assert(reg::message_count == 9, "with_sample makes a message of each type of the registry, by i % 9");
static_assert(alignof(slot) == alignof(KernelMessage<Aligned16>) && alignof(KernelMessage<Aligned16>) == 16 &&
                  alignof(KernelMessage<Tagged>) == 8 && sizeof(slot) >= sizeof(KernelMessage<Blob64>),
              "the slot holds the largest message and is aligned for the most aligned one");
static_assert(sizeof(KernelMessage<Drain>) == 40 && sizeof(KernelMessage<Blob64>) == 96 &&
                  sizeof(KernelMessage<Hop>) == 72 && sizeof(KernelMessage<Aligned16>) == 64,
              "messages of several sizes share the slot (test_registry_device_slots.cu says 40 to 96 bytes)");

constexpr std::uint32_t variants = 4;  // the header's type id: T's, another message's, 0, unknown
constexpr std::uint32_t rounds = 5;
constexpr std::uint32_t message_slots = reg::message_count * variants * rounds;  // 180
constexpr std::uint32_t empty_slot = message_slots;        // value-initialised: type id 0
constexpr std::uint32_t unknown_slot = message_slots + 1;  // type id overwritten after the slot was made
constexpr std::uint32_t total_slots = message_slots + 2;

/// Message i's header: sequence number i, a timestamp and HLC stamp from i, and the type id of its
/// variant ((i / 9) % 4): left as create() set it (T's), another message's, 0, or unknown.
template <class T>
__host__ __device__ KernelMessage<T> stamped(std::uint32_t i, KernelMessage<T> m) {
  m.header.sequence = i;
  m.header.timestamp_us = 1'760'000'000'000'000 + static_cast<std::int64_t>(i);
  if constexpr (KernelMessage<T>::causal) m.header.hlc = ringkernel::hlc_timestamp{(std::uint64_t{i} << 16) | 0x2a};
  constexpr std::uint32_t own = message_traits<T>::type_id;
  constexpr std::uint32_t tagged = message_traits<Tagged>::type_id;
  constexpr std::uint32_t blob = message_traits<Blob64>::type_id;  // the largest: a Tagged header claims it
  switch ((i / reg::message_count) % variants) {
    case 1: m.header.type_id = own == tagged ? blob : tagged; break;
    case 2: m.header.type_id = 0; break;
    case 3: m.header.type_id = unknown_type_id; break;
    default: break;
  }
  return m;
}

/// Calls f(KernelMessage<T>) with message i (i < message_slots), of type i % 9, every field from i.
template <class F>
__host__ __device__ void with_sample(std::uint32_t i, F&& f) {
  const auto s = static_cast<std::int32_t>(i);
  const auto x = static_cast<float>(i);
  switch (i % reg::message_count) {
    case 0:
      f(stamped(i, KernelMessage<Tagged>::create_data(s, s + 1, Tagged{3 * i + 1, i ^ 0x5a5au, i * 0x100000001ull})));
      break;
    case 1: {
      Tick t{-7 * static_cast<std::int64_t>(i), 0.5f * x, {}};
      for (std::uint32_t j = 0; j + 1 < sizeof t.note; ++j) t.note[j] = static_cast<char>('a' + (i + j) % 26);
      f(stamped(i, KernelMessage<Tick>::create_data(s, s + 1, t)));
      break;
    }
    case 2:
      f(stamped(i, KernelMessage<Reading>::create_control(s, ringkernel::broadcast_receiver,
                                                         Reading{Tagged{i, 1, i + 2ull}, {0.25 * i, -1.0 * i, 1.5}})));
      break;
    case 3: {
      Blob64 b{};
      for (std::uint32_t j = 0; j < 8; ++j) b.words[j] = i * 131ull + j * 0x0101010101010101ull;
      f(stamped(i, KernelMessage<Blob64>::create_data(s, s + 1, b)));
      break;
    }
    case 4: f(stamped(i, KernelMessage<Aligned16>::create_data(s, s + 1, Aligned16{i, -0.75 * i}))); break;
    case 5:
      f(stamped(i, KernelMessage<Route>::create_data(
                       s, s + 1, Route{17 * i, static_cast<Mode>(i % 3), i % 2 == 1,
                                       static_cast<std::int16_t>(-static_cast<int>(i % 100)),
                                       i * 0x9e3779b97f4a7c15ull})));
      break;
    case 6:
      f(stamped(i, KernelMessage<RouteDone>::create_data(s, s + 1, RouteDone{-3 * std::int64_t{s}, i / 8.0})));
      break;
    case 7: {
      Hop h{Route{i, Mode::stop, true, 3, ~std::uint64_t{i}}, {}};
      for (std::uint32_t r = 0; r < 2; ++r) {
        for (std::uint32_t c = 0; c < 3; ++c) {
          h.weights[r][c] = x + static_cast<float>(3 * r) + 0.5f * static_cast<float>(c);
        }
      }
      f(stamped(i, KernelMessage<Hop>::create(s, s + 1, ringkernel::MessageType::ack, h)));
      break;
    }
    default: {
      Drain d{static_cast<std::uint16_t>(7 * i), {}};
      for (std::uint32_t j = 0; j + 1 < sizeof d.label; ++j) d.label[j] = static_cast<char>('A' + (i + j) % 26);
      f(stamped(i, KernelMessage<Drain>::create(s, s + 1, ringkernel::MessageType::heartbeat, d)));
      break;
    }
  }
}

struct to_slot {
  slot* out;
  template <class M>
  __host__ __device__ void operator()(const M& m) const {
    *out = reg::make_kernel_message_slot(m);
  }
};

/// Slot i: message i; the empty slot; message 0's slot with an unknown type id written into it.
__host__ __device__ inline slot make_slot(std::uint32_t i) {
  slot s{};
  if (i == empty_slot) return s;  // type id 0
  with_sample(i < message_slots ? i : 0, to_slot{&s});
  if (i == unknown_slot) {
    const std::uint32_t id = unknown_type_id;
    memcpy(s.bytes + ringkernel::envelope_type_id_offset, &id, sizeof id);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// What T's handler must see of message i.

struct expectation {
  std::uint32_t type_id;         // T's
  std::uint32_t header_type_id;  // what the message's header said before make_kernel_message_slot
  std::uint64_t checksum;        // of the message with T's type id: what T's handler must get
};

struct expect_of {
  expectation* out;
  template <class T>
  __host__ __device__ void operator()(KernelMessage<T> m) const {
    out->type_id = message_traits<T>::type_id;
    out->header_type_id = m.header.type_id;
    m.header.type_id = out->type_id;  // the slot routes by T
    out->checksum = message_checksum(m);
  }
};

inline expectation expected(std::uint32_t i) {
  expectation e{};
  with_sample(i, expect_of{&e});
  return e;
}

}  // namespace registry_slot_samples
