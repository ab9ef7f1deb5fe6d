// Copyright RingKernel authors.
// Several message types through one queue, run on the device (label gpu): the generated registry's
// kernel_message_slot, make_kernel_message_slot(message) and dispatch_kernel_message(slot, visitor)
// of registry device_routes (registry_device_support.h: 9 message types, KernelMessage<T> of 40 to
// 96 bytes aligned to 8 or 16, causal, map-format and padded payloads):
//  - slots built by kernel threads go through a device-scope mpmc_ring in device memory to a second
//    kernel, which dispatches them;
//  - slots built on the host go through an MpmcQueue<kernel_message_slot> in pinned memory to a
//    kernel (kernel_ring()), which dispatches them;
//  - slots built by kernel threads go through a pinned MpmcQueue to the host, which dispatches them
//    (the device's slot bytes read by the host compiler's code).
// Each run carries 180 messages, 20 of each type, a quarter each with the header's type id right,
// set to another message's, 0, and one the registry lacks: make_kernel_message_slot writes T's, so
// every one reaches T's handler. Plus a value-initialised slot and one whose type id was overwritten
// with an unknown id after make_kernel_message_slot: wrong_message_type at 16, no call (the messages:
// registry_slot_samples.h). The handlers (a call operator for const KernelMessage<T>& only) record
// per message (by its sequence number) the calls, T's type id and a checksum of every header and
// payload field; the host checks that each message reached T's handler exactly once with its
// values, and the statuses and sizes dispatch_kernel_message returned.
// HostRunOfTheSameCode runs the same code on the host (the expectations hold without a device);
// the device tests skip, with the CUDA backend's reason, without one. Kernels run one after the
// other and never wait (no co-scheduling), so compute-sanitizer runs them all.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ringkernel/device.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/queue_storage.h"

#include "registry_device_support.h"
#include "registry_slot_samples.h"

namespace {

using namespace registry_device_support;
using namespace registry_slot_samples;
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using slot = reg::kernel_message_slot;
using DeviceRing = ringkernel::mpmc_ring<slot, ringkernel::atomic_scope::device>;
using SlotQueue = ringkernel::MpmcQueue<slot>;

constexpr std::uint64_t ring_capacity = 256;
static_assert(ring_capacity >= total_slots, "every push finds room: nothing pops while they run");

// What dispatch_slot counts.
enum counter : std::uint32_t { routed, unrouted, other_status, stray, wrong_size, push_failed, counter_count };

__host__ __device__ inline void bump(unsigned& c) {
#if defined(__CUDA_ARCH__)
  atomicAdd(&c, 1u);
#else
  ++c;  // the host runs it on one thread
#endif
}

/// What the handlers saw of message i (its sequence number).
struct slot_record {
  std::uint32_t calls;
  std::uint32_t type_id;    // message_traits<T>::type_id of the handler's T
  std::uint64_t checksum;   // message_checksum of the KernelMessage<T> it got
};
static_assert(sizeof(slot_record) == 16, "no padding: the records are zeroed and compared whole");

/// The typed handlers: a call operator for KernelMessage<T> only (no raw payloads).
struct slot_handlers {
  slot_record* records;
  unsigned* counters;
  std::size_t* handled_size;  // sizeof(KernelMessage<T>) of the last call
  template <class T>
  __host__ __device__ void operator()(const KernelMessage<T>& m) const {
    *handled_size = sizeof m;
    const std::uint64_t i = m.header.sequence;
    if (i >= message_slots) {
      bump(counters[stray]);
      return;
    }
    bump(records[i].calls);
    records[i].type_id = message_traits<T>::type_id;
    records[i].checksum = message_checksum(m);
  }
};

__host__ __device__ void dispatch_slot(const slot& s, slot_record* records, unsigned* counters) {
  std::size_t handled_size = 0;
  const slot_handlers handlers{records, counters, &handled_size};
#if defined(__CUDA_ARCH__)
  const codec_result r = reg::dispatch_kernel_message(s, ringkernel::on_device(handlers));
#else
  const codec_result r = reg::dispatch_kernel_message(s, handlers);
#endif
  if (r.status == codec_status::ok) {
    bump(counters[routed]);
    if (r.size != handled_size) bump(counters[wrong_size]);
  } else if (r.status == codec_status::wrong_message_type && r.size == ringkernel::envelope_type_id_offset &&
             handled_size == 0) {
    bump(counters[unrouted]);
  } else {
    bump(counters[other_status]);
  }
}

template <class Ring>
__host__ __device__ void push_slot(Ring ring, std::uint32_t i, unsigned* counters) {
  if (!ring.try_push(make_slot(i))) bump(counters[push_failed]);
}

/// Pops and dispatches until the ring is empty (nothing pushes meanwhile).
template <class Ring>
__host__ __device__ void drain(Ring ring, slot_record* records, unsigned* counters) {
  slot s;
  while (ring.try_pop(s)) dispatch_slot(s, records, counters);
}

// Thread i builds slot i and pushes it.
template <class Ring>
__global__ void build_slots(Ring ring, unsigned* counters) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total_slots) push_slot(ring, i, counters);
}

template <class Ring>
__global__ void dispatch_slots(Ring ring, slot_record* records, unsigned* counters) {
  drain(ring, records, counters);
}
constexpr unsigned dispatch_blocks = 2, dispatch_threads = 64;  // contended pops

// ---------------------------------------------------------------------------------------------
// The host's side: what each message should give, and the check.

std::string name_of(std::uint32_t type_id) {
  const ringkernel::message_info* info = reg::find(type_id);
  return info != nullptr ? info->name : "type id " + std::to_string(type_id);
}

void expect_each_message_once(const std::vector<slot_record>& records, const std::vector<unsigned>& counters,
                              const char* where) {
  SCOPED_TRACE(where);
  ASSERT_EQ(records.size(), message_slots);
  ASSERT_EQ(counters.size(), std::size_t{counter_count});
  EXPECT_EQ(counters[push_failed], 0u) << "a push found the ring full";
  EXPECT_EQ(counters[routed], message_slots) << "dispatch_kernel_message(slot, visitor) returned ok";
  EXPECT_EQ(counters[unrouted], 2u)
      << "the empty slot and the one with an unknown type id: wrong_message_type at 16, no call";
  EXPECT_EQ(counters[other_status], 0u) << "another status, or wrong_message_type with a call or another offset";
  EXPECT_EQ(counters[stray], 0u) << "a handler got a sequence number that no message had";
  EXPECT_EQ(counters[wrong_size], 0u) << "ok's size was not sizeof(KernelMessage<T>) of the handler's T";
  std::size_t bad = 0;
  std::string first_bad;
  for (std::uint32_t i = 0; i < message_slots; ++i) {
    const expectation e = expected(i);
    const slot_record& got = records[i];
    if (got.calls == 1 && got.type_id == e.type_id && got.checksum == e.checksum) continue;
    if (++bad <= 5) {
      first_bad += "\n  message " + std::to_string(i) + " (" + name_of(e.type_id) + ", header type id " +
                   std::to_string(e.header_type_id) + "): " + std::to_string(got.calls) +
                   " calls, last by the handler of " + (got.calls == 0 ? std::string("none") : name_of(got.type_id)) +
                   (got.calls != 0 && got.checksum != e.checksum ? ", other values" : "");
    }
  }
  EXPECT_EQ(bad, 0u) << "messages that did not reach their T's handler exactly once with their values (first 5):"
                     << first_bad;
}

/// Results of a run: records of every message and the counters, zeroed.
struct run_results {
  std::vector<slot_record> records = std::vector<slot_record>(message_slots, slot_record{});
  std::vector<unsigned> counters = std::vector<unsigned>(counter_count, 0u);
};

/// The same results in device memory, zeroed.
struct device_results {
  device_ptr records, counters;
  slot_record* records_at() const { return static_cast<slot_record*>(records.get()); }
  unsigned* counters_at() const { return static_cast<unsigned*>(counters.get()); }
};

void allocate(device_results& d) {
  zeroed_on_device<slot_record>(message_slots, d.records);
  zeroed_on_device<unsigned>(counter_count, d.counters);
}

void fetch(const device_results& d, run_results& r) {
  from_device(d.records, r.records);
  from_device(d.counters, r.counters);
}

}  // namespace

/// Declares `name`, the first CUDA device's id (made current), or skips the test with the CUDA backend's reason.
#define REQUIRE_CUDA_DEVICE_ID(name) \
  REQUIRE_CUDA_DEVICE();             \
  const int name = cuda_devices_.front().id

namespace {

TEST(RegistryDeviceSlots, HostRunOfTheSameCodeReachesEachTypedHandlerOnce) {
  // The samples exercise what the device tests claim: every type in each variant, and the header's
  // type id other than T's in three variants of four.
  std::vector<unsigned> per_type_variant(reg::message_count * variants, 0);
  for (std::uint32_t i = 0; i < message_slots; ++i) {
    const expectation e = expected(i);
    const std::uint32_t variant = (i / reg::message_count) % variants;
    EXPECT_EQ(e.header_type_id == e.type_id, variant == 0) << "message " << i;
    ASSERT_NE(reg::find(e.type_id), nullptr) << "message " << i;
    ++per_type_variant[(i % reg::message_count) * variants + variant];
  }
  for (const unsigned n : per_type_variant) EXPECT_EQ(n, rounds);

  ringkernel::QueueStorage storage(QueueMemory::host, -1, DeviceRing::bytes_for(ring_capacity));
  const DeviceRing ring = ringkernel::initialize_ring<DeviceRing>(storage, ring_capacity);
  run_results host;
  for (std::uint32_t i = 0; i < total_slots; ++i) push_slot(ring, i, host.counters.data());
  drain(ring, host.records.data(), host.counters.data());
  expect_each_message_once(host.records, host.counters, "host");
}

TEST(RegistryDeviceSlots, SlotsBuiltInAKernelThroughADeviceRingReachTheirHandlersInAKernel) {
  REQUIRE_CUDA_DEVICE_ID(dev);
  ringkernel::QueueStorage storage(QueueMemory::device, dev, DeviceRing::bytes_for(ring_capacity));
  const DeviceRing ring = ringkernel::initialize_ring<DeviceRing>(storage, ring_capacity);
  device_results d;
  allocate(d);
  ASSERT_FALSE(HasFatalFailure());
  build_slots<<<blocks_for(total_slots), threads_per_block>>>(ring, d.counters_at());
  CUDA_CHECK(cudaGetLastError());
  dispatch_slots<<<dispatch_blocks, dispatch_threads>>>(ring, d.records_at(), d.counters_at());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  run_results got;
  fetch(d, got);
  ASSERT_FALSE(HasFatalFailure());
  expect_each_message_once(got.records, got.counters, "built and dispatched on the device");
}

TEST(RegistryDeviceSlots, SlotsBuiltOnTheHostThroughAPinnedQueueReachTheirHandlersInAKernel) {
  REQUIRE_CUDA_DEVICE_ID(dev);
  SlotQueue q(QueueOptions{.capacity = ring_capacity, .memory = QueueMemory::pinned, .device = dev,
                           .producers = QueueUsers::host, .consumers = QueueUsers::kernels});
  for (std::uint32_t i = 0; i < total_slots; ++i) ASSERT_TRUE(q.try_send(make_slot(i)).ok()) << "slot " << i;
  device_results d;
  allocate(d);
  ASSERT_FALSE(HasFatalFailure());
  dispatch_slots<<<dispatch_blocks, dispatch_threads>>>(q.kernel_ring(), d.records_at(), d.counters_at());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(q.count(), 0u) << "the kernel popped every slot";
  run_results got;
  fetch(d, got);
  ASSERT_FALSE(HasFatalFailure());
  expect_each_message_once(got.records, got.counters, "built on the host, dispatched on the device");
}

TEST(RegistryDeviceSlots, SlotsBuiltInAKernelThroughAPinnedQueueReachTheirHandlersOnTheHost) {
  REQUIRE_CUDA_DEVICE_ID(dev);
  SlotQueue q(QueueOptions{.capacity = ring_capacity, .memory = QueueMemory::pinned, .device = dev,
                           .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  device_results d;
  allocate(d);
  ASSERT_FALSE(HasFatalFailure());
  build_slots<<<blocks_for(total_slots), threads_per_block>>>(q.kernel_ring(), d.counters_at());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  run_results got;
  fetch(d, got);  // push_failed; the rest of the counters stay 0 for the host's dispatch
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(q.count(), std::size_t{total_slots}) << "the kernel pushed every slot";
  slot s;
  while (q.try_receive(s) == ringkernel::ReceiveStatus::ok) dispatch_slot(s, got.records.data(), got.counters.data());
  expect_each_message_once(got.records, got.counters, "built on the device, dispatched on the host");
}

}  // namespace
