// The Add ring kernel's loop, the same code for a persistent CUDA kernel (one GPU thread) and for a
// host thread on a host-backend device: take request envelopes from one ring, answer each with a
// stamped response envelope in another, stop at a terminate message (or when no request came for
// `idle_us`, so that a host that died does not leave a kernel spinning). The includer provides the
// message types: messages.rk.h on the host, messages.rk.cuh in .cu files.
#pragma once

#include <cstdint>

#include "adder_logic.h"
#include "ringkernel/config.h"
#include "ringkernel/deadline.h"
#include "ringkernel/hlc.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/wall_clock.h"

namespace app {

using RequestEnvelope = ringkernel::KernelMessage<AddRequest>;
using ResponseEnvelope = ringkernel::KernelMessage<AddResponse>;  // AddResponse is causal: it carries an HLC stamp
/// Rings in pinned host memory, which the host and the GPU both work: system scope.
using RequestRing = ringkernel::spsc_ring<RequestEnvelope, ringkernel::atomic_scope::system>;
using ResponseRing = ringkernel::spsc_ring<ResponseEnvelope, ringkernel::atomic_scope::system>;

/// Sender ids of the two ends.
inline constexpr std::int32_t client_id = 1;
inline constexpr std::int32_t add_kernel_id = 2;

/// Where the loop runs ("cuda", "host thread"): it goes into every answer, so the host sees who
/// answered. A struct so that a kernel takes it by value.
struct WorkerName {
  char text[16];
};

/// Why the loop ended.
enum class ServiceEnd : std::uint32_t { running = 0, terminated, idle, responses_full, clock_exhausted };

/// What the loop did, written by it when it ends (into pinned memory on a GPU).
struct ServiceReport {
  std::uint32_t served;          // requests answered
  std::uint32_t ignored;         // envelopes that were neither a terminate nor an AddRequest data message
  std::uint32_t sequence_gaps;   // envelopes whose sequence number was not the one after the previous
  ServiceEnd end;
};

inline const char* to_string(ServiceEnd e) {
  switch (e) {
    case ServiceEnd::running: return "still running";
    case ServiceEnd::terminated: return "a terminate message arrived";
    case ServiceEnd::idle: return "no request came within its idle limit";
    case ServiceEnd::responses_full: return "the response ring stayed full (nobody received)";
    case ServiceEnd::clock_exhausted: return "the kernel's clock gives no more stamps (hlc.h: a wall clock past 2112)";
  }
  return "?";
}

/// The kernel's own clock and the stamper (sender add_kernel_id) that stamps its answers with it,
/// at the device's wall time less `wall_offset_us` (what measure_wall_clock_offset() measured:
/// device minus host), so the stamps are on the host's time (docs/messaging.md §2). On a GPU they
/// live in global memory (adder_kernel.cu): their atomics must not work on a kernel's local memory,
/// for which PTX leaves atomic operations undefined.
struct ServiceClock {
  ringkernel::HybridLogicalClock clock;
  ringkernel::MessageStamper stamper{add_kernel_id, &clock};
  std::int64_t wall_offset_us;
  RINGKERNEL_HOST_DEVICE explicit ServiceClock(std::int64_t wall_offset = 0) noexcept : wall_offset_us(wall_offset) {}
  /// wall_clock_us() on the host's time (modulo 2^64: right for a negative offset too).
  RINGKERNEL_HOST_DEVICE std::uint64_t host_wall_us() const noexcept {
    return ringkernel::wall_clock_us() - static_cast<std::uint64_t>(wall_offset_us);
  }
  ServiceClock(const ServiceClock&) = delete;
  ServiceClock& operator=(const ServiceClock&) = delete;
};

/// Serves until a terminate message (or `idle_us` without a request, or a response ring that stays
/// full that long); one thread, the only consumer of `requests` and producer of `responses`, and
/// the only user of `own` (a fresh one: its stamper numbers the answers 0, 1, 2, ...).
RINGKERNEL_HOST_DEVICE inline ServiceReport serve_add_requests(RequestRing requests, ResponseRing responses,
                                                               const WorkerName& worker, std::uint64_t idle_us,
                                                               ServiceClock& own) {
  auto in = requests.consumer();    // endpoints: indices and caches in registers, not in the
  auto out = responses.producer();  // ring's memory (over PCIe from a GPU)
  ringkernel::MessageStamper& stamper = own.stamper;
  ServiceReport report{0, 0, 0, ServiceEnd::running};
  std::uint64_t next_sequence = 0;  // one sender: its stamper numbers envelopes 0, 1, 2, ...
  auto give_up = ringkernel::deadline::after_us(idle_us);
  for (;;) {
    RequestEnvelope request{};
    if (!in.try_pop(request)) {
      if (give_up.passed()) {
        report.end = ServiceEnd::idle;
        return report;
      }
      continue;
    }
    give_up = ringkernel::deadline::after_us(idle_us);
    // A ring that lost, repeated or reordered an envelope, or handed out a stale slot, shows here.
    if (request.header.sequence != next_sequence) ++report.sequence_gaps;
    next_sequence = request.header.sequence + 1;
    if (request.header.type == ringkernel::MessageType::terminate) {
      report.end = ServiceEnd::terminated;
      return report;
    }
    if (request.header.type != ringkernel::MessageType::data ||
        request.header.type_id != ringkernel::message_traits<AddRequest>::type_id) {
      ++report.ignored;
      continue;
    }
    ResponseEnvelope response =
        ResponseEnvelope::create_data(add_kernel_id, request.header.sender_id, handle(request.payload, worker.text));
    if (!stamper.stamp_at(response, own.host_wall_us())) {  // it has a clock: false only once that gives no stamps
      report.end = ServiceEnd::clock_exhausted;
      return report;
    }
    while (!out.try_push(response)) {
      if (give_up.passed()) {
        report.end = ServiceEnd::responses_full;
        return report;
      }
    }
    ++report.served;
  }
}

}  // namespace app
