// Copyright RingKernel authors.
// Test seams (private to the runtime and its tests): host-backend refusals that CUDA can produce and
// the host backend otherwise never does, so that what follows them runs without a GPU. Each is
// process-wide; a test turns it off (false) however it ends.
#pragma once

namespace ringkernel::detail {

/// While on, the host backend's enable_peer_access throws Error(backend_failure) for every pair not
/// enabled yet, naming the seam (pairs already enabled stay enabled), as cudaDeviceEnablePeerAccess
/// may refuse a pair whose link allows it (e.g. cudaErrorTooManyPeers).
void refuse_host_peer_access_for_testing(bool on) noexcept;

/// While on, the host backend's pinned allocations throw Error(out_of_memory) naming the seam, as
/// cudaHostAlloc does when the system cannot lock more memory.
void refuse_host_pinned_memory_for_testing(bool on) noexcept;

}  // namespace ringkernel::detail
