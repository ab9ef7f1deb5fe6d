// Copyright RingKernel authors.
// The warp collectives that the device queue operations (warp_enqueue.h) are written against, so
// that one algorithm runs on a GPU (cuda_warp: __activemask, __shfl_sync, __ballot_sync, ...) and,
// in the tests, on host threads playing the lanes of a warp (tests/messaging/simulated_warp.h).
//
// A Warp type provides, for the calling lane (`mask` is always the group of the operation: read
// once by active() in the single-message operations, the caller's mask in the batch operations;
// the single-message operations run one claim per ring among those lanes, each over the whole
// group, the lanes of other rings taking part with neutral values):
//   unsigned active() const;                          the lanes executing this call together now
//   unsigned lane() const;                            the calling lane's id, 0..31
//   template <class V> V shfl(unsigned mask, V v, int src) const;  lane src's v, to every lane
//   unsigned ballot(unsigned mask, bool p) const;     the lanes whose p is true
//   unsigned reduce_min(unsigned mask, unsigned v) const;  the smallest v over the lanes
//   void sync(unsigned mask) const;                   __syncwarp: execution and memory barrier
//   unsigned running(unsigned mask) const;            the lanes of mask that have not exited
//                                                     (__ballot_sync(mask, true): waits for the
//                                                     others, as __syncwarp does; an exited lane,
//                                                     or one past the end of a partial warp, is
//                                                     simply left out, as the intrinsics allow)
// shfl, ballot, reduce_min and running exchange register values only: they order no memory access
// (the host simulation hides them from ThreadSanitizer's happens-before for that reason). Every
// lane of `mask` that has not exited makes the same sequence of calls.
// active() (__activemask()) only reports which lanes happen to execute together: under independent
// thread scheduling (Volta and later) lanes the program considers converged may arrive in separate
// groups, so it must not decide who takes part in an operation whose result depends on the whole
// group (the CUDA Programming Guide says as much). The single-message operations may use it (each
// lane's own message is handled once, by whichever group the lane arrived in); the batch operations
// take the participating lanes from the caller (its mask, less the lanes that have exited:
// running(mask)) and meet with sync(mask).
#pragma once

#include "ringkernel/config.h"

/// Qualifier of the functions written against a Warp: device functions under nvcc (cuda_warp's
/// members are device-only), ordinary functions for host compilers (the simulated warp).
#if defined(__CUDACC__)
#define RINGKERNEL_WARP_FUNCTION __device__
#else
#define RINGKERNEL_WARP_FUNCTION
#endif

namespace ringkernel::detail {

RINGKERNEL_HOST_DEVICE inline unsigned lane_popcount(unsigned mask) noexcept {
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned>(__popc(mask));
#else
  return static_cast<unsigned>(__builtin_popcount(mask));
#endif
}

/// The lowest lane of a non-empty mask.
RINGKERNEL_HOST_DEVICE inline int lowest_lane(unsigned mask) noexcept {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(mask)) - 1;
#else
  return __builtin_ffs(static_cast<int>(mask)) - 1;
#endif
}

/// The lanes taking part in one warp operation, fixed once and used for all of it: every lane's
/// rank, the number of lanes and the leader must agree across the whole operation (a second
/// __activemask() could differ under independent thread scheduling).
struct warp_group {
  unsigned active;  // lane mask of the participants
  unsigned lanes;   // how many
  unsigned lane;    // this lane's id
  unsigned rank;    // this lane's position among the participants
  int leader;       // the lowest participating lane

  /// The lanes of `mask`, as the caller states them (non-empty; a lane outside it gets the rank
  /// of its position among them, which means nothing).
  template <class Warp>
  RINGKERNEL_WARP_FUNCTION static warp_group of_lanes(const Warp& warp, unsigned mask) noexcept {
    const unsigned lane = warp.lane();
    return {mask, lane_popcount(mask), lane, lane_popcount(mask & ((1u << lane) - 1u)), lowest_lane(mask)};
  }
  RINGKERNEL_HOST_DEVICE bool is_leader() const noexcept { return static_cast<int>(lane) == leader; }
};

}  // namespace ringkernel::detail

#if defined(__CUDACC__)

namespace ringkernel::detail {

/// The calling warp of a CUDA kernel.
struct cuda_warp {
  __device__ unsigned active() const noexcept { return __activemask(); }
  __device__ unsigned lane() const noexcept {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
  }
  template <class V>
  __device__ V shfl(unsigned mask, V v, int src) const noexcept {
    return __shfl_sync(mask, v, src);
  }
  __device__ unsigned ballot(unsigned mask, bool p) const noexcept { return __ballot_sync(mask, p); }
  __device__ unsigned reduce_min(unsigned mask, unsigned v) const noexcept {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_min_sync(mask, v);
#else
    unsigned m = v;
    for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
      const unsigned other = __shfl_sync(mask, v, __ffs(static_cast<int>(lanes)) - 1);
      m = other < m ? other : m;
    }
    return m;
#endif
  }
  __device__ void sync(unsigned mask) const noexcept { __syncwarp(mask); }
  __device__ unsigned running(unsigned mask) const noexcept { return __ballot_sync(mask, true); }
};

}  // namespace ringkernel::detail

#endif  // __CUDACC__
