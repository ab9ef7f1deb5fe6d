// Copyright RingKernel authors.
// Every invalid argument of PeerMemory gives an Error with a code and a message that says why.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

class PeerErrors : public ::testing::Test {
 protected:
  void SetUp() override { ids = test::use_host_devices(3, HostTopology::pairs, {{0, 1}}); }
  std::vector<int> ids;
  PeerMemory peers;
};

TEST_F(PeerErrors, BadDeviceIds) {
  const int bad = device_count();
  DeviceBuffer a(ids[0], 16);
  EXPECT_RK_ERROR(peers.copy_peer(a.data(), bad, a.data(), ids[0], 4), errc::invalid_device,
                  "PeerMemory::copy_peer (device " + std::to_string(bad) + "): invalid device: device id");
  EXPECT_RK_ERROR(peers.can_access_peer(-1, ids[0]), errc::invalid_device, "names no device");
  EXPECT_RK_ERROR(peers.enable_peer_access(ids[0], bad), errc::invalid_device, "names no device");
  EXPECT_RK_ERROR(peers.capability(bad, ids[0]), errc::invalid_device, "PeerMemory::capability");
  EXPECT_RK_ERROR(Stream{bad}, errc::invalid_device, "Stream::Stream");
  EXPECT_RK_ERROR(Event{bad}, errc::invalid_device, "Event::Event");
}

TEST_F(PeerErrors, NullPointers) {
  DeviceBuffer a(ids[0], 16), b(ids[1], 16);
  EXPECT_RK_ERROR(peers.copy_peer(nullptr, ids[1], a.data(), ids[0], 4), errc::invalid_argument,
                  "destination is null");
  EXPECT_RK_ERROR(peers.copy_peer(b.data(), ids[1], nullptr, ids[0], 4), errc::invalid_argument,
                  "source is null");  // for 0 bytes a null pointer is fine (device_ranges_test.cpp)
  EXPECT_RK_ERROR(peers.unmap_peer_memory(nullptr, ids[1]), errc::invalid_argument, "null");
  Stream s(ids[0]);
  EXPECT_RK_ERROR(s.copy_async(nullptr, a.data(), 1), errc::invalid_argument, "destination is null");
}

TEST_F(PeerErrors, PointerOnWrongDeviceAndOutOfRange) {
  DeviceBuffer a(ids[0], 100), b(ids[1], 100);
  EXPECT_RK_ERROR(peers.copy_peer(b.data(), ids[1], b.data(), ids[0], 4), errc::invalid_argument,
                  "source 0x");
  EXPECT_RK_ERROR(peers.copy_peer(b.data(), ids[1], b.data(), ids[0], 4), errc::invalid_argument,
                  "is memory of device " + std::to_string(ids[1]) + ", not of device " + std::to_string(ids[0]));
  EXPECT_RK_ERROR(peers.copy_peer(b.bytes() + 90, ids[1], a.data(), ids[0], 11), errc::out_of_range,
                  "destination range [90, 90 + 11) exceeds its allocation of 100 bytes");
  EXPECT_RK_ERROR(peers.copy_peer(b, 0, a, 60, 41), errc::out_of_range,
                  "source range [60, 60 + 41) exceeds the buffer of 100 bytes");
  EXPECT_RK_ERROR(peers.copy_peer(b, 101, a, 0, 0), errc::out_of_range, "destination range [101");
  int on_stack = 0;
  EXPECT_RK_ERROR(peers.copy_peer(&on_stack, ids[1], a.data(), ids[0], 4), errc::invalid_argument,
                  "is not memory of device");
  // Exactly to the end is fine.
  EXPECT_EQ(peers.copy_peer(b.bytes() + 90, ids[1], a.data(), ids[0], 10).bytes, 10u);
}

TEST_F(PeerErrors, OverlapOnOneDevice) {
  DeviceBuffer a(ids[0], 100);
  EXPECT_RK_ERROR(peers.copy_peer(a.bytes() + 10, ids[0], a.data(), ids[0], 11), errc::overlapping_ranges,
                  "ranges of 11 bytes overlap on one device");
  EXPECT_RK_ERROR(peers.copy_peer(a, 0, a, 0, 1), errc::overlapping_ranges, "overlap");
  EXPECT_EQ(peers.copy_peer(a.bytes() + 10, ids[0], a.data(), ids[0], 10).path, CopyPath::same_device);
  Stream s(ids[0]);
  EXPECT_RK_ERROR(s.copy_async(a.bytes() + 1, a.data(), 2), errc::overlapping_ranges, "overlap");
}

TEST_F(PeerErrors, StreamsEventsAndAccessControl) {
  DeviceBuffer a(ids[0], 16), b(ids[1], 16);
  Stream elsewhere(ids[2]);
  EXPECT_RK_ERROR(peers.copy_peer_async(b.data(), ids[1], a.data(), ids[0], 4, elsewhere), errc::invalid_argument,
                  "the stream is on device " + std::to_string(ids[2]));
  Stream s0(ids[0]);
  Event e1(ids[1]);
  EXPECT_RK_ERROR(e1.record(s0), errc::invalid_argument, "cannot be recorded on a stream of device");
  EXPECT_RK_ERROR(s0.copy_async(b.data(), a.data(), 4), errc::unsupported, "PeerMemory::copy_peer_async");
  EXPECT_RK_ERROR(peers.enable_peer_access(ids[0], ids[0]), errc::invalid_argument, "same device");
  EXPECT_RK_ERROR(peers.disable_peer_access(ids[0], ids[0]), errc::invalid_argument, "same device");
  EXPECT_RK_ERROR(peers.enable_peer_access(ids[1], ids[2]), errc::peer_access_unsupported, "no direct link");
  EXPECT_RK_ERROR(PeerMemory{PeerMemoryOptions{0}}, errc::invalid_argument, "staging_chunk_bytes");
  Stream moved(ids[0]);
  Stream taker = std::move(moved);
  EXPECT_RK_ERROR(moved.synchronize(), errc::invalid_state, "moved from");
}

// The stream-ordered buffer form checks its ranges against the buffers like copy_peer does,
// before anything is queued.
TEST_F(PeerErrors, BufferFormOfCopyPeerAsyncChecksRanges) {
  DeviceBuffer a(ids[0], 100), b(ids[1], 100);
  Stream s(ids[0]);
  EXPECT_RK_ERROR(peers.copy_peer_async(b, 0, a, 60, 41, s), errc::out_of_range,
                  "PeerMemory::copy_peer_async (device " + std::to_string(ids[0]) +
                      "): out of range: source range [60, 60 + 41) exceeds the buffer of 100 bytes");
  EXPECT_RK_ERROR(peers.copy_peer_async(b, 90, a, 0, 11, s), errc::out_of_range,
                  "destination range [90, 90 + 11) exceeds the buffer of 100 bytes");
  DeviceBuffer moved(ids[0], 8);
  DeviceBuffer taker = std::move(moved);
  EXPECT_RK_ERROR(peers.copy_peer_async(b, 0, moved, 0, 4, s), errc::invalid_state,
                  "the source buffer owns no memory");
  Stream elsewhere(ids[2]);
  EXPECT_RK_ERROR(peers.copy_peer_async(b, 0, a, 0, 4, elsewhere), errc::invalid_argument,
                  "the stream is on device " + std::to_string(ids[2]));
  // Nothing to copy between empty buffers: the path the pair would take, no bytes, no chunks.
  DeviceBuffer empty0(ids[0], 0), empty1(ids[1], 0);
  const CopyResult none = peers.copy_peer_async(empty1, 0, empty0, 0, 0, s);
  EXPECT_EQ(none.bytes, 0u);
  EXPECT_EQ(none.chunks, 0u);
  EXPECT_EQ(none.path, CopyPath::host_staged) << "peer access is not enabled between the pair";
  // 0 bytes of buffers that hold some: no chunks either, on every path (direct said 1).
  EXPECT_EQ(peers.copy_peer_async(b, 0, a, 0, 0, s).chunks, 0u);
  DeviceBuffer c(ids[0], 100);
  EXPECT_EQ(peers.copy_peer_async(c, 0, a, 0, 0, s).chunks, 0u);  // same device
  // A buffer that owns nothing is refused for 0 bytes too (was: invalid device -1).
  EXPECT_RK_ERROR(peers.copy_peer_async(b, 0, moved, 0, 0, s), errc::invalid_state,
                  "the source buffer owns no memory");
  EXPECT_RK_ERROR(peers.copy_peer(moved, 0, b, 0, 0), errc::invalid_state, "the destination buffer owns no memory");
  s.synchronize();
}

TEST_F(PeerErrors, MappingRules) {
  DeviceBuffer a(ids[0], 64);
  EXPECT_RK_ERROR(peers.map_peer_memory(a.data(), ids[0], ids[1], 64), errc::invalid_state,
                  "is not enabled; call enable_peer_access(" + std::to_string(ids[1]) + ", " + std::to_string(ids[0]));
  EXPECT_RK_ERROR(peers.map_peer_memory(a.data(), ids[0], ids[2], 64), errc::peer_access_unsupported,
                  "not supported by the topology");
  peers.enable_peer_access(ids[1], ids[0]);
  EXPECT_RK_ERROR(peers.map_peer_memory(a.data(), ids[0], ids[1], 65), errc::out_of_range, "exceeds");
  EXPECT_RK_ERROR(peers.map_peer_memory(a.data(), ids[0], ids[0], 8), errc::invalid_argument, "same");
  EXPECT_RK_ERROR(peers.map_peer_memory(a.data(), ids[0], ids[1], 0), errc::invalid_argument, "0 bytes");
  void* mapped = peers.map_peer_memory(a.data(), ids[0], ids[1], 64);
  EXPECT_EQ(mapped, a.data());
  EXPECT_EQ(peers.live_mappings(), 1u);
  EXPECT_RK_ERROR(peers.disable_peer_access(ids[1], ids[0]), errc::invalid_state,
                  "1 live mapping of device " + std::to_string(ids[0]) + "'s memory: " + hex(mapped) +
                      " (64 bytes); end it with unmap_peer_memory(" + hex(mapped) + ", " + std::to_string(ids[1]) + ")");
  peers.unmap_peer_memory(mapped, ids[1]);
  EXPECT_EQ(peers.live_mappings(), 0u);
  EXPECT_RK_ERROR(peers.unmap_peer_memory(mapped, ids[1]), errc::invalid_state, "is not mapped for device");
  peers.disable_peer_access(ids[1], ids[0]);
}

// disable_peer_access refused with live mappings without saying which: the error names how many
// there are and, for the first few, pointer, byte count and whether the memory was freed.
TEST_F(PeerErrors, DisableNamesTheMappingsThatBlockIt) {
  peers.enable_peer_access(ids[1], ids[0]);
  DeviceBuffer a(ids[0], 64), b(ids[0], 4096);
  void* freed = nullptr;
  {
    DeviceBuffer gone(ids[0], 128);
    freed = peers.map_peer_memory(gone.data(), ids[0], ids[1], 128);
  }  // freed without unmap_peer_memory: the mapping stays live
  peers.map_peer_memory(a.data(), ids[0], ids[1], 64);
  peers.map_peer_memory(b.data(), ids[0], ids[1], 4096);
  peers.map_peer_memory(b.data(), ids[0], ids[1], 100);
  const std::string to = std::to_string(ids[0]), from = std::to_string(ids[1]);
  try {
    peers.disable_peer_access(ids[1], ids[0]);
    ADD_FAILURE() << "disable_peer_access with live mappings did not throw";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), errc::invalid_state);
    EXPECT_EQ(e.device(), ids[1]);
    for (const std::string& part :
         {"peer access from device " + from + " to device " + to + " is still used by 4 live mappings of device " +
              to + "'s memory: ",
          hex(a.data()) + " (64 bytes)", hex(b.data()) + " (4096 bytes, mapped 2 times)",
          hex(freed) + " (128 bytes, no longer allocated)", "; end each with unmap_peer_memory(pointer, " + from + ")"})
      EXPECT_NE(what.find(part), std::string::npos) << "\"" << what << "\" lacks \"" << part << "\"";
  }
  peers.unmap_peer_memory(freed, ids[1]);  // before new allocations can reuse the address
  DeviceBuffer c(ids[0], 32), d(ids[0], 32);
  peers.map_peer_memory(c.data(), ids[0], ids[1], 32);
  peers.map_peer_memory(d.data(), ids[0], ids[1], 32);
  // Four pointers, five mappings: three pointers listed (in address order), the rest counted.
  EXPECT_RK_ERROR(peers.disable_peer_access(ids[1], ids[0]), errc::invalid_state, "5 live mappings of device");
  EXPECT_RK_ERROR(peers.disable_peer_access(ids[1], ids[0]), errc::invalid_state, " more; end each");
  for (void* p : {a.data(), b.data(), b.data(), c.data(), d.data()}) peers.unmap_peer_memory(p, ids[1]);
  EXPECT_EQ(peers.live_mappings(), 0u);
  peers.disable_peer_access(ids[1], ids[0]);
  EXPECT_FALSE(peers.peer_access_enabled(ids[1], ids[0]));
}

// Only mappings of dst's memory for src block disable_peer_access(src, dst): a mapping of device 1's
// memory for device 0 blocks (0, 1) alone, not the reverse pair (1, 0) nor another pair of device 0.
TEST_F(PeerErrors, DisableIgnoresMappingsOfOtherPairs) {
  ids = test::use_host_devices(3, HostTopology::all);
  PeerMemory local;  // of this configuration
  for (const auto& [src, dst] : {std::pair{0, 1}, {1, 0}, {0, 2}}) local.enable_peer_access(ids[src], ids[dst]);
  DeviceBuffer on1(ids[1], 64);
  void* mapped = local.map_peer_memory(on1.data(), ids[1], ids[0], 64);  // device 0 reaches device 1's memory
  local.disable_peer_access(ids[1], ids[0]);
  local.disable_peer_access(ids[0], ids[2]);
  EXPECT_FALSE(local.peer_access_enabled(ids[1], ids[0]));
  EXPECT_FALSE(local.peer_access_enabled(ids[0], ids[2]));
  const std::string from = std::to_string(ids[0]), to = std::to_string(ids[1]);
  EXPECT_RK_ERROR(local.disable_peer_access(ids[0], ids[1]), errc::invalid_state,
                  "peer access from device " + from + " to device " + to + " is still used by 1 live mapping of device " +
                      to + "'s memory: " + hex(mapped) + " (64 bytes); end it with unmap_peer_memory(" + hex(mapped) +
                      ", " + from + ")");
  EXPECT_TRUE(local.peer_access_enabled(ids[0], ids[1])) << "a refused disable turned access off";
  local.unmap_peer_memory(mapped, ids[0]);
  local.disable_peer_access(ids[0], ids[1]);
  EXPECT_FALSE(local.peer_access_enabled(ids[0], ids[1]));
}

TEST_F(PeerErrors, OldConfigurationObjectsAreRejectedNotMisused) {
  DeviceBuffer old(ids[0], 16);
  Stream old_stream(ids[0]);
  const auto fresh = test::use_host_devices(2, HostTopology::all);
  DeviceBuffer now(fresh[1], 16);
  EXPECT_RK_ERROR(peers.copy_peer(now.data(), fresh[1], old.data(), fresh[0], 4), errc::invalid_argument,
                  "is memory of a host device of an earlier host configuration, not memory of device " +
                      std::to_string(fresh[0]));
  EXPECT_RK_ERROR(peers.copy_peer_async(now.data(), fresh[1], now.data(), fresh[1], 0, old_stream),
                  errc::invalid_argument, "older host configuration");
}

// Memory the runtime allocates for a call (measurement buffers, staging buffers) that a device
// cannot give is reported by that call, not by the buffer constructor it used inside.
TEST(PeerAllocationErrors, NameTheCallThatNeededTheMemory) {
  const test::RestoreHostConfig restore;
  HostBackendConfig config;
  config.device_count = 2;
  config.topology = HostTopology::none;
  config.memory_per_device = std::size_t{1} << 20;
  configure_host_backend(config);
  const auto host = devices(Backend::host);
  ASSERT_EQ(host.size(), 2u);
  PeerMemory peers;
  MeasureOptions too_big;
  too_big.bandwidth_bytes = std::size_t{2} << 20;  // more than a device holds
  EXPECT_RK_ERROR(peers.measure(host[0].id, host[1].id, too_big), errc::out_of_memory,
                  "PeerMemory::measure (device " + std::to_string(host[0].id) +
                      "): out of memory: allocating what the measurement copies (DeviceBuffer::DeviceBuffer)");
}

// A device id that names no device is named as such, before anything is allocated (it came back
// as "out of memory" of the other device when the default sizes did not fit that one).
TEST(PeerAllocationErrors, MeasureNamesABadDeviceIdBeforeAllocating) {
  const test::RestoreHostConfig restore;
  HostBackendConfig config;
  config.device_count = 2;
  config.memory_per_device = std::size_t{1} << 20;  // less than the default measurement buffers
  configure_host_backend(config);
  const auto host = devices(Backend::host);
  PeerMemory peers;
  EXPECT_RK_ERROR(peers.measure(host[0].id, 99), errc::invalid_device,
                  "PeerMemory::measure (device 99): invalid device: destination device: ");
  EXPECT_RK_ERROR(peers.measure(-3, host[1].id), errc::invalid_device,
                  "PeerMemory::measure (device -3): invalid device: source device: ");
}

// Every error of measure() names measure: its copies went through the public copy_peer_async,
// whose name a failure to set up the host staging buffers carried.
TEST(PeerAllocationErrors, MeasureNamesItselfWhenItsCopiesFail) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::none);  // host-staged: a pipeline is set up
  PeerMemoryOptions options;
  options.staging_chunk_bytes = std::numeric_limits<std::size_t>::max();  // staging buffers no one can have
  PeerMemory peers(options);
  MeasureOptions quick;
  quick.bandwidth_bytes = 4096;
  quick.bandwidth_repetitions = 1;
  quick.latency_repetitions = 1;
  try {
    peers.measure(ids[0], ids[1], quick);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
    EXPECT_EQ(e.call(), "PeerMemory::measure") << e.what();
    EXPECT_NE(e.detail().find("setting up the host staging buffers and streams (PinnedBuffer::PinnedBuffer)"),
              std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ringkernel
