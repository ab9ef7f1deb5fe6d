// Copyright RingKernel authors.
// Test messaging.queue_fast_path_inlined: the queue API's non-blocking calls inline into their
// callers with each compiler at -O2 (tests/check_inlined.cmake fails on an out-of-line try_send or
// try_receive). clang++ 19 refused them by cost, and the queue API ran at 0.72-0.79x the ring
// (bench/RESULTS.md); RINGKERNEL_QUEUE_FAST_PATH in ringkernel/queue/message_queue.h forces them.
#include <cstdint>

#include "ringkernel/queue/message_queue.h"

// Not in an anonymous namespace: functions taking it would be internal, and dropped unused.
namespace queue_inlining {
struct Msg64 {
  std::uint64_t words[8];
};
}  // namespace queue_inlining

#define QUEUE_FAST_PATHS(Queue)                                                                \
  using Queue##Msg = ringkernel::Queue<queue_inlining::Msg64>;                                 \
  __attribute__((noinline)) bool send_##Queue(Queue##Msg& q, const queue_inlining::Msg64& m) { \
    return q.try_send(m).ok();                                                                 \
  }                                                                                            \
  __attribute__((noinline)) bool receive_##Queue(Queue##Msg& q, queue_inlining::Msg64& m) {    \
    return q.try_receive(m) == ringkernel::ReceiveStatus::ok;                                  \
  }

QUEUE_FAST_PATHS(SpscQueue)
QUEUE_FAST_PATHS(MpmcQueue)
