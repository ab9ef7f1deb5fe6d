// Copyright RingKernel authors.
// PeerMemory on the host backend: sizes, offsets, path selection per topology, invalid arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

using test::pattern;

std::vector<std::uint8_t> read(const DeviceBuffer& b, std::size_t offset, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  b.download(v.data(), n, offset);
  return v;
}

class PeerCopy : public ::testing::TestWithParam<std::size_t> {};

TEST_P(PeerCopy, EveryPathCopiesExactlyTheRangeAtUnalignedOffsets) {
  const std::size_t n = GetParam();
  const auto ids = test::use_host_devices(3, HostTopology::pairs, {{0, 1}});
  PeerMemory peers(PeerMemoryOptions{std::size_t{1} << 20});  // 1 MiB staging chunks
  peers.enable_peer_access(ids[0], ids[1]);
  const std::size_t src_off = 3, dst_off = 5, slack = 16;
  const auto data = pattern(n + src_off, 7);
  struct Case { int src, dst; CopyPath path; };
  for (const Case c : {Case{ids[0], ids[1], CopyPath::direct_peer}, Case{ids[1], ids[2], CopyPath::host_staged},
                       Case{ids[2], ids[2], CopyPath::same_device}}) {
    DeviceBuffer src(c.src, n + src_off);
    DeviceBuffer dst(c.dst, n + dst_off + slack + (c.src == c.dst ? n + src_off : 0));
    src.upload(data.data(), data.size());
    const auto guard = pattern(dst.size(), 99);
    dst.upload(guard.data(), guard.size());
    // On one device the destination sits after the source range so that they cannot overlap.
    const std::size_t d_off = dst_off + (c.src == c.dst ? n + src_off : 0);
    const auto result = peers.copy_peer(dst, d_off, src, src_off, n);
    EXPECT_EQ(result.path, c.path) << c.src << "->" << c.dst;
    EXPECT_EQ(result.bytes, n);
    if (c.path == CopyPath::host_staged) {
      EXPECT_EQ(result.chunks, (n + (1u << 20) - 1) >> 20);
    }
    const auto got = read(dst, 0, dst.size());
    EXPECT_TRUE(std::equal(got.begin() + static_cast<std::ptrdiff_t>(d_off), got.begin() + static_cast<std::ptrdiff_t>(d_off + n),
                           data.begin() + static_cast<std::ptrdiff_t>(src_off)))
        << to_string(c.path) << " copy of " << n << " bytes differs";
    EXPECT_TRUE(std::equal(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(d_off), guard.begin()))
        << "bytes before the destination range changed";
    EXPECT_TRUE(std::equal(got.begin() + static_cast<std::ptrdiff_t>(d_off + n), got.end(),
                           guard.begin() + static_cast<std::ptrdiff_t>(d_off + n)))
        << "bytes after the destination range changed";
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, PeerCopy,
                         ::testing::Values(0, 1, 7, 4096, 65537, (1u << 20) - 1, (1u << 20) + 3,
                                           std::size_t{3} << 20));

TEST(PeerCopyLarge, TwoHundredFiftySixMiBHostStagedAndDirect) {
  constexpr std::size_t n = std::size_t{256} << 20;
  const auto ids = test::use_host_devices(3, HostTopology::pairs, {{0, 1}});
  PeerMemory peers;
  peers.enable_peer_access(ids[0], ids[1]);
  std::vector<std::uint8_t> data(n);
  for (std::size_t i = 0; i < n; i += 4096) data[i] = static_cast<std::uint8_t>(i >> 12);
  data[n - 1] = 0xab;
  DeviceBuffer a(ids[0], n), b(ids[1], n), c(ids[2], n);
  a.upload(data.data(), n);
  EXPECT_EQ(peers.copy_peer(b, 0, a, 0, n).path, CopyPath::direct_peer);
  const auto staged = peers.copy_peer(c, 0, b, 0, n);
  EXPECT_EQ(staged.path, CopyPath::host_staged);
  EXPECT_EQ(staged.chunks, 64u);  // 4 MiB default chunks
  std::vector<std::uint8_t> out(n);
  c.download(out.data(), n);
  EXPECT_TRUE(out == data);
}

// The buffer form of copy_peer_async copies exactly the range at the offsets, ordered on the
// stream: work queued after it (a download into host memory) sees the copied bytes.
TEST(PeerCopyAsync, BufferFormCopiesTheRangeInStreamOrder) {
  const auto ids = test::use_host_devices(3, HostTopology::pairs, {{0, 1}});
  PeerMemory peers(PeerMemoryOptions{64});  // small staging chunks: several per copy
  peers.enable_peer_access(ids[0], ids[1]);
  const std::size_t n = 1000, src_off = 3, dst_off = 17;
  const auto data = pattern(n + src_off, 5);
  struct Case { int src, dst; CopyPath path; std::size_t chunks; };
  for (const Case c : {Case{ids[0], ids[1], CopyPath::direct_peer, 1}, Case{ids[2], ids[1], CopyPath::host_staged, 16}}) {
    DeviceBuffer src(c.src, n + src_off), dst(c.dst, n + dst_off + 8);
    src.upload(data.data(), data.size());
    const auto guard = pattern(dst.size(), 11);
    dst.upload(guard.data(), guard.size());
    Stream stream(c.dst);
    const CopyResult r = peers.copy_peer_async(dst, dst_off, src, src_off, n, stream);
    EXPECT_EQ(r.path, c.path);
    EXPECT_EQ(r.bytes, n);
    EXPECT_EQ(r.chunks, c.chunks);
    std::vector<std::uint8_t> got(dst.size());
    stream.copy_async(got.data(), dst.data(), got.size());
    stream.synchronize();
    auto expected = guard;
    std::copy(data.begin() + src_off, data.end(), expected.begin() + dst_off);
    EXPECT_EQ(got, expected) << to_string(c.path);
  }
}

// Buffers of 0 bytes own no memory: a copy of 0 bytes between them copies nothing (0 bytes, 0
// chunks) and says the path a copy between their devices takes now, also for one device.
TEST(PeerCopyAsync, ZeroBytesBetweenEmptyBuffersNameThePath) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  DeviceBuffer a(ids[0], 0), a2(ids[0], 0), b(ids[1], 0);
  ASSERT_EQ(a.data(), nullptr);
  Stream s(ids[0]);
  const auto expect_path = [&](DeviceBuffer& dst, const DeviceBuffer& src, CopyPath path, const char* what) {
    for (const CopyResult r : {peers.copy_peer(dst, 0, src, 0, 0), peers.copy_peer_async(dst, 0, src, 0, 0, s)}) {
      EXPECT_EQ(r.path, path) << what;
      EXPECT_EQ(r.bytes, 0u) << what;
      EXPECT_EQ(r.chunks, 0u) << what;
    }
  };
  expect_path(a2, a, CopyPath::same_device, "one device");
  expect_path(a, a, CopyPath::same_device, "one buffer");
  expect_path(b, a, CopyPath::host_staged, "no peer access");
  peers.enable_peer_access(ids[1], ids[0]);
  expect_path(b, a, CopyPath::direct_peer, "peer access one way");
  expect_path(a, b, CopyPath::direct_peer, "peer access one way, the other direction");
  EXPECT_RK_ERROR(peers.copy_peer(b, 0, a, 0, 1), errc::out_of_range, "exceeds the buffer of 0 bytes");
  EXPECT_TRUE(s.idle());
}

// The name of every CopyPath, and "unknown" for a value past them.
TEST(PeerCopyAsync, EveryCopyPathHasItsName) {
  const std::pair<CopyPath, const char*> names[] = {{CopyPath::same_device, "same-device"},
                                                    {CopyPath::direct_peer, "direct-peer"},
                                                    {CopyPath::host_staged, "host-staged"},
                                                    {static_cast<CopyPath>(3), "unknown"}};
  for (const auto& [path, name] : names) EXPECT_STREQ(to_string(path), name) << static_cast<int>(path);
}

TEST(PeerTopology, CellsOutsideTheMatrixAreOutOfRange) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  const TopologyMatrix m = peers.topology();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at(1, 0).src, ids[1]);
  for (const auto& [row, column] : {std::pair<std::size_t, std::size_t>{2, 0}, {0, 2}, {7, 7}}) {
    try {
      (void)m.at(row, column);
      ADD_FAILURE() << "cell (" << row << ", " << column << ") of a 2x2 matrix accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::out_of_range);
      EXPECT_NE(std::string(e.what()).find("cell (" + std::to_string(row) + ", " + std::to_string(column) +
                                           ") of a 2x2 matrix"), std::string::npos) << e.what();
    }
  }
  std::ostringstream printed;
  printed << m;
  EXPECT_EQ(printed.str(), m.to_string());
}

TEST(PeerTopology, NoneAllAndPairsSelectTheRightPath) {
  {
    const auto ids = test::use_host_devices(2, HostTopology::none);
    PeerMemory peers;
    EXPECT_FALSE(peers.can_access_peer(ids[0], ids[1]));
    EXPECT_EQ(peers.capability(ids[0], ids[1]).access, AccessType::host_routed);
    DeviceBuffer a(ids[0], 64), b(ids[1], 64);
    EXPECT_EQ(peers.copy_peer(b, 0, a, 0, 64).path, CopyPath::host_staged);
    try {
      peers.enable_peer_access(ids[0], ids[1]);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::peer_access_unsupported);
      EXPECT_NE(std::string(e.what()).find("have no direct link in the host topology (2 devices, topology none"),
                std::string::npos)
          << e.what();
    }
  }
  {
    const auto ids = test::use_host_devices(4, HostTopology::all);
    PeerMemory peers;
    DeviceBuffer a(ids[3], 64), b(ids[0], 64);
    EXPECT_TRUE(peers.can_access_peer(ids[3], ids[0]));
    EXPECT_EQ(peers.copy_peer(b, 0, a, 0, 64).path, CopyPath::host_staged) << "not enabled yet";
    peers.enable_peer_access(ids[3], ids[0]);
    peers.enable_peer_access(ids[3], ids[0]);  // idempotent
    EXPECT_TRUE(peers.peer_access_enabled(ids[3], ids[0]));
    EXPECT_FALSE(peers.peer_access_enabled(ids[0], ids[3]));
    EXPECT_EQ(peers.copy_peer(b, 0, a, 0, 64).path, CopyPath::direct_peer);
    EXPECT_EQ(peers.copy_peer(a, 0, b, 0, 64).path, CopyPath::direct_peer) << "either direction enabled";
    peers.disable_peer_access(ids[3], ids[0]);
    peers.disable_peer_access(ids[3], ids[0]);  // idempotent
    EXPECT_EQ(peers.copy_peer(b, 0, a, 0, 64).path, CopyPath::host_staged);
  }
  {
    const auto ids = test::use_host_devices(4, HostTopology::pairs, {{0, 1}, {2, 3}});
    PeerMemory peers;
    EXPECT_TRUE(peers.can_access_peer(ids[2], ids[3]));
    EXPECT_FALSE(peers.can_access_peer(ids[1], ids[2]));
    EXPECT_FALSE(peers.can_access_peer(ids[1], ids[1]));
    const auto m = peers.topology();
    EXPECT_EQ(m.at(0, 0).access, AccessType::same_device);
    const auto text = m.to_string();
    EXPECT_NE(text.find("DEV" + std::to_string(ids[0])), std::string::npos);
    const auto row = [&](int r) {
      std::string s;
      for (std::size_t c = 0; c < m.size(); ++c) s += std::string(matrix_code(m.at(static_cast<std::size_t>(r), c).access)) + " ";
      return s;
    };
    const int base = ids[0];
    EXPECT_EQ(row(base + 0).substr(row(base + 0).size() - 11), "X VL HR HR ");
    EXPECT_EQ(row(base + 3).substr(row(base + 3).size() - 11), "HR HR VL X ");
    const auto cap = peers.capability(ids[0], ids[1]);
    EXPECT_EQ(cap.access, AccessType::virtual_link);
    EXPECT_TRUE(cap.native_atomics);
    EXPECT_EQ(cap.performance_rank, 1);
    EXPECT_FALSE(cap.bandwidth_gbps.measured);
    EXPECT_EQ(peers.capability(ids[0], ids[2]).performance_rank, 100);
  }
}

// One small copy per figure: the tests check where figures go, not what they are.
MeasureOptions quick_measure() {
  MeasureOptions o;
  o.bandwidth_bytes = 1 << 16;
  o.bandwidth_repetitions = 1;
  o.latency_repetitions = 1;
  return o;
}

TEST(PeerMeasure, MeasuredFiguresReplaceEstimates) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  MeasureOptions o;
  o.bandwidth_bytes = 1 << 20;
  o.bandwidth_repetitions = 2;
  o.latency_repetitions = 5;
  const auto m = peers.measure(ids[0], ids[1], o);
  EXPECT_EQ(m.path, CopyPath::host_staged);
  EXPECT_GT(m.bandwidth_gbps, 0.0);
  EXPECT_GT(m.latency_us, 0.0);
  const auto c = peers.capability(ids[0], ids[1]);
  EXPECT_TRUE(c.bandwidth_gbps.measured);
  EXPECT_DOUBLE_EQ(c.bandwidth_gbps.value, m.bandwidth_gbps);
  EXPECT_FALSE(peers.capability(ids[1], ids[0]).latency_us.measured);
  o.latency_repetitions = 0;
  EXPECT_THROW(peers.measure(ids[0], ids[1], o), Error);
}

// Each size and repetition count of MeasureOptions must be > 0 (a zero or negative one divides by
// zero or measures nothing): refused before anything is measured, nothing recorded or replaced.
TEST(PeerMeasure, RefusesEachZeroOption) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  const auto first = peers.measure(ids[1], ids[0], quick_measure());  // a figure a refusal must not replace
  const std::vector<std::pair<const char*, void (*)(MeasureOptions&)>> zero = {
      {"bandwidth_bytes 0", [](MeasureOptions& o) { o.bandwidth_bytes = 0; }},
      {"latency_bytes 0", [](MeasureOptions& o) { o.latency_bytes = 0; }},
      {"bandwidth_repetitions 0", [](MeasureOptions& o) { o.bandwidth_repetitions = 0; }},
      {"bandwidth_repetitions -1", [](MeasureOptions& o) { o.bandwidth_repetitions = -1; }},
      {"latency_repetitions 0", [](MeasureOptions& o) { o.latency_repetitions = 0; }},
      {"latency_repetitions -1", [](MeasureOptions& o) { o.latency_repetitions = -1; }}};
  for (const auto& [what, make_zero] : zero) {
    SCOPED_TRACE(what);
    MeasureOptions o = quick_measure();
    make_zero(o);
    for (const auto& [src, dst] : {std::pair{ids[0], ids[1]}, {ids[1], ids[0]}})
      EXPECT_RK_ERROR(peers.measure(src, dst, o), errc::invalid_argument,
                      "PeerMemory::measure (device " + std::to_string(src) +
                          "): invalid argument: MeasureOptions sizes and repetitions must all be > 0");
    const auto c = peers.capability(ids[0], ids[1]);
    EXPECT_FALSE(c.bandwidth_gbps.measured);
    EXPECT_FALSE(c.latency_us.measured);
    const auto back = peers.capability(ids[1], ids[0]);
    EXPECT_DOUBLE_EQ(back.bandwidth_gbps.value, first.bandwidth_gbps);
    EXPECT_DOUBLE_EQ(back.latency_us.value, first.latency_us);
  }
}

// A figure measured over one path is not reported for the other: measured host-staged, then peer
// access enabled, capability() reported the staged figures as the link's measured ones.
TEST(PeerMeasure, FiguresCountOnlyForThePathTheyWereMeasuredOn) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  const MeasureOptions o = quick_measure();
  const auto staged = peers.measure(ids[0], ids[1], o);
  EXPECT_EQ(staged.path, CopyPath::host_staged);
  EXPECT_TRUE(peers.capability(ids[0], ids[1]).bandwidth_gbps.measured);
  peers.enable_peer_access(ids[1], ids[0]);  // either direction makes copies direct
  EXPECT_FALSE(peers.capability(ids[0], ids[1]).bandwidth_gbps.measured);
  EXPECT_FALSE(peers.capability(ids[0], ids[1]).latency_us.measured);
  EXPECT_EQ(peers.measure(ids[0], ids[1], o).path, CopyPath::direct_peer);
  EXPECT_TRUE(peers.capability(ids[0], ids[1]).latency_us.measured);
  peers.disable_peer_access(ids[1], ids[0]);
  EXPECT_DOUBLE_EQ(peers.capability(ids[0], ids[1]).bandwidth_gbps.value, staged.bandwidth_gbps)
      << "the direct figures reported for the host-staged path";
}

// One measurement per path: measured direct, then host-staged, then direct again, the direct
// figures were lost (capability() fell back to estimates) because the staged ones replaced them.
TEST(PeerMeasure, EachPathKeepsItsOwnMeasurement) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  const MeasureOptions o = quick_measure();
  peers.enable_peer_access(ids[0], ids[1]);
  const auto direct = peers.measure(ids[0], ids[1], o);
  ASSERT_EQ(direct.path, CopyPath::direct_peer);
  peers.disable_peer_access(ids[0], ids[1]);
  EXPECT_FALSE(peers.capability(ids[0], ids[1]).latency_us.measured);
  const auto staged = peers.measure(ids[0], ids[1], o);
  ASSERT_EQ(staged.path, CopyPath::host_staged);

  peers.enable_peer_access(ids[0], ids[1]);
  auto c = peers.capability(ids[0], ids[1]);
  EXPECT_TRUE(c.bandwidth_gbps.measured) << "the direct measurement was lost";
  EXPECT_TRUE(c.latency_us.measured);
  EXPECT_DOUBLE_EQ(c.bandwidth_gbps.value, direct.bandwidth_gbps);
  EXPECT_DOUBLE_EQ(c.latency_us.value, direct.latency_us);
  peers.disable_peer_access(ids[0], ids[1]);
  c = peers.capability(ids[0], ids[1]);
  EXPECT_TRUE(c.bandwidth_gbps.measured);
  EXPECT_DOUBLE_EQ(c.bandwidth_gbps.value, staged.bandwidth_gbps);
  EXPECT_DOUBLE_EQ(c.latency_us.value, staged.latency_us);
  EXPECT_FALSE(peers.capability(ids[1], ids[0]).bandwidth_gbps.measured) << "per direction";

  // Measuring a path again replaces only that path's figures.
  const auto staged_again = peers.measure(ids[0], ids[1], o);
  peers.enable_peer_access(ids[1], ids[0]);  // either direction makes copies direct
  EXPECT_DOUBLE_EQ(peers.capability(ids[0], ids[1]).latency_us.value, direct.latency_us);
  peers.disable_peer_access(ids[1], ids[0]);
  EXPECT_DOUBLE_EQ(peers.capability(ids[0], ids[1]).latency_us.value, staged_again.latency_us);
}

}  // namespace
}  // namespace ringkernel
