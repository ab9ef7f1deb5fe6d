// Copyright RingKernel authors.
// One Stream and one Event used from several threads at once (host backend). Event::record and
// Stream::wait are each one step with respect to the stream, as cudaEventRecord and
// cudaStreamWaitEvent are: a wait names the latest record already queued, never one queued behind
// the wait. The record used to take its generation first and queue its signal in a second step; a
// wait of another thread in between waited for a signal then queued behind it, and the stream hung
// for ever (helper-164's audit). Each round ends with synchronize(); a HangWatchdog fails the test
// if one does not return.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "hang_watchdog.h"
#include "host_fixture.h"
#include "ringkernel/event.h"
#include "ringkernel/stream.h"

namespace ringkernel {
namespace {

// Rounds of `calls` calls per thread: on the old code the first test hung within a few rounds, the
// chain within about a hundred (its window is narrower); the fixed code runs them in about a second.
constexpr int rounds = 1000;
constexpr int calls = 200;  // per thread and round

TEST(StreamEventThreads, RecordAndWaitOnOneStreamFromTwoThreads) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(1, HostTopology::none);
  Stream s(ids[0]);
  Event e(ids[0]);
  test::HangWatchdog watchdog("Stream::synchronize after one thread's Event::record and another's Stream::wait on "
                              "the same stream: the wait waits for a record queued behind it");
  for (int round = 0; round < rounds; ++round) {
    std::thread recorder([&] {
      for (int i = 0; i < calls; ++i) e.record(s);
    });
    std::thread waiter([&] {
      for (int i = 0; i < calls; ++i) s.wait(e);
    });
    recorder.join();
    waiter.join();
    watchdog.progress("round " + std::to_string(round));
    s.synchronize();
    e.synchronize();
    EXPECT_TRUE(s.idle());
    EXPECT_TRUE(e.completed());
  }
}

// No stream waits for its own event: stream s (device 0) is shared by two threads, stream t
// (device 1) is a third's. A: e.record(s); B: t.wait(e) then f.record(t); C: s.wait(f). A wait of C
// that found f's record while B's was still between its steps, itself waiting (on t) for e's record
// that A was between its steps of, hung both streams.
TEST(StreamEventThreads, RecordAndWaitChainThroughAnotherStream) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::none);
  Stream s(ids[0]), t(ids[1]);
  Event e(ids[0]), f(ids[1]);
  test::HangWatchdog watchdog("Stream::synchronize after a chain of records and waits through two streams: a wait "
                              "waits for a record queued behind it");
  for (int round = 0; round < rounds; ++round) {
    std::thread a([&] {
      for (int i = 0; i < calls; ++i) e.record(s);
    });
    std::thread b([&] {
      for (int i = 0; i < calls; ++i) {
        t.wait(e);
        f.record(t);
      }
    });
    std::thread c([&] {
      for (int i = 0; i < calls; ++i) s.wait(f);
    });
    a.join();
    b.join();
    c.join();
    watchdog.progress("round " + std::to_string(round));
    s.synchronize();
    t.synchronize();
  }
}

// Event::synchronize and Event::completed of other threads while the event is recorded again and
// again: each is for a record already queued, and returns.
TEST(StreamEventThreads, EventSynchronizeWhileAnotherThreadRecords) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(1, HostTopology::none);
  Stream s(ids[0]);
  Event e(ids[0]);
  test::HangWatchdog watchdog("Event::synchronize while another thread records the event");
  for (int round = 0; round < rounds; ++round) {
    std::thread recorder([&] {
      for (int i = 0; i < calls; ++i) e.record(s);
    });
    std::thread waiter([&] {
      for (int i = 0; i < calls; ++i) {
        e.synchronize();
        (void)e.completed();
      }
    });
    recorder.join();
    waiter.join();
    watchdog.progress("round " + std::to_string(round));
    e.synchronize();
    EXPECT_TRUE(e.completed());
  }
}

}  // namespace
}  // namespace ringkernel
