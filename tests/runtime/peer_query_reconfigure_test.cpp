// Copyright RingKernel authors.
// PeerMemory's queries while another thread's configure_host_backend() replaces the host devices
// again and again: each answer is one configuration's, never a mix of two (registry_snapshot_test.cpp
// overtakes each query at a known point through a test seam; this is the same without one). They
// looked src and dst (topology(): each cell) up one by one: capability() answered "access none" for
// two host devices, topology() mixed the two configurations' cells or failed with "device id 2 names
// no device" named PeerMemory::capability, a call the user never made (helper-164's audit).
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "host_fixture.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {
namespace {

/// Empty if `m` is all of one of the two configurations (3 linked host devices, 2 unlinked ones),
/// else what is wrong. `host`: the host ids of the larger one.
std::string check_matrix(const TopologyMatrix& m, const std::set<int>& host) {
  std::vector<std::size_t> rows;  // of host devices (CUDA devices, if any, come first)
  for (std::size_t i = 0; i < m.size(); ++i)
    if (host.contains(m.device_ids[i])) rows.push_back(i);
  if (rows.size() != 3 && rows.size() != 2) return std::to_string(rows.size()) + " host devices";
  const AccessType link = rows.size() == 3 ? AccessType::virtual_link : AccessType::host_routed;
  for (const std::size_t r : rows)
    for (const std::size_t c : rows)
      if (m.at(r, c).access != (r == c ? AccessType::same_device : link))
        return "a mix of two configurations:\n" + m.to_string();
  return {};
}

TEST(PeerQueryReconfigure, QueriesAnswerForOneConfiguration) {
  const test::RestoreHostConfig restore;
  const auto ids = test::use_host_devices(3, HostTopology::all);
  const std::set<int> host(ids.begin(), ids.end());
  PeerMemory peers;
  constexpr int reconfigurations = 2000;
  std::atomic<bool> stop{false};
  std::thread reconfigure([&] {
    for (int i = 1; i <= reconfigurations; ++i) {
      if (i % 2 != 0) test::use_host_devices(2, HostTopology::none);
      else test::use_host_devices(3, HostTopology::all);
    }
    stop.store(true);
  });
  long queries = 0;
  std::vector<std::string> wrong;
  while (!stop.load() && wrong.size() < 10) {
    try {
      // ids[0] and ids[1] name host devices in both configurations.
      const auto c = peers.capability(ids[0], ids[1]);
      if (!(c.access == AccessType::virtual_link && c.performance_rank == 1) &&
          !(c.access == AccessType::host_routed && c.performance_rank == 100))
        wrong.push_back(std::string("capability: ") + to_string(c.access) + ", rank " +
                        std::to_string(c.performance_rank));
      (void)peers.can_access_peer(ids[0], ids[1]);
      if (const auto problem = check_matrix(peers.topology(), host); !problem.empty())
        wrong.push_back("topology: " + problem);
      ++queries;
    } catch (const Error& e) {  // every id queried names a device in both configurations
      wrong.push_back(e.what());
    }
  }
  stop.store(true);
  reconfigure.join();
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " wrong answers in " << queries << " rounds, the first: "
                             << wrong.front();
}

}  // namespace
}  // namespace ringkernel
