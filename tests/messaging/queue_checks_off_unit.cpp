// Copyright RingKernel authors.
// A unit of messaging_queue_checks_tests built with RINGKERNEL_QUEUE_CHECKS=0 while the rest of the
// binary has 1, linked first and compiled without optimisation (tests/messaging/CMakeLists.txt):
// it constructs the same SpscQueue<std::uint64_t> as queue_side_check_test.cpp. Its constructor
// is an inline function both units define; before the setting became a template argument of the
// constructor, the linker kept this unit's copy, and the queues of queue_side_check_test.cpp were
// built without the check (SpscSideCheck.* then failed: no call threw). The test below only uses
// this unit's queue from one thread, as a program with the check off may.
#undef RINGKERNEL_QUEUE_CHECKS
#define RINGKERNEL_QUEUE_CHECKS 0

#include <gtest/gtest.h>

#include <cstdint>

#include "ringkernel/queue/message_queue.h"

namespace {

using ringkernel::FullPolicy;
using ringkernel::QueueOptions;
using ringkernel::QueueUsers;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;

TEST(SpscSideCheckOff, AQueueOfAnUncheckedUnitWorksFromOneThread) {
  ringkernel::SpscQueue<std::uint64_t> q(QueueOptions{.capacity = 8, .policy = FullPolicy::block,
                                                      .producers = QueueUsers::host, .consumers = QueueUsers::host});
  for (std::uint64_t i = 0; i < 20; ++i) {
    ASSERT_EQ(q.try_send(i).status, SendStatus::ok);
    std::uint64_t v = 0;
    ASSERT_EQ(q.try_receive(v), ReceiveStatus::ok);
    EXPECT_EQ(v, i);
  }
}

}  // namespace
