// Copyright RingKernel authors.
// Host threads playing the lanes of a CUDA warp, so that the device queue algorithms of
// warp_enqueue.h (detail::warp_push_on & co.) run on the host, against real rings and real
// concurrency, in every CI build (ThreadSanitizer included). A Warp as warp_collectives.h
// describes it: each collective (active() included) is a rendezvous of the lanes still running,
// which aborts, saying why, when the lanes that met called different collectives or a mask other
// than exactly the lanes that met. sync(mask) is __syncwarp(mask): it also waits for lanes of the
// mask that are lagging behind (lag_behind below), and aborts when a lane of the mask has returned.
// running(mask) is __ballot_sync(mask, true): it waits for the lagging lanes of the mask too, and
// leaves out those that have returned or never ran (exited lanes, which the intrinsics allow).
//
// Independent thread scheduling: lanes the program considers converged may reach a call in
// separate groups. simulated_warp::lag_behind(group) lets the lanes of `group` step out of the warp
// and come back, together, only once every other lane still running is blocked in a collective
// that waits for them (a sync over a mask that includes them) or has returned: the other lanes
// arrive first and on their own, which is one schedule a GPU may choose.
//
// Fidelity: shfl, ballot and reduce_min move register values on a GPU and order no memory access.
// Their rendezvous here does synchronise the lane threads (a mutex), so under ThreadSanitizer it
// is hidden from the happens-before analysis (AnnotateIgnoreSync*): a lane that touches a slot
// without its own acquire / release on the ring is reported as a data race, as it would be a bug
// on the GPU. sync() is __syncwarp, a memory barrier among the lanes, and is not hidden.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#define RINGKERNEL_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RINGKERNEL_TEST_TSAN 1
#endif
#endif

#if defined(RINGKERNEL_TEST_TSAN)
extern "C" void AnnotateIgnoreSyncBegin(const char* file, int line);
extern "C" void AnnotateIgnoreSyncEnd(const char* file, int line);
#endif

namespace ringkernel::test {

/// The meeting point of one simulated warp's lanes. A round of a collective completes when every
/// lane still running (not returned from its code) has arrived; each lane deposits one word and
/// gets every lane's word and the set of lanes that took part. Lanes that return leave the warp,
/// as exited or diverged lanes drop out of a GPU warp's active mask.
class warp_rendezvous {
 public:
  /// Which collective a lane called: the lanes of one round must all call the same one (on a GPU,
  /// lanes meeting in different collectives is undefined behaviour or a hang).
  enum class collective : std::uint8_t { active, shfl, ballot, reduce_min, sync, running };
  static const char* name(collective c) {
    switch (c) {
      case collective::active: return "active";
      case collective::shfl: return "shfl";
      case collective::ballot: return "ballot";
      case collective::reduce_min: return "reduce_min";
      case collective::running: return "running";
      default: return "sync";
    }
  }

  struct round {
    std::array<std::uint64_t, 32> words;
    unsigned lanes;  // who took part
  };

  explicit warp_rendezvous(unsigned mask) : alive_(mask) {}

  /// Deposits `word` for `lane`'s call of `what`, waits for the round to complete, returns it.
  /// Only sync orders memory accesses; the other collectives exchange values only and are hidden
  /// from ThreadSanitizer (see the top of this file).
  round exchange(unsigned lane, collective what, std::uint64_t word) {
    const bool orders_memory = what == collective::sync;
    ignore_sync_begin(orders_memory);
    round r{};
    {
      std::unique_lock lock(mutex_);
      deposited_[lane].store(word, std::memory_order_relaxed);
      called_[lane].store(static_cast<std::uint8_t>(what), std::memory_order_relaxed);
      arrived_.fetch_or(1u << lane, std::memory_order_relaxed);
      const std::uint64_t number = rounds_.load(std::memory_order_relaxed);
      try_complete_round();
      if (rounds_.load(std::memory_order_relaxed) == number) {
        if (lagging_.load(std::memory_order_relaxed) != 0) idle_.notify_all();
        changed_.wait(lock, [&] { return rounds_.load(std::memory_order_relaxed) != number; });
      }
      // Still under the lock: the next round cannot complete before this lane arrives again.
      for (unsigned l = 0; l < 32; ++l) r.words[l] = published_[l].load(std::memory_order_relaxed);
      r.lanes = static_cast<unsigned>(published_lanes_.load(std::memory_order_relaxed));
    }
    ignore_sync_end(orders_memory);
    return r;
  }

  /// `lane` has returned from its code: later rounds complete without it.
  void leave(unsigned lane) {
    ignore_sync_begin(false);
    {
      std::lock_guard lock(mutex_);
      alive_.fetch_and(~(1u << lane), std::memory_order_relaxed);
      try_complete_round();
      if (lagging_.load(std::memory_order_relaxed) != 0) idle_.notify_all();
    }
    ignore_sync_end(false);
  }

  /// `lane`, one of `group` (every lane of which calls this), steps out of the warp: rounds
  /// complete without it until every lane still running waits in a round that cannot complete
  /// without it, or has returned. Then the lanes of `group` rejoin, together. Orders no memory.
  void lag_behind(unsigned lane, unsigned group) {
    ignore_sync_begin(false);
    {
      std::unique_lock lock(mutex_);
      const unsigned bit = 1u << lane;
      alive_.fetch_and(~bit, std::memory_order_relaxed);
      lagging_.fetch_or(bit, std::memory_order_relaxed);
      try_complete_round();
      idle_.notify_all();
      idle_.wait(lock, [&] {
        const unsigned running = alive_.load(std::memory_order_relaxed);
        return (lagging_.load(std::memory_order_relaxed) & bit) == 0 ||
               (running & ~arrived_.load(std::memory_order_relaxed)) == 0;
      });
      if ((lagging_.load(std::memory_order_relaxed) & bit) != 0) {  // the first of the group to go on
        const unsigned rejoin = group & lagging_.load(std::memory_order_relaxed);
        lagging_.fetch_and(~rejoin, std::memory_order_relaxed);
        alive_.fetch_or(rejoin, std::memory_order_relaxed);
        idle_.notify_all();
      }
    }
    ignore_sync_end(false);
  }

 private:
  // Completes the pending round if every running lane has arrived and, for a sync or a running,
  // every lane of its mask is among them (lanes of the mask that lag behind will come; one that
  // returned never will: a sync aborts, a running completes without it). Under mutex_.
  void try_complete_round() {
    const unsigned arrived = arrived_.load(std::memory_order_relaxed);
    if (arrived == 0 || arrived != alive_.load(std::memory_order_relaxed)) return;
    const int first = __builtin_ffs(static_cast<int>(arrived)) - 1;
    const auto what = called_[static_cast<unsigned>(first)].load(std::memory_order_relaxed);
    unsigned wanted = 0;  // sync, running: the lanes their masks name
    for (unsigned l = 0; l < 32; ++l) {
      const auto other = called_[l].load(std::memory_order_relaxed);
      if (((arrived >> l) & 1u) == 0) continue;
      if (other != what) {
        std::fprintf(stderr, "simulated_warp: lane %d called %s while lane %u called %s in the same round\n", first,
                     name(static_cast<collective>(what)), l, name(static_cast<collective>(other)));
        std::abort();
      }
      wanted |= static_cast<unsigned>(deposited_[l].load(std::memory_order_relaxed));
    }
    const auto kind = static_cast<collective>(what);
    if ((kind == collective::sync || kind == collective::running) && (wanted & ~arrived) != 0) {
      const unsigned lagging = wanted & ~arrived & lagging_.load(std::memory_order_relaxed);
      const unsigned gone = wanted & ~arrived & ~lagging;
      if (gone == 0 || (lagging != 0 && kind == collective::running)) return;  // waits for lanes lagging behind
      if (kind == collective::running) {  // the lanes still missing have exited: it completes without them
        complete_round();
        return;
      }
      std::fprintf(stderr, "simulated_warp: sync over mask %#x, but lanes %#x have returned or never ran\n", wanted,
                   gone);
      std::abort();
    }
    complete_round();
  }
  void complete_round() {  // under mutex_
    for (unsigned l = 0; l < 32; ++l) {
      published_[l].store(deposited_[l].load(std::memory_order_relaxed), std::memory_order_relaxed);
    }
    published_lanes_.store(arrived_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    arrived_.store(0, std::memory_order_relaxed);
    rounds_.store(rounds_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    changed_.notify_all();
  }
  static void ignore_sync_begin([[maybe_unused]] bool orders_memory) {
#if defined(RINGKERNEL_TEST_TSAN)
    if (!orders_memory) AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
#endif
  }
  static void ignore_sync_end([[maybe_unused]] bool orders_memory) {
#if defined(RINGKERNEL_TEST_TSAN)
    if (!orders_memory) AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
#endif
  }

  std::mutex mutex_;
  std::condition_variable changed_;  // a round completed
  std::condition_variable idle_;     // lanes lagging behind look again
  // Everything below is guarded by mutex_, and atomic (relaxed) all the same: with the mutex
  // hidden from it, ThreadSanitizer would report plain variables as races.
  std::atomic<unsigned> alive_;        // running lanes: a round completes when all of them arrived
  std::atomic<unsigned> lagging_{0};   // lanes in lag_behind: neither running nor returned
  std::atomic<unsigned> arrived_{0};
  std::atomic<std::uint64_t> rounds_{0};
  std::atomic<std::uint64_t> published_lanes_{0};
  std::array<std::atomic<std::uint64_t>, 32> deposited_{};
  std::array<std::atomic<std::uint8_t>, 32> called_{};
  std::array<std::atomic<std::uint64_t>, 32> published_{};
};

/// One lane's view of a simulated warp (a Warp for warp_enqueue.h's algorithms).
class simulated_warp {
  using collective = warp_rendezvous::collective;

 public:
  simulated_warp(warp_rendezvous& rendezvous, unsigned lane) : rendezvous_(&rendezvous), lane_(lane) {}

  /// The lanes running this piece of code now: a round among the lanes still in the warp.
  unsigned active() const { return rendezvous_->exchange(lane_, collective::active, 0).lanes; }
  unsigned lane() const noexcept { return lane_; }

  template <class V>
  V shfl(unsigned mask, V v, int src) const {
    static_assert(std::is_trivially_copyable_v<V> && sizeof(V) <= 8);
    if (src < 0 || src > 31 || ((mask >> src) & 1u) == 0) fail("shfl from a lane outside the warp's active lanes");
    std::uint64_t word = 0;
    std::memcpy(&word, &v, sizeof v);
    const auto r = rendezvous_->exchange(lane_, collective::shfl, word);
    check(mask, r.lanes, "shfl");
    V out;
    std::memcpy(&out, &r.words[static_cast<unsigned>(src)], sizeof out);
    return out;
  }
  unsigned ballot(unsigned mask, bool p) const {
    const auto r = rendezvous_->exchange(lane_, collective::ballot, p ? 1 : 0);
    check(mask, r.lanes, "ballot");
    unsigned bits = 0;
    for (unsigned l = 0; l < 32; ++l) bits |= ((mask >> l) & 1u) != 0 && r.words[l] != 0 ? 1u << l : 0u;
    return bits;
  }
  unsigned reduce_min(unsigned mask, unsigned v) const {
    const auto r = rendezvous_->exchange(lane_, collective::reduce_min, v);
    check(mask, r.lanes, "reduce_min");
    unsigned m = v;
    for (unsigned l = 0; l < 32; ++l) {
      if (((mask >> l) & 1u) != 0 && r.words[l] < m) m = static_cast<unsigned>(r.words[l]);
    }
    return m;
  }
  void sync(unsigned mask) const {
    check(mask, rendezvous_->exchange(lane_, collective::sync, mask).lanes, "sync");
  }
  /// __ballot_sync(mask, true): the lanes of `mask` that met; lanes of the mask that have returned
  /// (or never ran) are left out, lanes outside the mask must not be there.
  unsigned running(unsigned mask) const {
    const unsigned met = rendezvous_->exchange(lane_, collective::running, mask).lanes;
    check(mask, met | mask, "running");
    return met;
  }

  /// This lane and the other lanes of `group` (each calls this) reach their next collective only
  /// after the rest of the warp has blocked waiting for them or returned (see the top of this file).
  void lag_behind(unsigned group) const {
    if (((group >> lane_) & 1u) == 0) fail("lag_behind: the calling lane is not in the group");
    rendezvous_->lag_behind(lane_, group);
  }

 private:
  // A collective whose mask is not exactly the lanes that met would hang or mislead on a GPU.
  static void check(unsigned mask, unsigned met, const char* what) {
    if (mask == met) return;
    std::fprintf(stderr, "simulated_warp: %s over mask %#x, but lanes %#x took part\n", what, mask, met);
    std::abort();
  }
  [[noreturn]] static void fail(const char* why) {
    std::fprintf(stderr, "simulated_warp: %s\n", why);
    std::abort();
  }

  warp_rendezvous* rendezvous_;
  unsigned lane_;
};

/// Runs `lane_body(warp)` on one thread per lane of `mask` and waits for all of them: one warp
/// executing one piece of device code. A lane that returns leaves the warp.
inline void run_warp(unsigned mask, const std::function<void(const simulated_warp&)>& lane_body) {
  warp_rendezvous rendezvous(mask);
  std::vector<std::thread> lanes;
  for (unsigned l = 0; l < 32; ++l) {
    if (((mask >> l) & 1u) != 0) lanes.emplace_back([&, l] {
        lane_body(simulated_warp(rendezvous, l));
        rendezvous.leave(l);
      });
  }
  for (auto& t : lanes) t.join();
}

}  // namespace ringkernel::test
