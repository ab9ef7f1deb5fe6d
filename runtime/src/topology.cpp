// Copyright RingKernel authors.
// Pair capabilities (detected by the backend, figures measured or estimated) and the printable
// topology matrix.
#include "ringkernel/topology.h"

#include <cstddef>
#include <iomanip>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <vector>

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

struct PairCapability {
  PeerCapability capability;
  std::optional<CopyPath> path;  // a copy's path now (whose measurement counts); none: two backends
};

/// The pair's capability with estimated figures. `s` and `d` come from one lookup (one snapshot of
/// the registry): two host devices are of one configuration, so different backends are truly two
/// backends (CUDA and host), not a configure_host_backend() of another thread in between.
PairCapability capability_of(const detail::DeviceRef& s, const detail::DeviceRef& d) {
  PairCapability p;
  auto& c = p.capability;
  c.src = s.id;
  c.dst = d.id;
  if (s.backend != d.backend) return p;  // access none, rank -1, zero figures
  if (s.id == d.id) {
    c.access = AccessType::same_device;
    c.native_atomics = true;
    c.performance_rank = 0;
    p.path = CopyPath::same_device;
  } else {
    const auto link = s.backend->link(s.ordinal, d.ordinal);
    c.access = link.access;
    c.peer_access_supported = link.peer_access_supported;
    c.peer_access_enabled = s.backend->peer_access_enabled(s.ordinal, d.ordinal);
    c.native_atomics = link.native_atomics;
    c.performance_rank = link.peer_access_supported ? 1 + link.backend_rank : 100;
    // Peer access enabled in either direction: copies go direct.
    p.path = c.peer_access_enabled || s.backend->peer_access_enabled(d.ordinal, s.ordinal) ? CopyPath::direct_peer
                                                                                          : CopyPath::host_staged;
  }
  estimate(s.backend->kind(), c.access, c);
  return p;
}

/// The measurement of the path a copy takes now, unless it was of devices these ids named before
/// a host reconfiguration (PeerMemory::measured_, its mutex held; a template: Measured is private).
template <class Table>
void use_measured(PairCapability& p, const std::shared_ptr<detail::DeviceBackend>& backend, const Table& measured) {
  if (!p.path) return;
  auto& c = p.capability;
  if (const auto it = measured.find({c.src, c.dst, *p.path});
      it != measured.end() && it->second.backend.lock() == backend) {
    c.bandwidth_gbps = Figure{it->second.figures.bandwidth_gbps, true};
    c.latency_us = Figure{it->second.figures.latency_us, true};
  }
}

}  // namespace

PeerCapability PeerMemory::capability(int src, int dst) const {
  const auto [s, d] = detail::Registry::instance().resolve_pair(src, dst, "PeerMemory::capability");
  auto p = capability_of(s, d);
  std::lock_guard lock(mutex_);
  use_measured(p, s.backend, measured_);
  return p.capability;
}

// One snapshot of the devices for every cell: looked up cell by cell, a configure_host_backend()
// of another thread mixed two configurations, or failed on an id the new one lacks.
TopologyMatrix PeerMemory::topology() const {
  const auto refs = detail::Registry::instance().all();
  TopologyMatrix m;
  std::vector<PairCapability> pairs;
  for (const auto& ref : refs) m.device_ids.push_back(ref.id);
  for (const auto& s : refs)
    for (const auto& d : refs) pairs.push_back(capability_of(s, d));
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    use_measured(pairs[i], refs[i / refs.size()].backend, measured_);
    m.cells.push_back(pairs[i].capability);
  }
  return m;
}

}  // namespace ringkernel
