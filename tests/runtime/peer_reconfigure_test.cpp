// Copyright RingKernel authors.
// A PeerMemory used before configure_host_backend() renumbered the host devices works with the
// new devices afterwards: its internal streams and staging pipelines are made anew, and
// measurements and mappings of the old devices no longer count for the ids.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

TEST(PeerReconfigure, CopiesUseTheNewDevices) {
  auto ids = test::use_host_devices(3, HostTopology::pairs, {{0, 1}});
  PeerMemory peers(PeerMemoryOptions{4096});
  {
    DeviceBuffer a(ids[0], 10000), b(ids[1], 10000), c(ids[2], 10000);
    peers.enable_peer_access(ids[0], ids[1]);
    EXPECT_EQ(peers.copy_peer(b, 0, a, 0, 10000).path, CopyPath::direct_peer);
    EXPECT_EQ(peers.copy_peer(c, 0, a, 0, 10000).path, CopyPath::host_staged);
  }
  ids = test::use_host_devices(3, HostTopology::none);
  DeviceBuffer a(ids[0], 10000), b(ids[1], 10000), c(ids[2], 10000);
  const auto data = test::pattern(10000, 3);
  a.upload(data.data(), data.size());
  // Used to fail: "the stream belongs to another backend or an older host configuration".
  EXPECT_EQ(peers.copy_peer(b, 0, a, 0, 10000).path, CopyPath::host_staged);
  const auto r = peers.copy_peer(c.data(), ids[2], a.data(), ids[0], 10000);
  EXPECT_EQ(r.path, CopyPath::host_staged);
  EXPECT_EQ(r.chunks, 3u);
  std::vector<std::uint8_t> out(10000);
  for (const DeviceBuffer* dst : {&b, &c}) {
    dst->download(out.data(), out.size());
    EXPECT_EQ(out, data);
  }
}

TEST(PeerReconfigure, OldMeasurementsAndMappingsDoNotCount) {
  auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  MeasureOptions small;
  small.bandwidth_bytes = 4096;
  small.bandwidth_repetitions = 1;
  small.latency_repetitions = 1;
  peers.measure(ids[0], ids[1], small);
  EXPECT_TRUE(peers.capability(ids[0], ids[1]).bandwidth_gbps.measured);
  DeviceBuffer old_memory(ids[0], 64);
  peers.enable_peer_access(ids[1], ids[0]);
  void* mapped = peers.map_peer_memory(old_memory.data(), ids[0], ids[1], 64);
  EXPECT_EQ(peers.measure(ids[0], ids[1], small).path, CopyPath::direct_peer);  // both paths measured

  ids = test::use_host_devices(2, HostTopology::all);
  const auto c = peers.capability(ids[0], ids[1]);
  EXPECT_FALSE(c.bandwidth_gbps.measured) << "a figure of the old devices reported as measured";
  EXPECT_FALSE(c.latency_us.measured);
  peers.enable_peer_access(ids[1], ids[0]);
  EXPECT_FALSE(peers.capability(ids[0], ids[1]).latency_us.measured) << "old direct figure reported";
  peers.disable_peer_access(ids[1], ids[0]);  // used to be refused: "is still mapped"
  peers.unmap_peer_memory(mapped, ids[1]);    // the old mapping can still be ended
  EXPECT_EQ(peers.live_mappings(), 0u);
}

// A mapping of the new devices at the address of a live mapping of the old ones (memory freed and
// allocated again) is a mapping of its own: it replaced the old entry before, dropping its count,
// so access could be disabled under the new, still live mapping and the second unmap failed.
TEST(PeerReconfigure, AMappingAtTheAddressOfAnOldOneKeepsBoth) {
  auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  // Large enough for malloc to map it on its own (past glibc's largest mmap threshold, 32 MiB), so
  // that freeing unmaps it and the next allocation of the size maps the same addresses again.
  constexpr std::size_t bytes = std::size_t{48} << 20;
  void* old_mapped = nullptr;
  {
    DeviceBuffer old_memory(ids[0], bytes);
    peers.enable_peer_access(ids[1], ids[0]);
    old_mapped = peers.map_peer_memory(old_memory.data(), ids[0], ids[1], bytes);  // left mapped
  }
  ids = test::use_host_devices(2, HostTopology::all);
  peers.enable_peer_access(ids[1], ids[0]);
  std::vector<DeviceBuffer> tries;
  while (tries.size() < 3 && (tries.empty() || tries.back().data() != old_mapped)) tries.emplace_back(ids[0], bytes);
  if (tries.back().data() != old_mapped) GTEST_SKIP() << "the allocator did not return the old address in 3 tries";
  void* mapped = peers.map_peer_memory(tries.back().data(), ids[0], ids[1], bytes);
  EXPECT_EQ(peers.live_mappings(), 2u);
  peers.unmap_peer_memory(mapped, ids[1]);  // the new devices' mapping first
  EXPECT_EQ(peers.live_mappings(), 1u);
  peers.disable_peer_access(ids[1], ids[0]);  // the old one does not hold the new devices' access
  peers.unmap_peer_memory(old_mapped, ids[1]);
  EXPECT_EQ(peers.live_mappings(), 0u);
  peers.enable_peer_access(ids[1], ids[0]);
  mapped = peers.map_peer_memory(tries.back().data(), ids[0], ids[1], bytes);
  EXPECT_RK_ERROR(peers.disable_peer_access(ids[1], ids[0]), errc::invalid_state, "is still used by 1 live mapping");
  peers.unmap_peer_memory(mapped, ids[1]);
}

// A mapping made before a configuration with fewer devices can still be ended: its remote id names
// no device now (unmap resolved it first and threw invalid_device).
TEST(PeerReconfigure, AnOldMappingWhoseRemoteIdNamesNoDeviceNowCanBeUnmapped) {
  auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  DeviceBuffer memory(ids[0], 64);
  peers.enable_peer_access(ids[1], ids[0]);
  void* mapped = peers.map_peer_memory(memory.data(), ids[0], ids[1], 64);
  const int remote = ids[1];
  ids = test::use_host_devices(1, HostTopology::none);
  ASSERT_LT(ids.back(), remote) << "the old remote id must name no device now";
  peers.unmap_peer_memory(mapped, remote);
  EXPECT_EQ(peers.live_mappings(), 0u);
  EXPECT_RK_ERROR(peers.unmap_peer_memory(mapped, remote), errc::invalid_device, "names no device");
}

// Synchronous copies while another thread reconfigures: each copy either works or fails with an
// error that says what happened. A copy whose internal stream was made for the devices of one
// configuration and whose devices were resolved in the next reported "the stream belongs to another
// backend", about a stream the user never saw.
TEST(PeerReconfigure, ConcurrentReconfigurationGivesClearErrors) {
  test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  std::atomic<bool> stop{false};
  std::thread reconfigure([&] {
    for (int i = 0; i < 400 && !stop.load(); ++i)
      test::use_host_devices(2, i % 2 != 0 ? HostTopology::all : HostTopology::none);
    stop.store(true);
  });
  std::vector<std::string> unclear;
  while (!stop.load()) {
    int devices[2] = {-1, -1};  // of the buffers, once made
    try {
      const auto ids = test::host_device_ids();
      DeviceBuffer a(ids.at(0), 256), b(ids.at(1), 256);
      devices[0] = a.device();
      devices[1] = b.device();
      peers.copy_peer(b, 0, a, 0, 256);
      peers.copy_peer(b.data(), ids[1], a.data(), ids[0], 256);
    } catch (const Error& e) {
      const std::string what = e.what();
      if (what.find("stream belongs to another backend") != std::string::npos) unclear.push_back(what);
      // A buffer of a configuration replaced meanwhile is named as such: "is not memory of device
      // N" about a buffer whose device() is N contradicts the user's own buffer.
      for (const int device : devices)
        if (device >= 0 && what.find("is not memory of device " + std::to_string(device)) != std::string::npos)
          unclear.push_back(what);
    }
  }
  reconfigure.join();
  EXPECT_TRUE(unclear.empty()) << unclear.size() << " unclear errors, the first: " << unclear.front();
}

// Synchronous copies overtaken by another thread's configure_host_backend() fail in one of the two
// documented ways, named by the user's call, with nothing copied; a copy that works copies the right
// bytes. Host-staged (topology none): the staging pipeline, looked up after the devices, was of the
// new configuration and the copy's stream of the old, and the copy failed in Event::record ("event
// of device 0 and the stream of device 0 belong to different backends"); a host/host pair looked
// up in two configurations was errc::unsupported.
TEST(PeerReconfigure, OvertakenCopiesAreInvalidStateOrRefuseOldMemory) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::none);
  PeerMemoryOptions options;
  options.staging_chunk_bytes = 4096;  // two chunks a copy
  PeerMemory peers(options);
  constexpr std::size_t n = 8192;
  constexpr int reconfigurations = 1000;
  std::atomic<bool> stop{false};
  std::atomic<long> attempts{0};
  // After each reconfiguration, two more copy attempts: the one it may have overtaken, and one that
  // starts after it (copies that work, also under the sanitizers' slowdown); then a varying pause,
  // so the next one lands at another point of a copy.
  std::thread reconfigure([&] {
    for (int i = 0; i < reconfigurations; ++i) {
      test::use_host_devices(2, HostTopology::none);
      const long seen = attempts.load();
      while (attempts.load() < seen + 2) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::microseconds(i * 37 % 150));
    }
    stop.store(true);
  });
  const std::string overtaken = "configure_host_backend() replaced the host configuration during this call; nothing was copied";
  long copied = 0, invalid_state = 0, old_memory = 0;
  std::vector<std::string> wrong;  // errors of another kind, copies of wrong bytes
  const std::vector<std::uint8_t> untouched(n, 0xee);
  std::vector<std::uint8_t> back(n);
  for (std::uint32_t round = 0; !stop.load(); ++round) {
    const auto data = test::pattern(n, round);
    DeviceBuffer a(ids[0], n), b(ids[1], n);  // ids stay: each configuration has the same 2 devices
    a.upload(data.data(), n);
    b.upload(untouched.data(), n);
    try {
      if (round % 2 == 0) peers.copy_peer(b.data(), ids[1], a.data(), ids[0], n);
      else peers.copy_peer(b, 0, a, 0, n);
      b.download(back.data(), n);
      if (back != data) wrong.push_back("round " + std::to_string(round) + ": the copy gave wrong bytes");
      ++copied;
    } catch (const Error& e) {
      const bool expected =
          e.call() == "PeerMemory::copy_peer" &&
          ((e.code() == errc::invalid_state && e.detail() == overtaken) ||
           (e.code() == errc::invalid_argument && e.detail().find("of an earlier host configuration") != std::string::npos));
      (e.code() == errc::invalid_state ? invalid_state : old_memory) += expected;
      if (!expected) wrong.push_back(e.what());
      b.download(back.data(), n);
      if (back != untouched) wrong.push_back(std::string("bytes were copied by a copy that failed: ") + e.what());
    }
    attempts.fetch_add(1);
  }
  reconfigure.join();
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " wrong outcomes, the first: " << wrong.front();
  EXPECT_GE(copied, reconfigurations);  // the attempt after each reconfiguration
  std::printf("%ld copies, %ld overtaken (invalid_state), %ld refused old memory, %zu wrong\n", copied,
              invalid_state, old_memory, wrong.size());
}

/// An address as the runtime's messages print it.
std::string address(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

// Buffers of a replaced configuration are named as such: the error said "destination ... is not
// memory of device 1" about a buffer whose device() is 1.
TEST(PeerReconfigure, BuffersOfAReplacedConfigurationAreNamedAsSuch) {
  auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  DeviceBuffer a(ids[0], 100), b(ids[1], 100);
  ids = test::use_host_devices(2, HostTopology::all);
  ASSERT_EQ(b.device(), ids[1]);
  const std::string expected = "is memory of a host device of an earlier host configuration, not memory of device ";
  for (const bool buffers : {true, false}) {
    try {
      if (buffers) peers.copy_peer(b, 0, a, 0, 10);
      else peers.copy_peer(b.data(), ids[1], a.data(), ids[0], 10);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument);
      EXPECT_EQ(e.device(), ids[1]);
      EXPECT_NE(e.detail().find("destination " + address(b.data()) + " " + expected +
                                std::to_string(ids[1]) + " of the current host configuration"),
                std::string::npos) << e.what();
      EXPECT_EQ(e.detail().find("is not memory of device"), std::string::npos) << e.what();
    }
  }
  DeviceBuffer fresh(ids[1], 100);  // the source is named the same way
  EXPECT_RK_ERROR(peers.copy_peer(fresh, 0, a, 0, 10), errc::invalid_argument,
                  "source " + address(a.data()) + " " + expected + std::to_string(ids[0]));
  peers.enable_peer_access(ids[1], ids[0]);
  EXPECT_RK_ERROR(peers.map_peer_memory(a.data(), ids[0], ids[1], 10), errc::invalid_argument,
                  "local memory " + address(a.data()) + " " + expected + std::to_string(ids[0]));
  // Memory of another device of the same configuration is named as that device's.
  DeviceBuffer other(ids[0], 100);
  EXPECT_RK_ERROR(peers.copy_peer(fresh.data(), ids[1], other.data(), ids[1], 10), errc::invalid_argument,
                  "is memory of device " + std::to_string(ids[0]) + ", not of device " + std::to_string(ids[1]));
}

}  // namespace
}  // namespace ringkernel
