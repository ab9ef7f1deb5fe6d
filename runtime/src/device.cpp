// Copyright RingKernel authors.
// devices(), selection helpers, device-wide synchronisation and wall-clock offsets over the registry.
#include "ringkernel/device.h"

#include <optional>
#include <string>

#include "registry.h"
#include "ringkernel/error.h"
#include "ringkernel/wall_clock_offset.h"

namespace ringkernel {

const char* to_string(Backend b) noexcept {
  switch (b) {
    case Backend::cuda: return "cuda";
    case Backend::host: return "host";
  }
  return "unknown";
}

std::string to_string(Capability c) {
  static constexpr struct {
    Capability flag;
    const char* name;
  } names[] = {{Capability::peer_to_peer, "peer-to-peer"},
               {Capability::unified_memory, "unified-memory"},
               {Capability::host_native_atomics, "host-native-atomics"},
               {Capability::cooperative_launch, "cooperative-launch"},
               {Capability::managed_memory, "managed-memory"}};
  std::string s;
  for (const auto& n : names) {
    if ((c & n.flag) != n.flag) continue;
    if (!s.empty()) s += '|';
    s += n.name;
  }
  return s.empty() ? "none" : s;
}

namespace {

// Every device, or one backend's: only the CUDA backend's alone is listed while a bad
// RINGKERNEL_HOST_* environment is pending (Registry::all).
std::vector<DeviceInfo> describe_all(std::optional<Backend> only) {
  std::vector<DeviceInfo> list;
  for (const auto& ref : detail::Registry::instance().all(only)) {
    DeviceInfo info = ref.backend->describe(ref.ordinal);
    info.id = ref.id;
    list.push_back(std::move(info));
  }
  return list;
}

}  // namespace

std::vector<DeviceInfo> devices() { return describe_all(std::nullopt); }

DeviceInfo device(int id) {
  const auto ref = detail::Registry::instance().resolve(id, "ringkernel::device");
  DeviceInfo info = ref.backend->describe(ref.ordinal);
  info.id = ref.id;
  return info;
}

DeviceInfo require_device(int id, std::string_view call, std::string_view role) {
  try {
    return device(id);
  } catch (const Error& e) {
    throw Error(e.code(), std::string(call), id, std::string(role) + ": " + e.detail());
  }
}

int device_count() { return detail::Registry::instance().device_count(); }

std::vector<DeviceInfo> select_devices(const DeviceRequirements& r) {
  std::vector<DeviceInfo> selected;
  for (auto& info : describe_all(r.backend)) {
    if (!info.has(r.capabilities)) continue;
    if (info.compute_units < r.min_compute_units) continue;
    if (info.total_memory < r.min_total_memory) continue;
    selected.push_back(std::move(info));
  }
  return selected;
}

std::vector<DeviceInfo> devices(Backend backend) {
  DeviceRequirements r;
  r.backend = backend;
  return select_devices(r);
}

std::vector<BackendStatus> backend_statuses() {
  std::vector<BackendStatus> list = detail::Registry::instance().statuses();
#if !defined(RINGKERNEL_HAS_CUDA_BACKEND)
  // runtime/CMakeLists.txt says why: the option turned CUDA off, or CMake found no CUDA compiler.
#if defined(RINGKERNEL_CUDA_DISABLED_BY_OPTION)
  constexpr const char* why = "not compiled in (RingKernel was configured with -DRINGKERNEL_ENABLE_CUDA=OFF)";
#else
  constexpr const char* why = "not compiled in (no CUDA compiler was found when RingKernel was configured)";
#endif
  list.insert(list.begin(), BackendStatus{Backend::cuda, false, 0, why});
#endif
  return list;
}

void synchronize_device(int id) {
  const auto ref = detail::Registry::instance().resolve(id, "ringkernel::synchronize_device");
  ref.backend->synchronize_device(ref.ordinal, ref.id);
}

void synchronize_all_devices() {
  for (const auto& ref : detail::Registry::instance().all())
    ref.backend->synchronize_device(ref.ordinal, ref.id);
}

WallClockOffset measure_wall_clock_offset(int id) {
  const auto ref = detail::Registry::instance().resolve(id, "ringkernel::measure_wall_clock_offset");
  return ref.backend->wall_clock_offset(ref.ordinal, ref.id);
}

}  // namespace ringkernel
