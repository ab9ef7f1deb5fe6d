// Copyright RingKernel authors.
// The template instantiations of the strict_warnings.* tests (strict_headers.cpp, strict_device.cu):
// calls of every public template a user instantiates, so that the compilers check their bodies under
// the strict warning sets. Compiled, never run: only the instantiations matter, not the values.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include "ringkernel/codec.h"
#include "ringkernel/config.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/hlc.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"

namespace strict_warnings {

/// Bytes exercise_codec<T> needs at `buffer`.
template <class T>
inline constexpr std::size_t codec_buffer_size = ringkernel::max_encoded_size<T> + ringkernel::max_envelope_encoded_size<T>;

// encode (unchecked and checked writer), decode, the KernelMessage envelope and its codec, the traits.
template <class T>
RINGKERNEL_HOST_DEVICE std::uint64_t exercise_codec(std::uint8_t* buffer) {
  T message{};
  ringkernel::codec_result r = ringkernel::encode(message, buffer, codec_buffer_size<T>);
  std::uint64_t total = r.size;
  total += ringkernel::encode(message, buffer, r.size / 2).size;
  r = ringkernel::decode(buffer, r.size, message);
  total += r.size + static_cast<std::uint64_t>(r.status) + (ringkernel::to_string(r.status)[0] == 'o' ? 1u : 0u);

  const auto envelope = ringkernel::KernelMessage<T>::create_data(1, 2, message);
  r = ringkernel::encode_envelope(envelope, buffer, codec_buffer_size<T>);
  total += r.size;
  std::uint32_t type_id = 0;
  total += ringkernel::peek_envelope_type_id(buffer, r.size, type_id).size + type_id;
  ringkernel::KernelMessage<T> back{};
  total += ringkernel::decode_envelope(buffer, r.size, back).size;
  total += back == envelope ? 1u : 0u;
  total += back != ringkernel::KernelMessage<T>::create_control(1, 2, message) ? 1u : 0u;
  total += ringkernel::KernelMessage<T>::create_terminate(1, ringkernel::broadcast_receiver).is_broadcast() ? 1u : 0u;
  total += ringkernel::KernelMessage<T>::create(1, 2, ringkernel::MessageType::ack, message).header.type_id;

  using traits = ringkernel::message_traits<T>;
  total += traits::field(0).offset + traits::field(traits::field_count).size + ringkernel::info_of<T>().size;
  return total;
}

// The host queue API of one queue type, every call.
template <class Queue>
std::uint64_t exercise_queue(Queue& queue) {
  using T = typename Queue::value_type;
  std::array<T, 4> values{};
  std::uint64_t total = 0;
  queue.set_eviction_handler([&total](const T&) { ++total; });
  total += queue.try_send(values[0]).evicted;
  total += queue.send(values[0], std::chrono::milliseconds(1)).evicted;
  total += queue.send_batch(std::span<const T>(values)).accepted;
  T out{};
  total += static_cast<std::uint64_t>(queue.try_receive(out));
  total += static_cast<std::uint64_t>(queue.receive(out, std::chrono::milliseconds(1), std::stop_token{}));
  total += static_cast<std::uint64_t>(queue.receive(out, std::chrono::duration<double, std::milli>(0.5)));
  total += queue.receive_batch(std::span<T>(values)).received;
  total += queue.try_receive_batch(std::span<T>(values)).received;
  total += queue.try_peek(out) ? 1u : 0u;
  total += queue.clear() + queue.count() + queue.capacity();
  total += queue.is_empty() || queue.is_full() ? 1u : 0u;
  const ringkernel::QueueStatistics stats = queue.statistics();
  total += stats.sent + stats.received;
  queue.shutdown();
  return total + (queue.is_shut_down() ? 1u : 0u);
}

// A warp of one lane, to instantiate the device queue algorithms (which host code may run too).
struct one_lane_warp {
  unsigned active() const noexcept { return 1u; }
  unsigned lane() const noexcept { return 0u; }
  template <class V>
  V shfl(unsigned, V v, int) const noexcept {
    return v;
  }
  unsigned ballot(unsigned, bool p) const noexcept { return p ? 1u : 0u; }
  unsigned reduce_min(unsigned, unsigned v) const noexcept { return v; }
  void sync(unsigned) const noexcept {}
  unsigned running(unsigned mask) const noexcept { return mask; }
};

// The rings' own calls (what single device threads use) and the warp algorithms, on host memory.
template <class T, ringkernel::atomic_scope Scope>
std::uint64_t exercise_rings() {
  using mpmc = ringkernel::mpmc_ring<T, Scope>;
  using spsc = ringkernel::spsc_ring<T, Scope>;
  // Ring memory is aligned to queue_line_bytes (128): whole aligned lines (a vector of bytes is not).
  struct alignas(ringkernel::detail::queue_line_bytes) line {
    std::byte bytes[ringkernel::detail::queue_line_bytes];
  };
  std::vector<line> mpmc_memory((mpmc::bytes_for(8) + sizeof(line) - 1) / sizeof(line));
  std::vector<line> spsc_memory((spsc::bytes_for(8) + sizeof(line) - 1) / sizeof(line));
  mpmc ring = mpmc::initialize(mpmc_memory.data(), 8, 0);
  spsc single = spsc::initialize(spsc_memory.data(), 8, 0);
  std::array<T, 4> values{};
  T out{};
  std::uint64_t total = ring.try_push(values[0]) && ring.try_pop(out) ? 1u : 0u;
  total += ring.try_push_batch(values.data(), values.size()) + ring.try_pop_batch(values.data(), values.size());
  total += single.try_push_batch(values.data(), values.size()) + single.try_pop_batch(values.data(), values.size());
  total += ring.try_peek(out) || single.try_peek(out) ? 1u : 0u;
  auto producer = single.producer();
  auto consumer = single.consumer();
  total += producer.try_push(values[0]) && consumer.try_pop(out) ? 1u : 0u;
  total += producer.position() + consumer.position() + ring.size() + single.size();
#if !defined(__CUDACC__)  // nvcc makes the warp algorithms device functions: strict_device.cu calls them there
  const one_lane_warp warp;
  total += ringkernel::detail::warp_push_on(warp, ring, values[0]) ? 1u : 0u;
  total += ringkernel::detail::warp_pop_on(warp, ring, out) ? 1u : 0u;
  total += ringkernel::detail::warp_push_batch_on(warp, 1u, ring, values.data(), 4u);
  total += ringkernel::detail::warp_pop_batch_on(warp, 1u, ring, values.data(), 4u);
#endif
  ring.close();
  single.close();
  return total + (ring.closed() && single.closed() ? 1u : 0u);
}

// P2PMessageQueue<T>: every call.
template <class T>
std::uint64_t exercise_p2p_queue() {
  ringkernel::PeerMemory peers;
  ringkernel::P2PMessageQueue<T> p2p(peers, 0, 1);
  std::array<T, 2> values{};
  std::uint64_t total = p2p.try_send(values[0]).evicted + p2p.send(values[0]).evicted;
  total += p2p.send_batch(std::span<const T>(values)).accepted;
  total += static_cast<std::uint64_t>(p2p.try_receive(values[0])) + static_cast<std::uint64_t>(p2p.receive(values[0]));
  total += p2p.receive_batch(std::span<T>(values)).received + p2p.try_receive_batch(std::span<T>(values)).received;
  total += p2p.try_peek(values[0]) ? 1u : 0u;
  p2p.set_eviction_handler([&total](const T&) { ++total; });
  total += p2p.clear() + p2p.count() + p2p.capacity() + p2p.statistics().sent;
  total += p2p.is_empty() || p2p.is_full() || p2p.direct_p2p_available() || p2p.host_endpoints() ? 1u : 0u;
  total += static_cast<std::uint64_t>(p2p.transfer_mode()) + static_cast<std::uint64_t>(p2p.policy());
  total += static_cast<std::uint64_t>(p2p.source_device() + p2p.destination_device());
  total += p2p.source_ring().capacity() + p2p.destination_ring().capacity();
  p2p.shutdown();
  return total + (p2p.is_shut_down() ? 1u : 0u);
}

// HybridLogicalClock and MessageStamper (over `clock`), for a causal and a plain payload type. The
// caller owns both: in device code they live in global memory (ringkernel/hlc.h).
template <class Causal, class Plain>
RINGKERNEL_HOST_DEVICE std::uint64_t exercise_clock(ringkernel::HybridLogicalClock& clock,
                                                    ringkernel::MessageStamper& stamper) {
  auto causal = ringkernel::KernelMessage<Causal>::create_data(3, 4, Causal{});
  auto plain = ringkernel::KernelMessage<Plain>::create_data(3, 4, Plain{});
  std::uint64_t total = stamper.stamp(causal) && stamper.stamp_at(plain, 5) ? 1u : 0u;
  const ringkernel::hlc_update_result updated = clock.update(causal.header.hlc);
  total += static_cast<std::uint64_t>(updated.status) + clock.now().bits;
  total += clock.update_at(clock.now_at(1), 2).stamp.logical();
  total += clock.last().physical_us() + clock.skew_rejections() + clock.logical_overflows() + clock.wall_rejections();
  return total + stamper.next_sequence();
}

}  // namespace strict_warnings
