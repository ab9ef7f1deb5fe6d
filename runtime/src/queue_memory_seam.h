// Copyright RingKernel authors.
// Test seam (private to the runtime and its tests): host-backend device memory treated as CUDA
// device memory by the queues, so that their GPU-memory paths run without a GPU.
#pragma once

namespace ringkernel::detail {

/// While on, QueueMemory::device of a host-backend device is, for the queues, memory that host
/// threads cannot reach, as CUDA device memory is: QueueStorage::host_accessible() is false (uploads
/// and downloads copy on streams), MpmcQueue refuses it, and a direct_p2p P2PMessageQueue places a
/// bare ring there for kernels (host threads play them: the memory is still host memory). Storage
/// keeps what it was made with. Process-wide; a test turns it off (false) however it ends.
/// Toggle it only while no queue or QueueStorage is being constructed, on any thread: one
/// construction reads it up to three times (a P2PMessageQueue: choosing its mode, placing its ring,
/// then QueueStorage for host_accessible()), and a switch between reads would leave a queue whose
/// parts disagree about its memory.
void treat_host_device_memory_as_gpu_memory_for_testing(bool on) noexcept;

}  // namespace ringkernel::detail
