// Copyright RingKernel authors.
// Configuration of the host backend: virtual devices in host memory with a configurable peer
// topology, so that every code path above the backend (direct peer copies and host-staged
// fallbacks) runs on machines without a GPU. See docs/runtime.md.
//
// Environment (read once, when the device registry is first used):
//   RINGKERNEL_HOST_DEVICES   number of virtual devices (0..64, default 2; 0 disables the backend)
//   RINGKERNEL_HOST_TOPOLOGY  "all" (default) | "none" | pairs "0-1,2-3" (host ordinals, undirected)
//   RINGKERNEL_HOST_MEMORY    memory per virtual device, bytes with optional K/M/G suffix (default 8G)
//   RINGKERNEL_HOST_NATIVE_ATOMICS  "1" (default) | "0": "0" models a machine whose links have no
//                             native atomics (see HostBackendConfig::native_atomics)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ringkernel {

enum class HostTopology { all, none, pairs };

struct HostBackendConfig {
  int device_count = 2;
  HostTopology topology = HostTopology::all;
  // host ordinals, used when topology == pairs. `{}` lets designated initializers leave it out
  // under -Wextra (-Wmissing-field-initializers).
  std::vector<std::pair<int, int>> pairs{};
  std::size_t memory_per_device = std::size_t{8} << 30;
  /// Virtual devices report host-native atomics and their direct links native peer atomics
  /// (false models a PCIe machine: Capability::host_native_atomics unset,
  /// PeerCapability::native_atomics false on every link). A device's own memory
  /// (PeerMemory::capability(d, d)) stays native either way.
  bool native_atomics = true;

  /// True if the topology gives a direct link between host ordinals a and b (a != b).
  bool linked(int a, int b) const noexcept;

  /// Parse the environment variables above; Error(errc::configuration) names the variable and
  /// the offending text. Unset variables keep their defaults.
  static HostBackendConfig from_environment();
  /// Parse the textual forms (same grammar as the environment variables; empty keeps the
  /// default).
  static HostBackendConfig parse(std::string_view devices, std::string_view topology,
                                 std::string_view memory = {},
                                 std::string_view native_atomics = {});
  /// "4 devices, topology 0-1,2-3, 8192 MiB each" (", no native atomics" appended when
  /// native_atomics is false).
  std::string describe() const;
};

/// Replace the host backend's configuration. Host device ids are renumbered; buffers, streams
/// and events created before stay valid and keep using the old virtual devices, but old host
/// device ids no longer name them: a stream copies on its own old device, but PeerMemory refuses
/// peer copies of the old objects, and synchronize_all_devices() does not wait for old streams.
/// Throws Error(errc::configuration) for an invalid config.
void configure_host_backend(const HostBackendConfig& config);

/// The configuration in effect.
HostBackendConfig host_backend_config();

}  // namespace ringkernel
