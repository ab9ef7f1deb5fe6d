// Copyright RingKernel authors.
// PeerMemory's queries while another thread's configure_host_backend() replaces the host devices,
// made deterministic with the registry's test seam (after_next_lookup_for_testing): the
// reconfiguration runs right after the query's first lookup of device ids. A query looks all its ids
// up in one snapshot, so it answers for one configuration. It looked src and dst up one by one and
// answered for the pair across two configurations: capability() "access none, rank -1" (two
// backends), can_access_peer() false, peer_access_enabled() an "overtaken" error, and topology()
// (ids listed in one configuration, each cell looked up again) a mix of two configurations or "device
// id N names no device" named PeerMemory::capability, a call the user never made (helper-164).
#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "host_fixture.h"
#include "registry.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

/// Arms the seam: the next lookup is followed by configure_host_backend(`next`); disarmed however
/// the test ends. ran() says whether it ran.
class ReconfigureAfterNextLookup {
 public:
  explicit ReconfigureAfterNextLookup(int devices, HostTopology topology) {
    HostBackendConfig next;
    next.device_count = devices;
    next.topology = topology;
    detail::after_next_lookup_for_testing([this, next] {
      configure_host_backend(next);
      ran_ = true;
    });
  }
  ~ReconfigureAfterNextLookup() { detail::after_next_lookup_for_testing(nullptr); }
  ReconfigureAfterNextLookup(const ReconfigureAfterNextLookup&) = delete;
  ReconfigureAfterNextLookup& operator=(const ReconfigureAfterNextLookup&) = delete;
  bool ran() const { return ran_; }

 private:
  bool ran_ = false;
};

std::string describe(const PeerCapability& c) {
  return std::string(to_string(c.access)) + ", rank " + std::to_string(c.performance_rank);
}

// Both configurations link the pair (virtual link, rank 1): "none" is the answer of neither.
TEST(PeerQueriesOvertaken, CapabilityIsOneConfigurationsAnswer) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  const ReconfigureAfterNextLookup reconfigure(2, HostTopology::all);
  const auto c = peers.capability(ids[0], ids[1]);
  ASSERT_TRUE(reconfigure.ran());
  EXPECT_EQ(c.access, AccessType::virtual_link) << describe(c) << ": the pair across two configurations";
  EXPECT_EQ(c.performance_rank, 1);
  EXPECT_TRUE(c.peer_access_supported);
}

// The second configuration has no links: either answer is right, a mix (none) is not.
TEST(PeerQueriesOvertaken, CapabilityOfAChangedTopologyIsOneConfigurationsAnswer) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  const ReconfigureAfterNextLookup reconfigure(2, HostTopology::none);
  const auto c = peers.capability(ids[0], ids[1]);
  ASSERT_TRUE(reconfigure.ran());
  const bool first = c.access == AccessType::virtual_link && c.performance_rank == 1;
  const bool second = c.access == AccessType::host_routed && c.performance_rank == 100;
  EXPECT_TRUE(first || second) << describe(c) << ": neither configuration's answer";
}

TEST(PeerQueriesOvertaken, CanAccessPeerIsOneConfigurationsAnswer) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  const ReconfigureAfterNextLookup reconfigure(2, HostTopology::all);
  EXPECT_TRUE(peers.can_access_peer(ids[0], ids[1])) << "both configurations link the pair";
  EXPECT_TRUE(reconfigure.ran());
}

// Access enabled in the first configuration, not (yet) in the second: either answer, no error.
TEST(PeerQueriesOvertaken, PeerAccessEnabledIsOneConfigurationsAnswer) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::all);
  PeerMemory peers;
  peers.enable_peer_access(ids[0], ids[1]);
  const ReconfigureAfterNextLookup reconfigure(2, HostTopology::all);
  try {
    (void)peers.peer_access_enabled(ids[0], ids[1]);
  } catch (const Error& e) {
    ADD_FAILURE() << "a query answers for one configuration, it is not overtaken: " << e.what();
  }
  EXPECT_TRUE(reconfigure.ran());
}

// Three linked devices, then two unlinked ones: the matrix is all of one configuration.
TEST(PeerQueriesOvertaken, TopologyIsOneConfigurations) {
  const test::RestoreHostConfig restore;
  const auto first = test::use_host_devices(3, HostTopology::all);
  PeerMemory peers;
  const ReconfigureAfterNextLookup reconfigure(2, HostTopology::none);
  TopologyMatrix m;
  try {
    m = peers.topology();
  } catch (const Error& e) {
    FAIL() << "topology() of one snapshot has no id to miss: " << e.what();
  }
  ASSERT_TRUE(reconfigure.ran());
  const std::set<int> host(first.begin(), first.end());
  std::vector<std::size_t> rows;  // of host devices (CUDA devices, if any, come first)
  for (std::size_t i = 0; i < m.size(); ++i)
    if (host.contains(m.device_ids[i])) rows.push_back(i);
  ASSERT_TRUE(rows.size() == 3 || rows.size() == 2) << rows.size() << " host devices";
  const AccessType link = rows.size() == 3 ? AccessType::virtual_link : AccessType::host_routed;
  for (const std::size_t r : rows)
    for (const std::size_t c : rows) {
      const auto& cell = m.at(r, c);
      EXPECT_EQ(cell.src, m.device_ids[r]);
      EXPECT_EQ(cell.dst, m.device_ids[c]);
      EXPECT_EQ(cell.access, r == c ? AccessType::same_device : link)
          << "cell (" << r << ", " << c << ") of the " << rows.size() << " host devices:\n" << m.to_string();
    }
}

// The seam itself: the hook runs once, after a lookup, and an empty hook disarms it.
TEST(PeerQueriesOvertaken, TheSeamRunsOnceAfterALookup) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(2, HostTopology::all);
  int runs = 0;
  detail::after_next_lookup_for_testing([&] { ++runs; });
  EXPECT_EQ(runs, 0);
  (void)device(ids[0]);
  (void)device(ids[1]);
  EXPECT_EQ(runs, 1);
  detail::after_next_lookup_for_testing([&] { ++runs; });
  detail::after_next_lookup_for_testing(nullptr);
  (void)device(ids[0]);
  EXPECT_EQ(runs, 1);
}

}  // namespace
}  // namespace ringkernel
