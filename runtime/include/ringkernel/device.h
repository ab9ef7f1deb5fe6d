// Copyright RingKernel authors.
// Device enumeration and selection (DESIGN.md §6). Device ids are global across backends: CUDA
// devices (if any) come first, then the host backend's virtual devices. Never assume a count or
// an order: select by backend, capabilities and compute units instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringkernel {

enum class Backend : std::uint8_t { cuda, host };
const char* to_string(Backend b) noexcept;

/// Capability flags of one device. Combine with | and test with DeviceInfo::has().
enum class Capability : std::uint32_t {
  none = 0,
  peer_to_peer = 1u << 0,         // can directly access at least one other device's memory
  unified_memory = 1u << 1,       // unified virtual addressing with the host
  host_native_atomics = 1u << 2,  // atomics on host-mapped memory are native (no emulation)
  cooperative_launch = 1u << 3,   // grid-wide synchronisation in kernels
  managed_memory = 1u << 4,       // managed (migratable) allocations
};
constexpr Capability operator|(Capability a, Capability b) noexcept {
  return static_cast<Capability>(static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b));
}
constexpr Capability operator&(Capability a, Capability b) noexcept {
  return static_cast<Capability>(static_cast<std::uint32_t>(a) & static_cast<std::uint32_t>(b));
}
constexpr Capability& operator|=(Capability& a, Capability b) noexcept { return a = a | b; }
/// "peer-to-peer|unified-memory" (or "none").
std::string to_string(Capability c);

struct DeviceInfo {
  int id = -1;                  // global id, the one every other API takes
  int ordinal = -1;             // id inside its backend (the CUDA device ordinal for cuda)
  Backend backend = Backend::host;
  std::string name;
  std::size_t total_memory = 0;  // bytes
  std::size_t free_memory = 0;   // bytes, at the time of the query; 0: unknown (a cuda device whose
                                 // context could not be had, e.g. exclusive-process and busy)
  int compute_units = 0;         // streaming multiprocessors (cuda); on host devices the machine's
                                 // std::thread::hardware_concurrency(), the same for every virtual
                                 // device whatever their count (min_compute_units selects on it)
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  std::string pci_bus_id;        // "0000:17:00.0"; empty for host devices
  Capability capabilities = Capability::none;

  bool has(Capability required) const noexcept { return (capabilities & required) == required; }
};

/// Every device of every backend. Never throws because a backend is missing: a machine without a
/// CUDA driver or GPU simply has no cuda devices (see backend_statuses() for why). A bad
/// RINGKERNEL_HOST_* environment is Error(errc::configuration) here, as in every call that needs a
/// host device (devices(Backend::cuda) lists the CUDA devices all the same).
std::vector<DeviceInfo> devices();

/// One device; Error(errc::invalid_device) if `id` names none.
DeviceInfo device(int id);

/// device(id) for a call that takes device ids: an error names `call` and says which of its ids
/// (`role`) was wrong, e.g. require_device(7, "MyPipeline", "source device") throws
/// "ringkernel: MyPipeline (device 7): invalid device: source device: device id 7 names no device
/// (valid ids are 0..3)"; the error's code is device(id)'s.
DeviceInfo require_device(int id, std::string_view call, std::string_view role);

/// Number of devices of all backends (a bad RINGKERNEL_HOST_* environment throws, as devices()).
int device_count();

struct DeviceRequirements {
  // `{}`: designated initializers may leave it out under -Wextra (-Wmissing-field-initializers).
  std::optional<Backend> backend{};             // any backend when empty
  Capability capabilities = Capability::none;   // all of these flags must be present
  int min_compute_units = 0;
  std::size_t min_total_memory = 0;
};

/// Devices meeting every requirement, in id order (possibly none). With backend == Backend::cuda it
/// does not throw a bad RINGKERNEL_HOST_* environment's error (it needs no host device); otherwise
/// it does, as devices().
std::vector<DeviceInfo> select_devices(const DeviceRequirements& requirements);
/// Devices of one backend (select_devices with only `backend` required).
std::vector<DeviceInfo> devices(Backend backend);

/// What each compiled-in backend found, for diagnostics (ringkernel-info prints it).
struct BackendStatus {
  Backend backend = Backend::host;
  bool available = false;  // the backend found a driver / is configured
  int device_count = 0;
  std::string note;        // e.g. "CUDA driver 13.0, runtime 13.0" or the reason there are no devices
};
std::vector<BackendStatus> backend_statuses();

/// Wait until all work on all streams of one device (or of every device) is done. Devices of the
/// current host configuration only: streams made before configure_host_backend() replaced it keep
/// their old virtual devices, which these no longer name; synchronize such a stream itself.
void synchronize_device(int id);
void synchronize_all_devices();

}  // namespace ringkernel
