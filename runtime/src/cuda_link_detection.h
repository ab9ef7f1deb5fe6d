// Copyright RingKernel authors.
// NVLink detection through NVML, loaded at run time (libnvidia-ml.so.1 ships with the driver, so
// no link-time dependency): the CUDA runtime says whether two devices can access each other, NVML
// says whether that access goes over NVLink.
#pragma once

#include <string>
#include <vector>

namespace ringkernel::detail {

struct NvlinkMatrix {
  bool available = false;                // NVML loaded and answered
  std::string note;                      // why not, when unavailable
  std::vector<std::vector<bool>> nvlink; // [a][b]: NVML reports an NVLink P2P path
};

/// `pci_bus_ids` in CUDA order (cudaDeviceGetPCIBusId form).
NvlinkMatrix detect_nvlink(const std::vector<std::string>& pci_bus_ids);

}  // namespace ringkernel::detail
