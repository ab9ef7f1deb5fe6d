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

// ThreadSanitizer and fences. Why this exists: a GPU honours a release fence only for what comes
// before it, so a payload written (or read) after the fence, before the relaxed store that
// publishes (or frees) the slot, is a real race there: torn, stale or overwritten messages. The
// host tests run the device algorithms on host threads (tests/messaging/simulated_warp.h), and x86
// never lets a store overtake an older one, so every such run passes: without a GPU, only
// ThreadSanitizer, which judges happens-before and not timing, can see a misplaced fence. But it
// does not model std::atomic_thread_fence (relaxed operations ordered by a fence look
// unsynchronised to it), so host builds under ThreadSanitizer tell it what a fence does, as C++
// ([atomics.fences]) and PTX define it:
// - a release fence is a token of its own: __tsan_release on a fresh token address records this
//   thread's clock AT THE FENCE (not at the later store), and the token becomes the thread's last
//   release fence;
// - every later store or read-modify-write of that thread leaves that token on the word it writes
//   (a side table: word -> token of the store that wrote its current value);
// - a load or read-modify-write that acquires acquires the token of the value it read (fence to
//   atomic); one that does not remembers the word and the token, and the thread's next acquire
//   fence acquires both (the last 64 loads): the token (fence to fence) and the word's own
//   ThreadSanitizer clock (a release store read before an acquire fence).
// So what a thread does between a release fence and the store after it is not published, as on a
// GPU: tests/messaging/tsan_fence_model_test.cpp pins that (a payload written after the fence is a
// reported race; written before it, nothing is reported), and mutants of warp_enqueue.h with the
// fence moved above the payload accesses are reported by the warp tests.
// The table is ThreadSanitizer-blind (Annotate*Ignore*: it neither orders nor is checked) and is
// locked per word around the operation itself, so the token found is exactly that of the store
// read. Memory is bounded (a fixed table and token pool). Approximations: the first two give more
// order than the program has (a missed race, never a false report), the last two less (a false
// report is possible in principle; RingKernel's code has neither case):
// - a token is reused after token_count fences (it then also carries the newer fence's clock);
// - a word whose entry was evicted from a full table set makes a reader acquire `any_fence`, which
//   every release fence releases (the join of all fences so far);
// - more than 64 loads before an acquire fence: only the last 64 are acquired (the batch claims
//   load, in the claim that succeeds, at most warp_batch_per_lane slots and the index);
// - a read-modify-write after a release fence leaves its own thread's token and drops that of the
//   store it continues (C++'s release sequence would keep both; a read-modify-write of a thread
//   without a release fence keeps it). Nothing in RingKernel publishes through such a chain: the
//   fenced stores are the seq words of warp_push_batch / warp_pop_batch, never read-modify-written.
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

#include <cstddef>
#include <mutex>
extern "C" void AnnotateIgnoreSyncBegin(const char* file, int line);
extern "C" void AnnotateIgnoreSyncEnd(const char* file, int line);
extern "C" void AnnotateIgnoreReadsBegin(const char* file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char* file, int line);
extern "C" void AnnotateIgnoreWritesBegin(const char* file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char* file, int line);
namespace ringkernel::detail::tsan_fence_model {
// Fence tokens: one byte each (ThreadSanitizer keeps one clock per address), taken in turn.
inline constexpr std::size_t token_count = std::size_t{1} << 14;
inline unsigned char tokens[token_count];
inline std::atomic<std::size_t> next_token{0};
inline unsigned char any_fence;  // every release fence releases here too (see above)

// The side table: 2^14 sets of 4 words, each set with its lock: 120 bytes a set with glibc (a
// 40-byte std::mutex), so 1.875 MiB, plus the 16 KiB of tokens above.
inline constexpr std::size_t set_count = std::size_t{1} << 14;
inline constexpr unsigned ways = 4;
struct table_set {
  std::mutex mutex;
  const void* words[ways] = {};
  void* tokens[ways] = {};
  std::uint64_t lost = 0;  // lost_bit() of each word evicted from this set
  unsigned next = 0;       // the next way to evict
};
inline table_set table[set_count];
inline std::size_t hash_of(const void* word) noexcept {
  return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(word) >> 3) * 0x9E3779B97F4A7C15ull >> 20);
}
inline table_set& set_of(const void* word) noexcept { return table[hash_of(word) % set_count]; }
inline std::uint64_t lost_bit(const void* word) noexcept { return std::uint64_t{1} << (hash_of(word) / set_count % 64); }

struct thread_state {
  static constexpr unsigned remembered = 64;
  const void* loaded[remembered] = {};
  void* tokens[remembered] = {};  // the token of the value each load read (nullptr: none)
  unsigned loads = 0;
  void* fence = nullptr;  // the token of this thread's last release fence
};
inline thread_local thread_state state;

/// What ThreadSanitizer must neither check nor count as synchronisation (the table and its locks).
struct hidden {
  hidden() noexcept {
    AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  }
  ~hidden() {
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
    AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
  }
  hidden(const hidden&) = delete;
  hidden& operator=(const hidden&) = delete;
};

/// One atomic operation on `word`, done while its table set is locked: construct, do the
/// operation (visible to ThreadSanitizer as usual), report read() and/or wrote(), destroy.
class access {
 public:
  explicit access(const void* word) noexcept
      : word_(word), bit_(lost_bit(word)), set_(set_of(word)) {
    hidden h;
    set_.mutex.lock();
  }
  ~access() {
    {
      hidden h;
      set_.mutex.unlock();
    }
    if (acquire_ && read_ != nullptr) __tsan_acquire(read_);  // outside `hidden`: this one counts
  }
  access(const access&) = delete;
  access& operator=(const access&) = delete;

  /// The operation read the word's value; `acquire`: with acquire order.
  void read(bool acquire) noexcept {
    hidden h;
    const unsigned way = find();
    read_ = way < ways ? set_.tokens[way] : (set_.lost & bit_) != 0 ? static_cast<void*>(&any_fence) : nullptr;
    acquire_ = acquire;
    // A load that read what this thread already remembers since its last acquire fence (a spin
    // on one word) adds nothing: the fence acquires the same. Without this, a lane that spins on
    // one slot word would push the loads of its other slots out of the remembered ones.
    const unsigned n = state.loads < thread_state::remembered ? state.loads : thread_state::remembered;
    for (unsigned k = 0; k < n; ++k) {
      if (state.loaded[k] == word_ && state.tokens[k] == read_) return;
    }
    const unsigned i = state.loads++ % thread_state::remembered;
    state.loaded[i] = word_;
    state.tokens[i] = read_;
  }
  /// The operation wrote the word; `rmw`: a read-modify-write (see the top of this file).
  void wrote(bool rmw) noexcept {
    hidden h;
    void* token = state.fence;
    const unsigned way = find();
    if (token == nullptr) {
      if (rmw) return;  // continues the store it read: keeps its token
      if (way < ways) {
        if ((set_.lost & bit_) != 0) {
          set_.tokens[way] = nullptr;  // kept, so that this word is not taken for an evicted one
        } else {
          set_.words[way] = nullptr;
          set_.tokens[way] = nullptr;
        }
      }
      if (way < ways || (set_.lost & bit_) == 0) return;
    }
    unsigned into = way;
    for (unsigned w = 0; w < ways && into == ways; ++w) {
      if (set_.words[w] == nullptr) into = w;
    }
    if (into == ways) {  // the set is full: evict one word, whose readers then acquire any_fence
      into = set_.next++ % ways;
      set_.lost |= lost_bit(set_.words[into]);
    }
    set_.words[into] = word_;
    set_.tokens[into] = token;
  }

 private:
  unsigned find() const noexcept {
    for (unsigned w = 0; w < ways; ++w) {
      if (set_.words[w] == word_) return w;
    }
    return ways;
  }

  const void* word_;
  std::uint64_t bit_;
  table_set& set_;
  void* read_ = nullptr;
  bool acquire_ = false;
};

inline void fence(bool acquire, bool release) noexcept {
  if (acquire) {
    const unsigned n = state.loads < thread_state::remembered ? state.loads : thread_state::remembered;
    for (unsigned i = 0; i < n; ++i) {
      __tsan_acquire(const_cast<void*>(state.loaded[i]));  // release stores: the word's own clock
      if (state.tokens[i] != nullptr) __tsan_acquire(state.tokens[i]);  // a release fence before the store read
    }
    state.loads = 0;
  }
  if (release) {
    void* token = &tokens[next_token.fetch_add(1, std::memory_order_relaxed) % token_count];
    __tsan_release(token);
    __tsan_release(&any_fence);
    state.fence = token;
  }
}
}  // namespace ringkernel::detail::tsan_fence_model
#endif

namespace ringkernel {

/// Which threads an atomic operation must be coherent with (CUDA thread scopes). Choose the
/// narrowest correct one: `device` for memory only one GPU touches, and only by kernels that all
/// run in the same memory synchronization domain (the default: no cudaLaunchAttributeMemSyncDomain
/// or cudaLaunchAttributeMemSyncDomainMap that puts one of them in another); `system` for mapped
/// host memory or peer memory that the host or another GPU touches too, and for kernels of one GPU
/// in different domains. Domains exist from Hopper (sm_90) and CUDA 12.0 on: "Memory operations
/// done in kernels launched in different domains are considered system-scope distanced" and "a GPU
/// scoped memory synchronization is not sufficient" between them (CUDA runtime API,
/// cudaLaunchMemSyncDomain); libcu++'s thread_scope_device relates GPU threads "in the same CUDA
/// device and within the same memory synchronization domain" (nvidia.github.io/cccl/libcudacxx/
/// extended_api/memory_model.html; CUDA Programming Guide, "Memory Synchronization Domains").
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
    tsan_access a(word_);
    const std::uint64_t v = host_ref().load(to_std_order(o));
    a.read(acquires(o));
    return v;
#endif
  }
  RINGKERNEL_HOST_DEVICE void store(std::uint64_t v, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    device_ref().store(v, to_cuda_order(o));
#else
    tsan_access a(word_);
    host_ref().store(v, to_std_order(o));
    a.wrote(false);
#endif
  }
  RINGKERNEL_HOST_DEVICE std::uint64_t fetch_add(std::uint64_t v, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    return device_ref().fetch_add(v, to_cuda_order(o));
#else
    tsan_access a(word_);
    const std::uint64_t before = host_ref().fetch_add(v, to_std_order(o));
    a.read(acquires(o));
    a.wrote(true);
    return before;
#endif
  }
  /// Weak CAS: may fail spuriously; on failure `expected` holds the current value.
  RINGKERNEL_HOST_DEVICE bool compare_exchange_weak(std::uint64_t& expected, std::uint64_t desired, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    return device_ref().compare_exchange_weak(expected, desired, to_cuda_order(o), to_cuda_order(failure_order(o)));
#else
    tsan_access a(word_);
    const bool done = host_ref().compare_exchange_weak(expected, desired, to_std_order(o), to_std_order(failure_order(o)));
    a.read(acquires(done ? o : failure_order(o)));
    if (done) a.wrote(true);
    return done;
#endif
  }
  RINGKERNEL_HOST_DEVICE bool compare_exchange_strong(std::uint64_t& expected, std::uint64_t desired, order o) const noexcept {
#if defined(__CUDA_ARCH__)
    return device_ref().compare_exchange_strong(expected, desired, to_cuda_order(o), to_cuda_order(failure_order(o)));
#else
    tsan_access a(word_);
    const bool done =
        host_ref().compare_exchange_strong(expected, desired, to_std_order(o), to_std_order(failure_order(o)));
    a.read(acquires(done ? o : failure_order(o)));
    if (done) a.wrote(true);
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
  using tsan_access = tsan_fence_model::access;
#else
  struct tsan_access {
    explicit tsan_access(const void*) noexcept {}
    void read(bool) const noexcept {}
    void wrote(bool) const noexcept {}
  };
#endif
  static constexpr bool acquires(order o) noexcept {
    return o == order::acquire || o == order::acq_rel || o == order::seq_cst;
  }

  std::uint64_t* word_;
};

}  // namespace ringkernel::detail
