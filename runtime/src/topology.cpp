// Copyright RingKernel authors.
// Pair capabilities (detected by the backend, figures measured or estimated) and the printable
// topology matrix.
#include "ringkernel/topology.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "registry.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {

const char* to_string(AccessType a) noexcept {
  switch (a) {
    case AccessType::same_device: return "same device";
    case AccessType::nvlink: return "NVLink";
    case AccessType::pcie: return "PCIe";
    case AccessType::virtual_link: return "virtual link";
    case AccessType::host_routed: return "host-routed";
    case AccessType::none: return "none";
  }
  return "unknown";
}

const char* matrix_code(AccessType a) noexcept {
  switch (a) {
    case AccessType::same_device: return "X";
    case AccessType::nvlink: return "NV";
    case AccessType::pcie: return "PCI";
    case AccessType::virtual_link: return "VL";
    case AccessType::host_routed: return "HR";
    case AccessType::none: return "--";
  }
  return "?";
}

const PeerCapability& TopologyMatrix::at(std::size_t row, std::size_t column) const {
  if (row >= size() || column >= size())
    throw Error(errc::out_of_range, "TopologyMatrix::at", no_device,
                "cell (" + std::to_string(row) + ", " + std::to_string(column) + ") of a " +
                    std::to_string(size()) + "x" + std::to_string(size()) + " matrix");
  // The fields are public: a matrix put together by hand may have too few cells.
  if (cells.size() != size() * size())
    throw Error(errc::invalid_state, "TopologyMatrix::at", no_device,
                std::to_string(cells.size()) + " cells for " + std::to_string(size()) +
                    " device ids (needs " + std::to_string(size() * size()) + ")");
  return cells[row * size() + column];
}

std::string TopologyMatrix::to_string() const {
  std::ostringstream os;
  const auto label = [](int id) { return "DEV" + std::to_string(id); };
  os << "P2P access matrix (rows: source, columns: destination; * = peer access enabled)\n";
  os << std::left << std::setw(8) << "";
  for (int id : device_ids) os << std::setw(8) << label(id);
  os << '\n';
  for (std::size_t r = 0; r < size(); ++r) {
    os << std::setw(8) << label(device_ids[r]);
    for (std::size_t c = 0; c < size(); ++c) {
      const auto& cell = at(r, c);
      std::string code = matrix_code(cell.access);
      if (cell.peer_access_enabled) code += '*';
      os << std::setw(8) << code;
    }
    os << '\n';
  }
  os << "Legend:\n"
        "  X   = same device\n"
        "  NV  = peer access over NVLink\n"
        "  PCI = peer access over PCIe\n"
        "  VL  = virtual peer link (host backend topology)\n"
        "  HR  = no peer access: copies are staged through pinned host memory\n"
        "  --  = no path (devices of different backends)\n";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const TopologyMatrix& m) { return os << m.to_string(); }

namespace {

/// Nominal figures used when nothing was measured (Figure::measured == false); see docs/runtime.md.
void estimate(Backend backend, AccessType access, PeerCapability& c) {
  struct Nominal {
    double gbps;
    double us;
  };
  Nominal n{0.0, 0.0};
  if (backend == Backend::cuda) {
    switch (access) {
      case AccessType::same_device: n = {1000.0, 2.0}; break;
      case AccessType::nvlink: n = {300.0, 3.0}; break;
      case AccessType::pcie: n = {25.0, 5.0}; break;
      case AccessType::host_routed: n = {10.0, 10.0}; break;
      default: break;
    }
  } else {
    switch (access) {
      case AccessType::same_device:
      case AccessType::virtual_link: n = {5.0, 5.0}; break;
      case AccessType::host_routed: n = {2.5, 15.0}; break;
      default: break;
    }
  }
  c.bandwidth_gbps = Figure{n.gbps, false};
  c.latency_us = Figure{n.us, false};
}

}  // namespace

PeerCapability PeerMemory::capability(int src, int dst) const {
  constexpr const char* call = "PeerMemory::capability";
  const auto s = detail::Registry::instance().resolve(src, call);
  const auto d = detail::Registry::instance().resolve(dst, call);
  PeerCapability c;
  c.src = src;
  c.dst = dst;
  if (s.backend != d.backend) return c;  // access none, rank -1, zero figures
  if (src == dst) {
    c.access = AccessType::same_device;
    c.native_atomics = true;
    c.performance_rank = 0;
  } else {
    const auto link = s.backend->link(s.ordinal, d.ordinal);
    c.access = link.access;
    c.peer_access_supported = link.peer_access_supported;
    c.peer_access_enabled = s.backend->peer_access_enabled(s.ordinal, d.ordinal);
    c.native_atomics = link.native_atomics;
    c.performance_rank = link.peer_access_supported ? 1 + link.backend_rank : 100;
  }
  estimate(s.backend->kind(), c.access, c);
  std::lock_guard lock(mutex_);
  // The measurement of the path a copy takes now (peer access enabled in either direction or
  // not), unless it was of devices these ids named before a host reconfiguration.
  const CopyPath path = src == dst ? CopyPath::same_device
                        : c.peer_access_enabled || s.backend->peer_access_enabled(d.ordinal, s.ordinal)
                            ? CopyPath::direct_peer
                            : CopyPath::host_staged;
  if (const auto it = measured_.find({src, dst, path});
      it != measured_.end() && it->second.backend.lock() == s.backend) {
    c.bandwidth_gbps = Figure{it->second.figures.bandwidth_gbps, true};
    c.latency_us = Figure{it->second.figures.latency_us, true};
  }
  return c;
}

TopologyMatrix PeerMemory::topology() const {
  TopologyMatrix m;
  for (const auto& ref : detail::Registry::instance().all()) m.device_ids.push_back(ref.id);
  for (int src : m.device_ids)
    for (int dst : m.device_ids) m.cells.push_back(capability(src, dst));
  return m;
}

}  // namespace ringkernel
