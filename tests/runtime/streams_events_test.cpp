// Copyright RingKernel authors.
// Stream ordering, events across devices and device synchronisation on the host backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "host_fixture.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

using test::pattern;

TEST(Events, NeverRecordedEventIsComplete) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  Event e(ids[0]);
  EXPECT_TRUE(e.completed());
  e.synchronize();
  Stream s(ids[0]);
  s.wait(e);  // no-op, as in CUDA
  EXPECT_TRUE(s.idle());
}

// Device 0 produces A -> B on its stream and records an event; device 1's stream waits for it and
// then pulls B over the peer path. Without the cross-device wait the pull could see stale bytes.
void cross_device_pipeline(HostTopology topology, CopyPath expected) {
  const auto ids = test::use_host_devices(2, topology);
  PeerMemory peers(PeerMemoryOptions{std::size_t{256} << 10});
  if (topology == HostTopology::all) peers.enable_peer_access(ids[1], ids[0]);
  constexpr std::size_t n = std::size_t{8} << 20;
  DeviceBuffer a(ids[0], n), b(ids[0], n), c(ids[1], n);
  Stream s0(ids[0]), s1(ids[1]);
  Event produced(ids[0]), consumed(ids[1]);
  const auto zero = std::vector<std::uint8_t>(n, 0);
  for (std::uint32_t round = 0; round < 4; ++round) {
    const auto data = pattern(n, round + 1);
    a.upload(data.data(), n);
    b.upload(zero.data(), n);
    s0.copy_async(b.data(), a.data(), n);
    produced.record(s0);
    s1.wait(produced);
    const auto r = peers.copy_peer_async(c.data(), ids[1], b.data(), ids[0], n, s1, consumed);
    EXPECT_EQ(r.path, expected);
    consumed.synchronize();
    EXPECT_TRUE(consumed.completed());
    std::vector<std::uint8_t> out(n);
    c.download(out.data(), n);
    ASSERT_TRUE(out == data) << "round " << round << " saw bytes from before the producer finished";
  }
}

TEST(Events, CrossDeviceOrderingDirect) { cross_device_pipeline(HostTopology::all, CopyPath::direct_peer); }
TEST(Events, CrossDeviceOrderingHostStaged) { cross_device_pipeline(HostTopology::none, CopyPath::host_staged); }

// A wait is for the record it saw, not for whichever record of the event completes first: the
// event re-recorded on an idle stream completed at once and released the wait for the earlier
// record, still behind a long copy on another stream.
TEST(Events, WaitIsForTheRecordItSawNotALaterOneOnAnotherStream) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  constexpr std::size_t n = std::size_t{64} << 20, tail = 4096;
  const auto data = pattern(n, 9);
  DeviceBuffer source(ids[0], n), produced(ids[0], n);
  source.upload(data.data(), n);
  Stream slow(ids[0]), consumer(ids[0]), idle(ids[0]);
  Event e(ids[0]);
  slow.copy_async(produced.data(), source.data(), n);  // fills front to back: the tail comes last
  e.record(slow);      // record 1
  consumer.wait(e);    // for record 1
  e.record(idle);      // record 2, completes at once
  idle.synchronize();
  std::vector<std::uint8_t> out(tail);
  consumer.copy_async(out.data(), produced.bytes() + (n - tail), tail);
  consumer.synchronize();
  EXPECT_TRUE(std::equal(out.begin(), out.end(), data.end() - tail))
      << "the consumer ran before the copy it waited for had finished";
  e.synchronize();  // the latest record only (as cudaEventSynchronize)
  slow.synchronize();
}

TEST(Streams, WorkRunsInOrderAndSynchronizeDeviceWaitsForAllStreams) {
  const auto ids = test::use_host_devices(2, HostTopology::none);
  constexpr std::size_t n = std::size_t{4} << 20;
  DeviceBuffer x(ids[0], n), y(ids[0], n), z(ids[0], n);
  const auto data = pattern(n, 5);
  x.upload(data.data(), n);
  Stream s(ids[0]), t(ids[0]);
  s.copy_async(y.data(), x.data(), n);  // y = x
  s.copy_async(z.data(), y.data(), n);  // then z = y: only correct in order
  PeerMemory peers;
  DeviceBuffer remote(ids[1], n);
  peers.copy_peer_async(remote.data(), ids[1], z.data(), ids[0], n, s);  // staged, still in order
  std::vector<std::uint8_t> host(n);
  t.copy_async(host.data(), x.data(), n);
  synchronize_device(ids[0]);
  EXPECT_TRUE(s.idle());
  EXPECT_TRUE(t.idle());
  EXPECT_TRUE(host == data);
  synchronize_all_devices();
  std::vector<std::uint8_t> out(n);
  remote.download(out.data(), n);
  EXPECT_TRUE(out == data);
}

// An event recorded as a stream's last work has completed only once the stream is idle (as
// cudaStreamQuery after cudaEventSynchronize): the record used to wake the waiter before the stream
// counted it done, so idle() right after synchronize() was false about a third of the time.
TEST(Streams, IdleOnceTheEventRecordedLastHasCompleted) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  DeviceBuffer a(ids[0], 64), b(ids[0], 64);
  Stream s(ids[0]);
  Event e(ids[0]);
  int not_idle = 0;
  for (int i = 0; i < 2000; ++i) {
    s.copy_async(b.data(), a.data(), 64);
    e.record(s);
    e.synchronize();
    if (!s.idle()) ++not_idle;
  }
  EXPECT_EQ(not_idle, 0) << "of 2000";
}

// synchronize() waits for the work enqueued before it, not for an empty queue: while another
// thread kept a backlog on the stream, it (and so synchronize_device and freeing a buffer) waited
// until that thread stopped.
TEST(Streams, SynchronizeIsNotHeldUpByWorkOtherThreadsKeepAdding) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  constexpr std::size_t n = std::size_t{4} << 20, backlog = 32;
  DeviceBuffer a(ids[0], n), b(ids[0], n);
  Stream s(ids[0]);
  std::atomic<bool> stop{false}, started{false}, gave_up{false};
  std::thread producer([&] {  // keeps about `backlog` copies queued until told to stop, at most 10 s
    std::vector<Event> done;
    for (std::size_t i = 0; i < backlog; ++i) done.emplace_back(ids[0]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (std::size_t i = 0; !stop; ++i) {
      s.copy_async(b.data(), a.data(), n);
      done[i % backlog].record(s);
      if (i >= backlog) started = true;
      done[(i + 1) % backlog].synchronize();
      if (std::chrono::steady_clock::now() > deadline) {
        gave_up = true;
        break;
      }
    }
  });
  while (!started) std::this_thread::yield();
  const auto t0 = std::chrono::steady_clock::now();
  s.synchronize();
  synchronize_device(ids[0]);
  const auto waited = std::chrono::steady_clock::now() - t0;
  stop = true;
  producer.join();
  EXPECT_FALSE(gave_up) << "synchronize() returned only once the other thread stopped adding work";
  EXPECT_LT(waited, std::chrono::seconds(5)) << "synchronize() waited for work added after it";
  s.synchronize();
}

// Destroying a host stream finishes the work queued on it first (docs/runtime.md: CUDA's returns at
// once while the work goes on, so code must not rely on this; it documents the host backend).
TEST(Streams, DestroyingAHostStreamFinishesItsQueuedWork) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  constexpr std::size_t n = std::size_t{4} << 20;
  DeviceBuffer x(ids[0], n), y(ids[0], n), z(ids[0], n);
  const auto data = pattern(n, 11);
  x.upload(data.data(), n);
  std::vector<std::uint8_t> out(n, 0);
  {
    Stream s(ids[0]);
    s.copy_async(y.data(), x.data(), n);
    s.copy_async(z.data(), y.data(), n);
    s.copy_async(out.data(), z.data(), n);
  }  // no synchronize
  EXPECT_TRUE(out == data) << "the stream went before its queued copies ran";
}

// synchronize_all_devices() covers the devices of the current host configuration; a stream made
// before configure_host_backend() replaced it is waited for through itself (documented).
TEST(Streams, SynchronizeAllDevicesCoversTheCurrentConfiguration) {
  const auto before = test::use_host_devices(1, HostTopology::none);
  constexpr std::size_t n = std::size_t{4} << 20;
  DeviceBuffer old_x(before[0], n), old_y(before[0], n);
  Stream old_stream(before[0]);
  const auto now = test::use_host_devices(2, HostTopology::none);
  DeviceBuffer x(now[1], n), y(now[1], n);
  Stream s(now[1]), t(now[0]);
  const auto data = pattern(n, 12), old_data = pattern(n, 13);
  x.upload(data.data(), n);
  old_x.upload(old_data.data(), n);
  old_stream.copy_async(old_y.data(), old_x.data(), n);
  std::vector<std::uint8_t> out(n), copied(n), old_out(n);
  s.copy_async(y.data(), x.data(), n);
  s.copy_async(out.data(), y.data(), n);
  t.copy_async(copied.data(), data.data(), n);  // host to host, on the other device's stream
  synchronize_all_devices();
  EXPECT_TRUE(s.idle());
  EXPECT_TRUE(t.idle());
  EXPECT_TRUE(out == data);
  EXPECT_TRUE(copied == data);
  old_stream.synchronize();
  EXPECT_TRUE(old_stream.idle());
  old_y.download(old_out.data(), n);
  EXPECT_TRUE(old_out == old_data);
}

TEST(Streams, ConcurrentCopiesFromManyThreadsShareOnePeerMemory) {
  const auto ids = test::use_host_devices(3, HostTopology::pairs, {{0, 1}});
  PeerMemory peers(PeerMemoryOptions{64 << 10});
  peers.enable_peer_access(ids[0], ids[1]);
  constexpr std::size_t n = 300000;
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      const int src = ids[static_cast<std::size_t>(t % 3)], dst = ids[static_cast<std::size_t>((t + 1) % 3)];
      DeviceBuffer a(src, n), b(dst, n);
      Stream s(src);
      for (std::uint32_t i = 0; i < 5; ++i) {
        const auto data = pattern(n, static_cast<std::uint32_t>(t * 10) + i);
        a.upload(data.data(), n);
        peers.copy_peer_async(b.data(), dst, a.data(), src, n, s);
        s.synchronize();
        std::vector<std::uint8_t> out(n);
        b.download(out.data(), n);
        if (out != data) ++failures[static_cast<std::size_t>(t)];
      }
    });
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

}  // namespace
}  // namespace ringkernel
