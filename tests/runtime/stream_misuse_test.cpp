// Copyright RingKernel authors.
// Streams and events used with memory, streams or events they do not belong to are refused with
// an Error that names the call and says why, before anything is queued.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

TEST(StreamMisuse, CopyAsyncTouchesOnlyTheStreamsDevice) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  DeviceBuffer a(ids[0], 64), b(ids[1], 64);
  std::vector<std::uint8_t> host(64, 1);
  Stream s0(ids[0]);
  EXPECT_RK_ERROR(s0.copy_async(b.data(), host.data(), 64), errc::invalid_argument,
                  "is memory of device " + std::to_string(ids[1]) + " but the stream is on device " +
                      std::to_string(ids[0]));
  EXPECT_RK_ERROR(s0.copy_async(host.data(), b.data(), 64), errc::invalid_argument, "use a stream of device");
  s0.copy_async(a.data(), host.data(), 64);  // its own device is fine
  s0.synchronize();
}

// A stream made before configure_host_backend() keeps its old virtual device; memory of the new
// devices is not host memory to it (it was copied into without a bounds check: with more bytes
// than the buffer holds, a heap overflow), nor the other way round.
TEST(StreamMisuse, StreamsAndEventsOfAnotherConfigurationAreRefused) {
  const auto before = test::use_host_devices(1, HostTopology::none);
  Stream old_stream(before[0]);
  Event old_event(before[0]);
  DeviceBuffer old_buffer(before[0], 16);
  const auto now = test::use_host_devices(1, HostTopology::none);
  DeviceBuffer fresh(now[0], 16);
  Stream stream(now[0]);
  std::vector<std::uint8_t> host(64, 1);
  // It said "is memory of device 0, which this stream of device 0 cannot use": the configurations
  // are named.
  EXPECT_RK_ERROR(old_stream.copy_async(fresh.data(), host.data(), 16), errc::invalid_argument,
                  "is memory of device " + std::to_string(now[0]) + " of the current host configuration, but this "
                  "stream of device " + std::to_string(before[0]) + " is of an earlier one");
  EXPECT_RK_ERROR(old_stream.copy_async(host.data(), fresh.data(), 16), errc::invalid_argument,
                  "source ");
  EXPECT_RK_ERROR(old_stream.copy_async(host.data(), fresh.data(), 16), errc::invalid_argument,
                  "use a stream of the current configuration");
  EXPECT_RK_ERROR(stream.copy_async(old_buffer.data(), host.data(), 16), errc::invalid_argument,
                  "memory of a host device of an earlier host configuration");
  EXPECT_RK_ERROR(old_event.record(stream), errc::invalid_argument, "belong to different backends");
  EXPECT_RK_ERROR(stream.wait(old_event), errc::invalid_argument,
                  "event of device " + std::to_string(before[0]) + " belongs to another backend (or an older host configuration)");
  old_stream.copy_async(old_buffer.data(), host.data(), 16);  // the old objects still work together
  old_event.record(old_stream);
  old_event.synchronize();
}

// Pinned memory of another host configuration is not host memory to a stream: freeing it waits only
// for its own configuration's streams, so a copy queued on this one read it after the free (a
// heap-use-after-free under ASan, found by a user review), in either direction.
TEST(StreamMisuse, PinnedMemoryOfAnotherConfigurationIsRefused) {
  const auto before = test::use_host_devices(1, HostTopology::none);
  PinnedBuffer old_pinned(before[0], 64);
  Stream old_stream(before[0]);
  DeviceBuffer old_buffer(before[0], 64);
  const auto now = test::use_host_devices(1, HostTopology::none);
  PinnedBuffer fresh_pinned(now[0], 64);
  DeviceBuffer fresh(now[0], 64);
  Stream stream(now[0]);
  EXPECT_RK_ERROR(stream.copy_async(fresh.data(), old_pinned.data(), 64), errc::invalid_argument,
                  "is pinned memory of an earlier host configuration, which this stream of device " +
                      std::to_string(now[0]) + " cannot use");
  EXPECT_RK_ERROR(stream.copy_async(old_pinned.bytes() + 8, fresh.data(), 16), errc::invalid_argument,
                  "freeing it would not wait for this stream");  // inside the allocation too
  EXPECT_RK_ERROR(old_stream.copy_async(old_buffer.data(), fresh_pinned.data(), 64), errc::invalid_argument,
                  "is pinned memory of the host backend (the current host configuration)");
  // Each configuration's own pinned memory stays host memory to its streams.
  stream.copy_async(fresh.data(), fresh_pinned.data(), 64);
  old_stream.copy_async(old_buffer.data(), old_pinned.data(), 64);
  stream.synchronize();
  old_stream.synchronize();
}

TEST(StreamMisuse, MovedFromStreamsAndEventsNameTheCall) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  DeviceBuffer a(ids[0], 16), b(ids[1], 16);
  Stream moved(ids[0]);
  Stream taker = std::move(moved);
  EXPECT_EQ(moved.device(), -1);  // NOLINT(bugprone-use-after-move): the moved-from state is the test
  EXPECT_EQ(taker.device(), ids[0]);
  PeerMemory peers;
  EXPECT_RK_ERROR(peers.copy_peer_async(b.data(), ids[1], a.data(), ids[0], 4, moved), errc::invalid_state,
                  "PeerMemory::copy_peer_async: invalid state: the stream was moved from");
  EXPECT_RK_ERROR(moved.synchronize(), errc::invalid_state, "Stream::synchronize: invalid state: the stream");
  Event event(ids[0]);
  EXPECT_RK_ERROR(event.record(moved), errc::invalid_state, "Event::record: invalid state: the stream was moved");
  Event gone(ids[0]);
  Event event_taker = std::move(gone);
  EXPECT_EQ(gone.device(), -1);  // NOLINT(bugprone-use-after-move)
  EXPECT_RK_ERROR(taker.wait(gone), errc::invalid_state, "Stream::wait: invalid state: the event was moved from");
  EXPECT_RK_ERROR(gone.synchronize(), errc::invalid_state, "Event::synchronize");
  EXPECT_RK_ERROR((void)moved.native_handle(), errc::invalid_state,
                  "Stream::native_handle: invalid state: the stream was moved from");
  EXPECT_RK_ERROR((void)gone.native_handle(), errc::invalid_state,
                  "Event::native_handle: invalid state: the event was moved from");
}

// A host-backend stream is a worker thread and its event a host object: no CUDA handle behind them.
TEST(StreamMisuse, HostStreamsAndEventsHaveNoNativeHandle) {
  const auto ids = test::use_host_devices(1, HostTopology::none);
  const Stream s(ids[0]);
  const Event e(ids[0]);
  EXPECT_EQ(s.native_handle(), nullptr);
  EXPECT_EQ(e.native_handle(), nullptr);
}

// Move assignment hands the stream or event over; the source owns nothing afterwards and says so;
// assigning an object to itself leaves it working.
TEST(StreamMisuse, MoveAssignmentHandsOverAndEmptiesTheSource) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  DeviceBuffer a(ids[0], 16);
  const std::vector<std::uint8_t> ones(16, 1);
  Stream source(ids[0]);
  Stream target(ids[1]);
  target = std::move(source);
  EXPECT_EQ(source.device(), -1);  // NOLINT(bugprone-use-after-move): the moved-from state is the test
  EXPECT_EQ(target.device(), ids[0]);
  EXPECT_RK_ERROR(source.synchronize(), errc::invalid_state, "Stream::synchronize: invalid state: the stream was moved");
  EXPECT_RK_ERROR(source.copy_async(a.data(), ones.data(), 16), errc::invalid_state, "the stream was moved");
  target.copy_async(a.data(), ones.data(), 16);  // now a stream of ids[0]: its memory is reachable
  Stream& alias = target;
  target = std::move(alias);
  EXPECT_EQ(target.device(), ids[0]);
  Event done(ids[0]);
  Event other(ids[1]);
  other = std::move(done);
  EXPECT_EQ(done.device(), -1);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(other.device(), ids[0]);
  other.record(target);  // an event of ids[0] now: recorded on a stream of ids[0]
  Event& event_alias = other;
  other = std::move(event_alias);
  other.synchronize();
  EXPECT_TRUE(other.completed());
  std::vector<std::uint8_t> out(16);
  a.download(out.data(), 16);
  EXPECT_EQ(out, ones);
  EXPECT_RK_ERROR(done.record(target), errc::invalid_state, "the event was moved from");
  EXPECT_RK_ERROR(target.copy_async(a.data(), nullptr, 4), errc::invalid_argument, "source is null");
}

// The completion event is checked before the copy is queued: a refused call leaves no copy behind.
TEST(StreamMisuse, BadCompletionEventQueuesNoCopy) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  const std::vector<std::uint8_t> ones(64, 1), zeros(64, 0);
  DeviceBuffer a(ids[0], 64), b(ids[1], 64);
  a.upload(ones.data(), 64);
  b.upload(zeros.data(), 64);
  PeerMemory peers;
  Stream s0(ids[0]);
  Event on_other_device(ids[1]);
  EXPECT_RK_ERROR(peers.copy_peer_async(b.data(), ids[1], a.data(), ids[0], 64, s0, on_other_device),
                  errc::invalid_argument, "the completion event is on device " + std::to_string(ids[1]));
  Event moved(ids[0]);
  Event taker = std::move(moved);
  EXPECT_RK_ERROR(peers.copy_peer_async(b.data(), ids[1], a.data(), ids[0], 64, s0, moved),
                  errc::invalid_state, "the completion event was moved from");
  s0.synchronize();
  std::vector<std::uint8_t> out(64);
  b.download(out.data(), 64);
  EXPECT_EQ(out, zeros) << "a refused copy_peer_async copied anyway";
}

}  // namespace
}  // namespace ringkernel
