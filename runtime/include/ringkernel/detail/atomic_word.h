// Copyright RingKernel authors.
// One atomic view over a plain 64-bit word, the same on host and device, so that a word placed in
// mapped pinned memory or device memory can be updated by host threads and CUDA threads alike:
//   - device code (nvcc's device pass): cuda::atomic_ref<T, scope>;
//   - host code, in every translation unit (g++/clang++ ones and nvcc's host pass alike):
//     std::atomic_ref<T> (the scope is ignored: host atomics are always system-wide).
// The class is one pointer to the word and its host code is the same whichever compiler builds
// the translation unit, so an inline function the linker keeps from a .cu file serves the .cpp
// files too (and the reverse). The word itself is an ordinary aligned std::uint64_t: no
// std::atomic object lives in shared memory, so the layout is identical for every compiler.
#pragma once

#include <atomic>
#include <cstdint>

#include "ringkernel/config.h"

#if defined(__CUDACC__)
#include <cuda/atomic>
#endif

// ThreadSanitizer does not model std::atomic_thread_fence: relaxed operations ordered by a fence
// look unsynchronised to it. Host builds under ThreadSanitizer therefore tell it what a fence
// does, approximately (it may see slightly more order than the program has, and so miss a race,
// never less, so it reports no false one):
// - an acquire fence acquires the words this thread loaded since its previous acquire fence (the
//   last 64), as if those loads had been acquire loads;
// - after a release fence, every store or read-modify-write of this thread also releases, as if it
//   were a release store (the fence orders everything before it before every later store).
#if !defined(__CUDACC__)
#if defined(__SANITIZE_THREAD__)
#define RINGKERNEL_TSAN_FENCE_MODEL 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RINGKERNEL_TSAN_FENCE_MODEL 1
#endif
#endif
#endif
#if defined(RINGKERNEL_TSAN_FENCE_MODEL)
#include <sanitizer/tsan_interface.h>
namespace ringkernel::detail::tsan_fence_model {
struct thread_state {
  static constexpr unsigned remembered = 64;
  void* loaded[remembered] = {};
  unsigned loads = 0;
  bool released = false;
};
inline thread_local thread_state state;
inline void loaded(void* word) noexcept { state.loaded[state.loads++ % thread_state::remembered] = word; }
inline void storing(void* word) noexcept {
  if (state.released) __tsan_release(word);
}
inline void fence(bool acquire, bool release) noexcept {
  if (acquire) {
    const unsigned n = state.loads < thread_state::remembered ? state.loads : thread_state::remembered;
    for (unsigned i = 0; i < n; ++i) __tsan_acquire(state.loaded[i]);
    state.loads = 0;
  }
  if (release) state.released = true;
}
}  // namespace ringkernel::detail::tsan_fence_model
#endif

namespace ringkernel {

/// Which threads an atomic operation must be coherent with (CUDA thread scopes). Choose the
/// narrowest correct one: `device` for memory only one GPU touches, `system` for mapped host
/// memory or peer memory that the host or another GPU touches too.
enum class atomic_scope : std::uint8_t { block, device, system };

}  // namespace ringkernel

namespace ringkernel::detail {

enum class order : std::uint8_t { relaxed, acquire, release, acq_rel, seq_cst };

#if defined(__CUDACC__)
template <atomic_scope S>
inline constexpr cuda::thread_scope cuda_scope_of =
    S == atomic_scope::block ? cuda::thread_scope_block
    : S == atomic_scope::device ? cuda::thread_scope_device
                                : cuda::thread_scope_system;
RINGKERNEL_HOST_DEVICE constexpr cuda::std::memory_order to_cuda_order(order o) noexcept {
  switch (o) {
    case order::relaxed: return cuda::std::memory_order_relaxed;
    case order::acquire: return cuda::std::memory_order_acquire;
    case order::release: return cuda::std::memory_order_release;
    case order::acq_rel: return cuda::std::memory_order_acq_rel;
    case order::seq_cst: return cuda::std::memory_order_seq_cst;
  }
  return cuda::std::memory_order_seq_cst;
}
#endif

constexpr std::memory_order to_std_order(order o) noexcept {
  switch (o) {
    case order::relaxed: return std::memory_order_relaxed;
    case order::acquire: return std::memory_order_acquire;
    case order::release: return std::memory_order_release;
    case order::acq_rel: return std::memory_order_acq_rel;
    case order::seq_cst: return std::memory_order_seq_cst;
  }
  return std::memory_order_seq_cst;
}

/// Failure order of a compare-exchange whose success order is `o` (no release part on failure).
RINGKERNEL_HOST_DEVICE constexpr order failure_order(order o) noexcept {
  return o == order::release ? order::relaxed : o == order::acq_rel ? order::acquire : o;
}

/// A fence of order `o` for the threads of `Scope`; with relaxed atomics before (acquire) or after
/// (release) it, it synchronises as C++'s fence rules say (one fence for many relaxed operations).
template <atomic_scope Scope>
RINGKERNEL_HOST_DEVICE inline void atomic_fence(order o) noexcept {
#if defined(__CUDA_ARCH__)
  cuda::atomic_thread_fence(to_cuda_order(o), cuda_scope_of<Scope>);
#else
#if defined(RINGKERNEL_TSAN_FENCE_MODEL)
  tsan_fence_model::fence(o != order::release && o != order::relaxed, o != order::acquire && o != order::relaxed);
#endif
  std::atomic_thread_fence(to_std_order(o));
#endif
}

/// Atomic operations on a std::uint64_t that must be 8-byte aligned. Each operation is one
/// cuda::atomic_ref operation at `Scope` in device code and one std::atomic_ref operation in host
/// code (see the top of this file).
template <atomic_scope Scope = atomic_scope::system>
class atomic_word {
 public:
  RINGKERNEL_HOST_DEVICE explicit atomic_word(std::uint64_t& word) noexcept : word_(&word) {}

  /// The word's address: which word this is (e.g. to group a warp's lanes by the counter they claim on).
  RINGKERNEL_HOST_DEVICE const void* address() const noexcept { return word_; }

  RINGKERNEL_HOST_DEVICE std::uint64_t load(order o) const noexcept {
#if defined(__CUDA_ARCH__)
    return device_ref().load(to_cuda_order(o));
#else
    const std::uint64_t v = host_ref().load(to_std_order(o));
    tsan_loaded();
    return v;
#endif
  }
  RINGKERNEL_HOST_DEVICE void store(std::uint64_t v, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    device_ref().store(v, to_cuda_order(o));
#else
    tsan_storing();
    host_ref().store(v, to_std_order(o));
#endif
  }
  RINGKERNEL_HOST_DEVICE std::uint64_t fetch_add(std::uint64_t v, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    return device_ref().fetch_add(v, to_cuda_order(o));
#else
    tsan_storing();
    const std::uint64_t before = host_ref().fetch_add(v, to_std_order(o));
    tsan_loaded();
    return before;
#endif
  }
  /// Weak CAS: may fail spuriously; on failure `expected` holds the current value.
  RINGKERNEL_HOST_DEVICE bool compare_exchange_weak(std::uint64_t& expected, std::uint64_t desired, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    return device_ref().compare_exchange_weak(expected, desired, to_cuda_order(o), to_cuda_order(failure_order(o)));
#else
    tsan_storing();
    const bool done = host_ref().compare_exchange_weak(expected, desired, to_std_order(o), to_std_order(failure_order(o)));
    tsan_loaded();
    return done;
#endif
  }
  RINGKERNEL_HOST_DEVICE bool compare_exchange_strong(std::uint64_t& expected, std::uint64_t desired, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    return device_ref().compare_exchange_strong(expected, desired, to_cuda_order(o), to_cuda_order(failure_order(o)));
#else
    tsan_storing();
    const bool done =
        host_ref().compare_exchange_strong(expected, desired, to_std_order(o), to_std_order(failure_order(o)));
    tsan_loaded();
    return done;
#endif
  }
  /// Raises the word to at least `v` (a CAS loop); returns the value before.
  RINGKERNEL_HOST_DEVICE std::uint64_t fetch_max(std::uint64_t v, order o) const noexcept {
    std::uint64_t current = load(order::relaxed);
    while (current < v && !compare_exchange_weak(current, v, o)) {
    }
    return current;
  }

 private:
#if defined(__CUDACC__)
  __device__ cuda::atomic_ref<std::uint64_t, cuda_scope_of<Scope>> device_ref() const noexcept {
    return cuda::atomic_ref<std::uint64_t, cuda_scope_of<Scope>>(*word_);
  }
#endif
  std::atomic_ref<std::uint64_t> host_ref() const noexcept { return std::atomic_ref<std::uint64_t>(*word_); }
  // The fence model for ThreadSanitizer (top of this file); nothing in other builds.
#if defined(RINGKERNEL_TSAN_FENCE_MODEL)
  void tsan_loaded() const noexcept { tsan_fence_model::loaded(word_); }
  void tsan_storing() const noexcept { tsan_fence_model::storing(word_); }
#else
  void tsan_loaded() const noexcept {}
  void tsan_storing() const noexcept {}
#endif

  std::uint64_t* word_;
};

}  // namespace ringkernel::detail
