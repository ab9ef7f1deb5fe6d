// Copyright RingKernel authors.
// Test messaging.queue_fast_path_inlined: the queue API's non-blocking calls, and the ring's
// try_push / try_pop in them, inline into their callers with each compiler at -O2
// (tests/check_inlined.cmake fails on any of them out of line; the slow paths send_one and
// receive_one are meant to be). clang++ 19 refused try_send / try_receive by cost (the queue API at
// 0.72-0.79x the ring), and g++ 12 kept try_receive out of line in bench_queue, calling try_pop from
// it (0.45-0.55x; bench/RESULTS.md); RINGKERNEL_QUEUE_FAST_PATH in ringkernel/queue/message_queue.h
// forces them. Compiled with the release setting of the SpscQueue check (queue_checks.h: NDEBUG's
// default), which is what programs measure; the macro changes no instruction of these paths.
#define RINGKERNEL_QUEUE_CHECKS 0
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
