// Copyright RingKernel authors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/buffers.h"
#include "ringkernel/error.h"
#include "ringkernel/topology.h"
#include "ringkernel/wall_clock_offset.h"

namespace ringkernel {
namespace {

TEST(Devices, HostDevicesAreEnumeratedWithIdsAndCapabilities) {
  const auto ids = test::use_host_devices(3, HostTopology::pairs, {{0, 1}});
  ASSERT_EQ(ids.size(), 3u);
  const auto all = devices();
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].id, static_cast<int>(i));
  const auto d0 = device(ids[0]);
  EXPECT_EQ(d0.backend, Backend::host);
  EXPECT_EQ(d0.ordinal, 0);
  EXPECT_GT(d0.compute_units, 0);
  EXPECT_TRUE(d0.has(Capability::peer_to_peer | Capability::unified_memory));
  EXPECT_FALSE(device(ids[2]).has(Capability::peer_to_peer));  // not in any pair
  EXPECT_EQ(to_string(d0.capabilities), "peer-to-peer|unified-memory|host-native-atomics|managed-memory");
}

TEST(Devices, SelectionByBackendCapabilitiesAndComputeUnits) {
  const auto ids = test::use_host_devices(3, HostTopology::pairs, {{1, 2}});
  DeviceRequirements r;
  r.backend = Backend::host;
  r.capabilities = Capability::peer_to_peer;
  const auto p2p = select_devices(r);
  ASSERT_EQ(p2p.size(), 2u);
  EXPECT_EQ(p2p[0].id, ids[1]);
  EXPECT_EQ(p2p[1].id, ids[2]);
  r.min_compute_units = 1 << 20;
  EXPECT_TRUE(select_devices(r).empty());
  EXPECT_EQ(devices(Backend::host).size(), 3u);
  for (const auto& d : devices(Backend::cuda)) EXPECT_EQ(d.backend, Backend::cuda);
}

// min_total_memory is a lower bound on DeviceInfo::total_memory: a device with exactly that much
// is selected, one byte more selects none.
TEST(Devices, SelectByMemory) {
  const test::RestoreHostConfig restore;
  HostBackendConfig config;
  config.device_count = 3;
  config.memory_per_device = std::size_t{1} << 20;
  configure_host_backend(config);
  const auto ids = test::host_device_ids();
  DeviceRequirements r;
  r.backend = Backend::host;
  r.min_total_memory = (std::size_t{1} << 20) + 1;
  EXPECT_TRUE(select_devices(r).empty());
  r.min_total_memory = std::size_t{1} << 20;
  const auto all = select_devices(r);
  ASSERT_EQ(all.size(), 3u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].id, ids[i]);
    EXPECT_EQ(all[i].total_memory, std::size_t{1} << 20);
  }
  r.backend.reset();  // any backend: host devices have 1 MiB, a GPU more
  for (const auto& d : select_devices(r)) EXPECT_GE(d.total_memory, std::size_t{1} << 20);
}

// With no devices at all (no host devices configured, no CUDA device), an id names none and the
// message says there are none (not "valid ids are 0..-1").
TEST(Devices, NoDevicesAtAllSaysSo) {
  const test::RestoreHostConfig restore;
  test::use_host_devices(0, HostTopology::none);
  if (!devices(Backend::cuda).empty()) {
    GTEST_SKIP() << "CUDA devices exist: the registry is never without devices";
  }
  EXPECT_TRUE(devices().empty());
  EXPECT_EQ(device_count(), 0);
  for (const int id : {0, 1, -1})
    EXPECT_RK_ERROR(device(id), errc::invalid_device,
                    "device id " + std::to_string(id) + " names no device (there are no devices)");
  EXPECT_RK_ERROR(DeviceBuffer(0, 16), errc::invalid_device, "names no device (there are no devices)");
}

TEST(Devices, InvalidIdIsAClearError) {
  test::use_host_devices(2, HostTopology::all);
  const int n = device_count();
  try {
    device(n);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_device);
    EXPECT_EQ(e.device(), n);
    EXPECT_NE(std::string(e.what()).find("device id " + std::to_string(n) + " names no device (valid ids are 0.." +
                                         std::to_string(n - 1) + ")"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(device(-1), Error);
  EXPECT_THROW(DeviceBuffer(-3, 16), Error);
  EXPECT_THROW(synchronize_device(n + 7), Error);
}

TEST(Devices, RequireDeviceNamesTheCallAndTheRoleOfTheId) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  EXPECT_EQ(require_device(ids[1], "MyPipeline", "source device").id, ids[1]);
  const int n = device_count();
  try {
    (void)require_device(n, "MyPipeline", "source device");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_device);
    EXPECT_EQ(e.call(), "MyPipeline");
    EXPECT_EQ(e.device(), n);
    EXPECT_EQ(e.detail(), "source device: device id " + std::to_string(n) + " names no device (valid ids are 0.." +
                              std::to_string(n - 1) + ")");
  }
  EXPECT_RK_ERROR((void)require_device(-2, "MyPipeline", "sink"), errc::invalid_device,
                  "ringkernel: MyPipeline (device -2): invalid device: sink: device id -2 names no device");
}

// A host device's kernels are host threads, which read the host's own clock: nothing to measure.
TEST(Devices, HostDevicesHaveNoWallClockOffset) {
  const auto ids = test::use_host_devices(2, HostTopology::all);
  for (const int id : ids) {
    const WallClockOffset o = measure_wall_clock_offset(id);
    EXPECT_EQ(o.offset_us, 0) << "device " << id;
    EXPECT_EQ(o.uncertainty_us, 0u) << "device " << id;
  }
  EXPECT_RK_ERROR(measure_wall_clock_offset(device_count()), errc::invalid_device,
                  "ringkernel::measure_wall_clock_offset");
  EXPECT_RK_ERROR(measure_wall_clock_offset(-1), errc::invalid_device, "names no device");
}

TEST(Devices, FreeMemoryTracksAllocationsAndCapacityIsEnforced) {
  const test::RestoreHostConfig restore;
  HostBackendConfig c;
  c.device_count = 1;
  c.memory_per_device = 1 << 20;
  configure_host_backend(c);
  const int id = devices(Backend::host).at(0).id;
  {
    DeviceBuffer b(id, 1000);
    EXPECT_EQ(device(id).free_memory, (1u << 20) - 1000);
    try {
      DeviceBuffer too_big(id, 1 << 20);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::out_of_memory);
      EXPECT_NE(std::string(e.what()).find("cannot allocate 1048576 bytes"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(device(id).free_memory, 1u << 20);
}

TEST(Devices, BackendStatusesListEveryBackend) {
  test::use_host_devices(2, HostTopology::all);
  const auto s = backend_statuses();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].backend, Backend::cuda);
  EXPECT_EQ(s[1].backend, Backend::host);
  EXPECT_EQ(s[1].device_count, 2);
  EXPECT_FALSE(s[0].note.empty());
}

// TopologyMatrix is a plain struct: one with fewer cells than device ids squared (ids dropped from
// a copy, say) was read past the end of its cells by at() and to_string().
TEST(Devices, TopologyMatrixWithTooFewCellsIsAnError) {
  TopologyMatrix m;
  m.device_ids = {0, 1};
  m.cells.resize(3);
  EXPECT_THROW((void)m.at(1, 1), Error);
  EXPECT_THROW((void)m.to_string(), Error);
  m.cells.resize(4);
  EXPECT_NO_THROW((void)m.at(1, 1));
}

}  // namespace
// The name of every errc (as Error::what() spells it), and "unknown error" for a value past them.
TEST(Names, EveryErrorCodeHasItsName) {
  const std::pair<errc, const char*> names[] = {{errc::invalid_device, "invalid device"},
                                                {errc::invalid_argument, "invalid argument"},
                                                {errc::out_of_range, "out of range"},
                                                {errc::overlapping_ranges, "overlapping ranges"},
                                                {errc::unsupported, "unsupported"},
                                                {errc::peer_access_unsupported, "peer access unsupported"},
                                                {errc::invalid_state, "invalid state"},
                                                {errc::out_of_memory, "out of memory"},
                                                {errc::backend_failure, "backend failure"},
                                                {errc::configuration, "bad configuration"},
                                                {static_cast<errc>(10), "unknown error"},
                                                {static_cast<errc>(-1), "unknown error"}};
  for (const auto& [code, name] : names) EXPECT_STREQ(to_string(code), name) << static_cast<int>(code);
  EXPECT_STREQ(Error(errc::backend_failure, "f", 3, "why").what(), "ringkernel: f (device 3): backend failure: why");
}

// The name and the topology matrix's code of every AccessType, and "unknown" / "?" past them.
TEST(Names, EveryAccessTypeHasItsNameAndMatrixCode) {
  const struct {
    AccessType access;
    const char* name;
    const char* code;
  } names[] = {{AccessType::same_device, "same device", "X"},  {AccessType::nvlink, "NVLink", "NV"},
               {AccessType::pcie, "PCIe", "PCI"},               {AccessType::virtual_link, "virtual link", "VL"},
               {AccessType::host_routed, "host-routed", "HR"},  {AccessType::none, "none", "--"},
               {static_cast<AccessType>(6), "unknown", "?"}};
  for (const auto& n : names) {
    EXPECT_STREQ(to_string(n.access), n.name) << static_cast<int>(n.access);
    EXPECT_STREQ(matrix_code(n.access), n.code) << static_cast<int>(n.access);
  }
}

// Capability flags by name, "|" between them in declaration order; no flag is "none", and bits
// that name no flag are left out.
TEST(Names, CapabilitiesAreNamedFlagByFlag) {
  EXPECT_EQ(to_string(Capability::none), "none");
  EXPECT_EQ(to_string(Capability::peer_to_peer), "peer-to-peer");
  EXPECT_EQ(to_string(Capability::unified_memory), "unified-memory");
  EXPECT_EQ(to_string(Capability::host_native_atomics), "host-native-atomics");
  EXPECT_EQ(to_string(Capability::cooperative_launch), "cooperative-launch");
  EXPECT_EQ(to_string(Capability::managed_memory), "managed-memory");
  EXPECT_EQ(to_string(Capability::managed_memory | Capability::peer_to_peer | Capability::cooperative_launch),
            "peer-to-peer|cooperative-launch|managed-memory");
  EXPECT_EQ(to_string(static_cast<Capability>(1u << 5)), "none");
  EXPECT_EQ(to_string(static_cast<Capability>((1u << 31) | 1u)), "peer-to-peer");
}

}  // namespace ringkernel
