// Copyright RingKernel authors.
// Peer-to-peer capability of a device pair and the topology matrix of all devices.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace ringkernel {

/// How device `src` reaches memory of device `dst`.
enum class AccessType {
  same_device,   // src == dst
  nvlink,        // direct peer access over NVLink (detected through NVML)
  pcie,          // direct peer access over PCIe (peer access supported, no NVLink reported)
  virtual_link,  // host backend: direct peer access emulated in host memory (topology says linked)
  host_routed,   // no peer access: copies are staged through pinned host memory
  none,          // no path at all (devices of different backends)
};
const char* to_string(AccessType a) noexcept;
/// Two/three-letter code used in the printed matrix: X, NV, PCI, VL, HR, --.
const char* matrix_code(AccessType a) noexcept;

/// A bandwidth or latency figure and where it comes from.
struct Figure {
  double value = 0.0;
  bool measured = false;  // false: a nominal estimate for the access type (see docs/runtime.md)
};

struct PeerCapability {
  int src = -1;
  int dst = -1;
  AccessType access = AccessType::none;
  bool peer_access_supported = false;  // enable_peer_access(src, dst) can succeed
  bool peer_access_enabled = false;    // it is enabled now
  bool native_atomics = false;         // atomics on the peer's memory are native over the link
  /// Relative rank, lower is faster: 0 same device, 1 + backend rank for direct links,
  /// 100 host-routed, -1 none.
  int performance_rank = -1;
  Figure bandwidth_gbps;  // GB/s (1e9 bytes per second), one direction
  Figure latency_us;      // microseconds for a small copy
};

struct TopologyMatrix {
  std::vector<int> device_ids;        // row/column order
  std::vector<PeerCapability> cells;  // row-major, device_ids.size() squared

  std::size_t size() const noexcept { return device_ids.size(); }
  const PeerCapability& at(std::size_t row, std::size_t column) const;
  /// The access-type matrix in the style of `nvidia-smi topo -p2p`, a legend, and an
  /// "enabled" matrix; rows are sources, columns destinations.
  std::string to_string() const;
};
std::ostream& operator<<(std::ostream& os, const TopologyMatrix& m);

}  // namespace ringkernel
