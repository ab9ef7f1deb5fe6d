// Copyright RingKernel authors.
// The checks BasicMessageQueue (message_queue.h) makes around its host calls (docs/messaging.md §4,
// "One thread per SpscQueue side" and the eviction handler):
//  - RINGKERNEL_QUEUE_CHECKS: 1 turns on SpscQueue's concurrent-use check, 0 turns it off; left
//    undefined, it is 1 where NDEBUG is not defined (debug builds) and 0 where it is. Each side of an
//    SpscQueue then keeps a flag that every host call on that side sets on entry (an atomic exchange)
//    and clears on return; a call that finds it set (a second host thread inside a call on the same
//    side at the same moment) throws Error(invalid_state) before it touches the ring. Handing a side
//    from one thread to another between calls is legal and passes. Off, the busy flags stay in the
//    object (one layout whatever the macro says) but no call touches them, and the fast paths of
//    try_send / send / try_receive / receive are the same instructions as with it on. The setting is
//    read only by the queue's constructor, a template on it: each queue object follows the setting
//    of the unit whose code calls its constructor. A queue constructed inside an inline function or
//    template that units of both settings instantiate alike (a header-defined constructor of a class
//    holding the queue, std::make_unique<SpscQueue<T>>) gets the setting of the copy the linker
//    kept: define the macro alike everywhere to avoid that.
//  - The eviction handler is called where no exception can leave (call_eviction_handler): one that
//    throws ends the process with a line on stderr naming the call, then std::abort().
#pragma once

#include <atomic>
#include <functional>

#ifndef RINGKERNEL_QUEUE_CHECKS
#ifdef NDEBUG
#define RINGKERNEL_QUEUE_CHECKS 0
#else
#define RINGKERNEL_QUEUE_CHECKS 1
#endif
#endif

namespace ringkernel::detail {

/// Throws Error(invalid_state): a host thread called `call` on the `side` ("producer" / "consumer")
/// of an SpscQueue while another host thread was inside a call on that side.
[[noreturn]] void throw_spsc_side_in_use(const char* call, const char* side);

/// Writes one line to stderr (the call, that the eviction handler threw, the exception's what() if it
/// is a std::exception, the rule) and calls std::abort(). Call it only from a catch block.
[[noreturn]] void eviction_handler_threw(const char* call) noexcept;

/// One side of a queue as the concurrent-use check sees it. `on` is fixed at construction.
class side_use_check {
 public:
  explicit side_use_check(bool on) noexcept : on_(on) {}
  side_use_check(const side_use_check&) = delete;
  side_use_check& operator=(const side_use_check&) = delete;

  /// Holds the side for one call (nothing when the check is off); throws when another call holds it.
  class [[nodiscard]] scope {
   public:
    scope(const side_use_check& check, const char* call, const char* side) : busy_(check.on_ ? &check.busy_ : nullptr) {
      // acquire: this call's ring accesses come after the previous holder's (released below).
      if (busy_ != nullptr && busy_->exchange(true, std::memory_order_acquire)) [[unlikely]] {
        busy_ = nullptr;  // the other call holds it: leave the flag to that one
        throw_spsc_side_in_use(call, side);
      }
    }
    scope(const scope&) = delete;
    scope& operator=(const scope&) = delete;
    ~scope() {
      if (busy_ != nullptr) busy_->store(false, std::memory_order_release);
    }

   private:
    std::atomic<bool>* busy_;
  };

 private:
  const bool on_;
  mutable std::atomic<bool> busy_{false};
};

/// Calls the eviction handler (if set) where no exception can leave: see eviction_handler_threw.
template <class T>
void call_eviction_handler(const std::function<void(const T&)>& handler, const T& evicted, const char* call) noexcept {
  if (!handler) return;
  try {
    handler(evicted);
  } catch (...) {
    eviction_handler_threw(call);
  }
}

}  // namespace ringkernel::detail
