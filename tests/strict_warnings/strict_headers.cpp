// Copyright RingKernel authors.
// Test strict_warnings.* (tests/strict_warnings/CMakeLists.txt): compiled, never run, with users'
// strictest warning sets and -Werror (warning_sets.cmake). It includes every public runtime
// header through a plain -I path and the generated headers of three message sets (the adder
// example, the codec test messages and the messaging test messages, with one registry over all
// of them), and instantiates the templates users instantiate, so that the bodies of templates are
// checked too: a warning here fires in every user's build that includes these headers.
#include <msgpack.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ringkernel/buffers.h"
#include "ringkernel/codec.h"
#include "ringkernel/config.h"
#include "ringkernel/deadline.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/detail/atomic_word.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/field_codec.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/fixed_string.h"
#include "ringkernel/detail/int_reader.h"
#include "ringkernel/detail/message_codec.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/detail/msgpack_writer.h"
#include "ringkernel/device.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/hlc.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/msgpack_interop.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/p2p_queue_options.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/backoff.h"
#include "ringkernel/queue/latency_histogram.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/queue_checks.h"
#include "ringkernel/queue/queue_counters.h"
#include "ringkernel/queue/queue_options.h"
#include "ringkernel/queue/queue_policy.h"
#include "ringkernel/queue/queue_storage.h"
#include "ringkernel/queue/queue_types.h"
#include "ringkernel/queue/queue_users.h"
#include "ringkernel/queue/ring_control.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/warp_claim.h"
#include "ringkernel/queue/warp_collectives.h"
#include "ringkernel/queue/warp_enqueue.h"
#include "ringkernel/status.h"
#include "ringkernel/stream.h"
#include "ringkernel/topology.h"
#include "ringkernel/wall_clock.h"
// Generated: one header per message set, then the registry over all of them (which includes them again).
#include "codec_messages.rk.h"
#include "messages.rk.h"
#include "messaging_messages.rk.h"
#include "strict.registry.rk.h"

#include "strict_exercise.h"

int strict_warnings_exercise();

namespace {

namespace registry = ringkernel::registry::strict;

// The codec, the envelope and msgpack-c interop of one message type.
template <class T>
std::uint64_t exercise_message() {
  std::vector<std::uint8_t> buffer(strict_warnings::codec_buffer_size<T>);
  std::uint64_t total = strict_warnings::exercise_codec<T>(buffer.data());
  T message{};
  msgpack_sbuffer sbuffer;
  msgpack_sbuffer_init(&sbuffer);
  msgpack_packer packer;
  msgpack_packer_init(&packer, &sbuffer, msgpack_sbuffer_write);
  if (ringkernel::msgpack::pack(&packer, message) == 0) {
    msgpack_unpacked unpacked;
    msgpack_unpacked_init(&unpacked);
    if (msgpack_unpack_next(&unpacked, sbuffer.data, sbuffer.size, nullptr) == MSGPACK_UNPACK_SUCCESS) {
      total += static_cast<std::uint64_t>(ringkernel::msgpack::unpack(unpacked.data, message));
    }
    msgpack_unpacked_destroy(&unpacked);
  }
  msgpack_sbuffer_destroy(&sbuffer);
  // The host-only diagnostic of a refused message (empty input) and of a refused envelope (one byte).
  total += ringkernel::describe_decode_failure<T>(buffer.data(), 0).size();
  total += ringkernel::describe_decode_failure<ringkernel::KernelMessage<T>>(buffer.data(), 1).size();
  return total + (registry::contains_v<const T> ? 1u : 0u);
}

template <class... T>
std::uint64_t exercise_messages() {
  return (exercise_message<T>() + ...);
}

std::uint64_t exercise_registry(std::span<const std::uint8_t> envelope) {
  std::uint64_t seen = 0;
  const codec_test::Point point{};
  const auto count = [&seen](const auto&) { ++seen; };
  seen += registry::dispatch(ringkernel::message_traits<codec_test::Point>::type_id, &point, count) ? 1u : 0u;
  seen += registry::dispatch_envelope(envelope.data(), envelope.size(), count).size;
  // The host-only diagnostic of what dispatch_envelope refused (a truncated envelope).
  seen += ringkernel::describe_dispatch_failure<registry::message_types>(envelope.data(), envelope.size() / 2).size();
  seen += registry::message_types::size;
  const auto raw = ringkernel::KernelMessage<codec_test::Point>::create_data(1, 2, point);
  seen += registry::dispatch_kernel_message(&raw, sizeof raw, count).size;
  seen += registry::find(ringkernel::message_traits<app::AddRequest>::type_id) != nullptr ? 1u : 0u;
  // find() and find_kernel() of a constant id used as a condition (g++ -Waddress rejected it: "the
  // address of ... messages will never be NULL"), and in a constant expression.
  seen += registry::find(ringkernel::message_traits<app::AddRequest>::type_id) ? 1u : 0u;
  if (!registry::find_kernel(ringkernel::message_traits<app::AddRequest>::kernel_id)) seen += 2u;
  static_assert(registry::find(ringkernel::message_traits<app::AddRequest>::type_id) != nullptr);
  const registry::kernel_info* kernel = registry::find_kernel(ringkernel::message_traits<app::AddRequest>::kernel_id);
  seen += kernel != nullptr ? kernel->receive_count + kernel->send_count : 0u;
  return seen + registry::message_count + registry::kernel_count;
}

std::uint64_t exercise_queues() {
  using causal = ringkernel::KernelMessage<messaging_test::Tick>;  // the latency statistics path
  ringkernel::MpmcQueue<causal> mpmc(ringkernel::QueueOptions{.capacity = 8, .detailed_statistics = true});
  ringkernel::SpscQueue<messaging_test::Tagged> spsc(ringkernel::QueueOptions{.capacity = 8});
  std::uint64_t total = strict_warnings::exercise_queue(mpmc) + strict_warnings::exercise_queue(spsc);
  total += strict_warnings::exercise_rings<messaging_test::Blob64, ringkernel::atomic_scope::system>();
  total += strict_warnings::exercise_rings<codec_test::Point, ringkernel::atomic_scope::device>();
  return total + strict_warnings::exercise_p2p_queue<messaging_test::Reading>();
}

}  // namespace

int strict_warnings_exercise() {
  std::uint64_t total = exercise_messages<codec_test::Scalars, codec_test::ScalarsMap, codec_test::Point, codec_test::Tag,
                                          codec_test::Arrays, codec_test::ArraysMap, codec_test::Wide, codec_test::Huge,
                                          codec_test::Outer, codec_test::Telemetry64, codec_test::Order128>();
  total += exercise_messages<app::AddRequest, app::AddResponse, messaging_test::Tagged, messaging_test::Tick,
                             messaging_test::Reading, messaging_test::Blob64>();
  const std::array<std::uint8_t, 4> bytes{0x98, 0x01, 0x02, 0x03};
  total += exercise_registry(bytes);
  // constinit: the constructors are constexpr (a __device__ clock needs that in CUDA code).
  static constinit ringkernel::HybridLogicalClock clock;
  static constinit ringkernel::MessageStamper stamper(3, &clock);
  total += exercise_queues() + strict_warnings::exercise_clock<app::AddResponse, app::AddRequest>(clock, stamper);
  return total != 0 ? 0 : 1;
}
