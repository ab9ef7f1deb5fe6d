// Copyright RingKernel authors.
#include "cuda_link_detection.h"

#include <dlfcn.h>

namespace ringkernel::detail {

namespace {

// The few NVML declarations needed (nvml.h is not part of the CUDA toolkit install here); the
// values are NVML's stable ABI: nvmlReturn_t NVML_SUCCESS = 0, NVML_P2P_CAPS_INDEX_NVLINK = 2,
// NVML_P2P_STATUS_OK = 0.
using nvml_return = int;
using nvml_device = struct nvml_device_opaque*;
constexpr nvml_return nvml_success = 0;
constexpr int nvml_p2p_caps_index_nvlink = 2;
constexpr int nvml_p2p_status_ok = 0;

using init_fn = nvml_return (*)();
using shutdown_fn = nvml_return (*)();
using handle_by_pci_fn = nvml_return (*)(const char*, nvml_device*);
using p2p_status_fn = nvml_return (*)(nvml_device, nvml_device, int, int*);

}  // namespace

NvlinkMatrix detect_nvlink(const std::vector<std::string>& pci_bus_ids) {
  NvlinkMatrix m;
  const std::size_t n = pci_bus_ids.size();
  m.nvlink.assign(n, std::vector<bool>(n, false));
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    m.note = "NVML (libnvidia-ml.so.1) not found; direct links are reported as PCIe";
    return m;
  }
  const auto init = reinterpret_cast<init_fn>(dlsym(lib, "nvmlInit_v2"));
  const auto shutdown = reinterpret_cast<shutdown_fn>(dlsym(lib, "nvmlShutdown"));
  const auto by_pci = reinterpret_cast<handle_by_pci_fn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  const auto p2p = reinterpret_cast<p2p_status_fn>(dlsym(lib, "nvmlDeviceGetP2PStatus"));
  if (!init || !shutdown || !by_pci || !p2p) {
    m.note = "NVML lacks nvmlDeviceGetP2PStatus; direct links are reported as PCIe";
    dlclose(lib);
    return m;
  }
  if (init() != nvml_success) {
    m.note = "nvmlInit failed; direct links are reported as PCIe";
    dlclose(lib);
    return m;
  }
  std::vector<nvml_device> handles(n, nullptr);
  bool all = true;
  for (std::size_t i = 0; i < n; ++i) all = all && by_pci(pci_bus_ids[i].c_str(), &handles[i]) == nvml_success;
  if (all) {
    m.available = true;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) {
        int status = -1;
        if (a != b && p2p(handles[a], handles[b], nvml_p2p_caps_index_nvlink, &status) == nvml_success)
          m.nvlink[a][b] = status == nvml_p2p_status_ok;
      }
  } else {
    m.note = "NVML does not know every CUDA device by PCI bus id; direct links are reported as PCIe";
  }
  shutdown();
  dlclose(lib);
  return m;
}

}  // namespace ringkernel::detail
