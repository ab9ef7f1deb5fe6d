// Copyright RingKernel authors.
// Test strict_warnings.nvcc (tests/strict_warnings/CMakeLists.txt): compiled, never run, by nvcc
// with users' strict g++ warning set as host flags and -Werror=all-warnings (warning_sets.cmake).
// It includes the public runtime headers a .cu file may include (all but the host-only
// msgpack_interop.h), the generated .rk.cuh of three message sets and the registry over them, and
// instantiates the device APIs in __global__ kernels: the codec, the envelope and dispatch, the
// clock and the stamper, the rings and the warp calls.
#include <cstddef>
#include <cstdint>

#include "ringkernel/buffers.h"
#include "ringkernel/codec.h"
#include "ringkernel/config.h"
#include "ringkernel/cuda_interop.h"
#include "ringkernel/deadline.h"
#include "ringkernel/device.h"
#include "ringkernel/device_visitor.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/hlc.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"
#include "ringkernel/status.h"
#include "ringkernel/stream.h"
#include "ringkernel/topology.h"
#include "ringkernel/wall_clock.h"
// Generated: the standalone CUDA definitions (the registry includes every .rk.cuh).
#define RINGKERNEL_REGISTRY_USE_CUH
#include "strict.registry.rk.h"

#include "strict_exercise.h"

int strict_warnings_exercise_host();
bool strict_warnings_same_stream(const ringkernel::Stream& s, const ringkernel::Event& e);

namespace {

namespace registry = ringkernel::registry::strict;

// A few messages: both formats, nesting, a causal envelope. Host code instantiates them all; device
// code only two (device code is what the codec's and the messaging's own nvcc checks compile; here
// only its host pass matters, and cicc and ptxas would take a minute for the rest).
template <class... T>
RINGKERNEL_HOST_DEVICE std::uint64_t exercise_codecs(std::uint8_t* buffer) {
  return (strict_warnings::exercise_codec<T>(buffer) + ...);
}
#define STRICT_WARNINGS_MESSAGES \
  codec_test::Point, codec_test::Tag, codec_test::Arrays, codec_test::Outer, app::AddResponse, messaging_test::Reading
constexpr std::size_t buffer_size = strict_warnings::codec_buffer_size<codec_test::Arrays>;  // the largest of them

struct count_visits {
  unsigned long long* total;
  template <class T>
  __device__ void operator()(const T&) const {
    atomicAdd(total, ringkernel::message_traits<T>::type_id);
  }
  template <class T>
  __device__ void operator()(const ringkernel::KernelMessage<T>& m) const {
    atomicAdd(total, m.header.type_id);
  }
};

__global__ void codecs(std::uint8_t* scratch, unsigned long long* total) {
  std::uint64_t sum = exercise_codecs<codec_test::Tag, app::AddResponse>(scratch + threadIdx.x * buffer_size);
  const codec_test::Point point{};
  sum += registry::dispatch(ringkernel::message_traits<codec_test::Point>::type_id, &point, count_visits{total}) ? 1u : 0u;
  const count_visits counter{total};  // and through on_device, as device code should (device_visitor.h)
  sum += registry::dispatch(ringkernel::message_traits<codec_test::Point>::type_id, &point,
                            ringkernel::on_device(counter)) ? 1u : 0u;
  const auto raw = ringkernel::KernelMessage<codec_test::Point>::create_data(1, 2, point);
  sum += registry::dispatch_kernel_message(&raw, sizeof raw, ringkernel::on_device(counter)).size;
  const registry::kernel_info* kernel = registry::find_kernel(ringkernel::message_traits<app::AddRequest>::kernel_id);
  sum += kernel != nullptr ? kernel->receive_count : 0u;
  atomicAdd(total, sum);
}

__global__ void clocks(ringkernel::HybridLogicalClock* clock, ringkernel::MessageStamper* stamper,
                       unsigned long long* total) {
  atomicAdd(total, strict_warnings::exercise_clock<app::AddResponse, app::AddRequest>(*clock, *stamper));
}

template <ringkernel::atomic_scope S>
__global__ void rings(ringkernel::mpmc_ring<messaging_test::Tagged, S> mpmc, ringkernel::spsc_ring<messaging_test::Blob64, S> spsc,
                      unsigned long long* total) {
  messaging_test::Tagged t{threadIdx.x, 0, blockIdx.x};
  std::uint64_t sum = ringkernel::warp_push(mpmc, t) ? 1u : 0u;
  sum += ringkernel::warp_pop(mpmc, t) ? 1u : 0u;
  sum += mpmc.try_push(t) && mpmc.try_pop(t) ? 1u : 0u;
  sum += mpmc.try_push_batch(&t, 1) + mpmc.try_pop_batch(&t, 1) + (mpmc.try_peek(t) ? 1u : 0u);
  __shared__ messaging_test::Tagged batch[64];
  sum += ringkernel::warp_push_batch(0xffffffffu, mpmc, batch, 64);
  sum += ringkernel::warp_pop_batch(0xffffffffu, mpmc, batch, 64);
  if (threadIdx.x == 0) {
    messaging_test::Blob64 b{};
    sum += spsc.try_push(b) && spsc.try_pop(b) ? 1u : 0u;
    sum += spsc.try_push_batch(&b, 1) + spsc.try_pop_batch(&b, 1) + (spsc.try_peek(b) ? 1u : 0u);
    auto producer = spsc.producer();
    auto consumer = spsc.consumer();
    sum += producer.try_push(b) && consumer.try_pop(b) ? 1u : 0u;
    sum += spsc.size() + mpmc.size();
  }
  atomicAdd(total, sum);
}

}  // namespace

// Host-side references so the kernels are emitted.
void* strict_warnings_kernels[] = {reinterpret_cast<void*>(&codecs), reinterpret_cast<void*>(&clocks),
                                   reinterpret_cast<void*>(&rings<ringkernel::atomic_scope::device>),
                                   reinterpret_cast<void*>(&rings<ringkernel::atomic_scope::system>)};

// The CUDA handles behind a stream and an event (cuda_interop.h), in host code.
bool strict_warnings_same_stream(const ringkernel::Stream& s, const ringkernel::Event& e) {
  return ringkernel::cuda_stream(s) == static_cast<cudaStream_t>(s.native_handle()) &&
         ringkernel::cuda_event(e) == static_cast<cudaEvent_t>(e.native_handle());
}

// The same templates in host code of a .cu file (nvcc's host pass), and the host queues.
int strict_warnings_exercise_host() {
  std::vector<std::uint8_t> buffer(buffer_size);
  std::uint64_t total = exercise_codecs<STRICT_WARNINGS_MESSAGES>(buffer.data());
  ringkernel::HybridLogicalClock clock;
  ringkernel::MessageStamper stamper(3, &clock);
  total += strict_warnings::exercise_clock<app::AddResponse, app::AddRequest>(clock, stamper);
  ringkernel::MpmcQueue<ringkernel::KernelMessage<messaging_test::Tick>> mpmc;
  ringkernel::SpscQueue<messaging_test::Tagged> spsc;
  total += strict_warnings::exercise_queue(mpmc) + strict_warnings::exercise_queue(spsc);
  total += strict_warnings::exercise_rings<messaging_test::Blob64, ringkernel::atomic_scope::system>();
  total += strict_warnings::exercise_p2p_queue<messaging_test::Reading>();
  return total != 0 ? 0 : 1;
}
