// Copyright RingKernel authors.
#include "cuda_allocations.h"

#include <cudaTypedefs.h>  // PFN_cuMemGetAddressRange_v3020 (types only; libcuda is not linked)
#include <cuda_runtime_api.h>

#include <string>

#include "pointer_text.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

namespace {

// The start of the driver allocation that holds `p` (cuMemGetAddressRange, looked up through the
// runtime: libcuda is not linked), or 0 when the driver knows none or lacks the call. `ordinal`:
// the device whose memory `p` is taken to be (the allocation of the table next to it).
// cuMemGetAddressRange works in the calling thread's current context (CUDA_ERROR_INVALID_CONTEXT
// without one, cuda.h), and a thread that made no CUDA call yet has none: the device is made
// current for the call as the backend's DeviceGuard does, and where the thread's current device
// already is `ordinal` but no context is bound yet, cudaSetDevice binds its primary context ("the
// context will be current on device immediately", its documentation) and the call is retried.
// The thread's current device is restored after.
std::uintptr_t driver_block_start(const void* p, int ordinal) noexcept {
  static const PFN_cuMemGetAddressRange_v3020 get_range = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &f, 3020, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      return static_cast<PFN_cuMemGetAddressRange_v3020>(nullptr);
    }
    return reinterpret_cast<PFN_cuMemGetAddressRange_v3020>(f);
  }();
  if (!get_range) return 0;
  int previous = -1;
  if (cudaGetDevice(&previous) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  const bool switched = previous != ordinal;
  if (switched && cudaSetDevice(ordinal) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  CUdeviceptr base = 0;
  std::size_t size = 0;
  const auto address = reinterpret_cast<CUdeviceptr>(p);
  CUresult got = get_range(&base, &size, address);
  if (got == CUDA_ERROR_INVALID_CONTEXT && !switched) {
    if (cudaSetDevice(ordinal) == cudaSuccess) got = get_range(&base, &size, address);
    else (void)cudaGetLastError();
  }
  if (switched && cudaSetDevice(previous) != cudaSuccess) (void)cudaGetLastError();
  return got == CUDA_SUCCESS ? static_cast<std::uintptr_t>(base) : 0;
}

// The device whose memory the driver says `p` is, or -1 (host memory, or unknown to CUDA).
int driver_device_of(const void* p) noexcept {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return attr.type == cudaMemoryTypeDevice ? attr.device : -1;
}

// `address` is one past the end of [start, end) and another block starts there. cudaMalloc places
// blocks back to back, 256-byte aligned (CUDA Best Practices Guide), so an aligned end may also
// start a block of the program's own: the driver's allocation table says which (an overrun into the
// allocation's padding stays an error). Other ends are not asked about here; check_range refuses a
// range that starts in a block's padding.
bool starts_another_block(std::uintptr_t start, std::uintptr_t end, std::uintptr_t address, int ordinal) noexcept {
  return address == end && address != start && address % 256 == 0 &&
         driver_block_start(reinterpret_cast<const void*>(address), ordinal) == address;
}

// `address` lies past the end of [start, end) in the rest of its block: before the next 256-byte
// boundary (no other block can start or lie there), or where the driver says the block still runs.
bool in_padding_of(std::uintptr_t start, std::uintptr_t end, std::uintptr_t address, int ordinal) noexcept {
  if (address <= end) return false;
  return address < (end + 255) / 256 * 256 ||
         driver_block_start(reinterpret_cast<const void*>(address), ordinal) == start;
}

}  // namespace

void CudaAllocations::add(const void* p, int ordinal, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  allocations_[reinterpret_cast<std::uintptr_t>(p)] = {ordinal, bytes};
}

void CudaAllocations::remove(const void* p) noexcept {
  std::lock_guard lock(mutex_);
  allocations_.erase(reinterpret_cast<std::uintptr_t>(p));
}

std::optional<CudaAllocations::Found> CudaAllocations::nearest_below(const void* p) const {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  return Found{it->first, it->second.ordinal, it->second.bytes};
}

std::optional<CudaAllocations::Found> CudaAllocations::find(const void* p) const {
  const auto a = nearest_below(p);
  if (!a) return std::nullopt;
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t end = a->start + a->bytes;
  if (address > end || starts_another_block(a->start, end, address, a->ordinal)) return std::nullopt;
  return a;
}

int CudaAllocations::owner_of(const void* p) const noexcept {
  if (const auto a = find(p)) return a->ordinal;
  return driver_device_of(p);  // not RingKernel's
}

void CudaAllocations::check_range(int ordinal, const void* p, std::size_t bytes, const char* call,
                                  const char* what, int device_id) const {
  if (!p) throw Error(errc::invalid_argument, call, device_id, std::string(what) + " is null");
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  if (const auto a = find(p)) {
    if (a->ordinal != ordinal)
      throw Error(errc::invalid_argument, call, device_id,
                  std::string(what) + " " + hex(p) + " is memory of device " + std::to_string(a->ordinal) +
                      ", not of device " + std::to_string(device_id));
    const std::size_t offset = address - a->start;
    if (bytes > a->bytes - offset)
      throw Error(errc::out_of_range, call, device_id,
                  std::string(what) + " range [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                      std::to_string(bytes) + ") exceeds its allocation of " + std::to_string(a->bytes) + " bytes");
    return;
  }
  // Past the end of one of ours, in its block's padding: an overrun, which the driver would take
  // for valid memory of the device.
  if (const auto below = nearest_below(p);
      below && in_padding_of(below->start, below->start + below->bytes, address, below->ordinal)) {
    throw Error(errc::out_of_range, call, device_id,
                std::string(what) + " " + hex(p) + " starts " + std::to_string(address - below->start - below->bytes) +
                    " bytes past the end of its allocation of " + std::to_string(below->bytes) + " bytes");
  }
  // Memory not allocated through RingKernel: the driver can say where it lives, not its size.
  if (driver_device_of(p) != ordinal)
    throw Error(errc::invalid_argument, call, device_id,
                std::string(what) + " " + hex(p) + " is not memory of device " + std::to_string(device_id));
}

}  // namespace ringkernel::detail
