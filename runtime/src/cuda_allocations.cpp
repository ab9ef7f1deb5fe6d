// Copyright RingKernel authors.
#include "cuda_allocations.h"

#include <cuda_runtime_api.h>

#include <new>  // std::nothrow
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>  // sysconf
#endif

#include "cuda_call.h"
#include "cuda_driver_entry.h"
#include "host_range_errors.h"
#include "pointer_text.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

namespace {

// The start of the driver allocation that holds `p` (cuMemGetAddressRange, looked up through the
// runtime: cuda_driver_entry.h), or 0 when the driver knows none or lacks the call. `ordinal`: the
// device whose memory `p` is taken to be (the allocation of the table next to it).
// cuMemGetAddressRange works in the calling thread's current context (CUDA_ERROR_INVALID_CONTEXT
// without one, cuda.h), and a thread that made no CUDA call yet has none: the device's context is
// made current for the call (the backend's DeviceGuard, which binds it also where the thread's
// current device already is `ordinal` but no context is bound, and leaves the thread as it found it).
std::uintptr_t driver_block_start(const void* p, int ordinal) noexcept {
  static const auto get_range =
      cuda_driver::entry_point<PFN_cuMemGetAddressRange_v3020>("cuMemGetAddressRange", 3020);
  if (!get_range) return 0;
  cuda_call::DeviceGuard guard(ordinal, std::nothrow);
  if (!guard.current()) return 0;
  CUdeviceptr base = 0;
  std::size_t size = 0;
  const auto address = reinterpret_cast<CUdeviceptr>(p);
  return get_range(&base, &size, address) == CUDA_SUCCESS ? static_cast<std::uintptr_t>(base) : 0;
}

// The device whose memory the driver says `p` is, or -1 (host memory, managed memory, or unknown to
// CUDA). Asked of the driver (cuPointerGetAttributes), which binds no context: copies call this for
// every address of theirs not in the table (host memory, foreign device memory), from any thread,
// and in a thread with no context bound a runtime call that needs one binds and initialises the
// primary context of the thread's current device (0 unless it chose another: cuda_call.h's
// ContextScope); whether cudaPointerGetAttributes counts as one is not documented. The attributes
// asked for are the pointer's own (its allocation's device, not a context-relative address), and an
// address CUDA does not know gets them zeroed with CUDA_SUCCESS (cuda.h). Where the driver's call
// cannot be looked up, or fails (it documents CUDA_ERROR_INVALID_CONTEXT, without saying when a
// known pointer gets it), the runtime's.
int driver_device_of(const void* p) noexcept {
  static const auto get_attributes =
      cuda_driver::entry_point<PFN_cuPointerGetAttributes_v7000>("cuPointerGetAttributes", 7000);
  if (get_attributes) {
    unsigned int type = 0, managed = 0;
    int device = -1;
    CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void* data[] = {&type, &managed, &device};
    if (get_attributes(3, attributes, data, reinterpret_cast<CUdeviceptr>(p)) == CUDA_SUCCESS)
      return type == CU_MEMORYTYPE_DEVICE && managed == 0 ? device : -1;
  }
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return attr.type == cudaMemoryTypeDevice ? attr.device : -1;
}

// The aligned regions device memory is mapped in (Driver::device_region_bytes): UVA reserves device
// memory's addresses in the process's address space in chunks of 2 MiB (an H200 with driver 13.0
// knew nothing of the bytes past a block of 2 MiB + 100 bytes up to 4 MiB: the rest of its chunk),
// never less than a host page, so no host memory can lie in such a region beside device memory.
std::size_t device_region_bytes() noexcept {
  std::size_t page = 4096;  // the smallest in use, where the system cannot say
#if defined(__unix__) || defined(__APPLE__)
  if (const long p = sysconf(_SC_PAGESIZE); p > 0) page = static_cast<std::size_t>(p);
#endif
  constexpr std::size_t chunk = std::size_t{2} << 20;
  return page > chunk ? page : chunk;
}

}  // namespace

CudaAllocations::CudaAllocations() : driver_{driver_device_of, driver_block_start, device_region_bytes()} {}

// cudaMalloc places blocks back to back, 256-byte aligned (CUDA Best Practices Guide), so an aligned
// end may also start a block of the program's own: the driver's allocation table says which (an
// overrun into the allocation's padding stays an error). Other ends are not asked about here;
// owner_of and check_range take an address that starts in a block's padding for an overrun.
bool CudaAllocations::starts_another_block(std::uintptr_t start, std::uintptr_t end, std::uintptr_t address,
                                           int ordinal) const noexcept {
  return address == end && address != start && address % 256 == 0 &&
         driver_.block_start(reinterpret_cast<const void*>(address), ordinal) == address;
}

// `device`: what the driver says of `address` (driver_.device_of). Before the next
// 256-byte boundary, always (no other block can start or lie there). Further on, where the driver
// calls it device memory, where cuMemGetAddressRange says the block still runs there (and not where
// another block holds it); where it calls it no device memory, in the region of the block's last
// byte (Driver::device_region_bytes: 2 MiB): no host memory can lie in a region that holds device
// memory, so that is an address of the device that nothing was allocated at. cuMemGetAddressRange is asked only of device memory: asking
// it of host memory fails, which compute-sanitizer reports as an API error, and would on each copy
// from host memory that happens to lie above one of the table's buffers.
bool CudaAllocations::in_padding_of(std::uintptr_t start, std::uintptr_t end, std::uintptr_t address, int ordinal,
                                    int device) const noexcept {
  if (address <= end) return false;
  if (address < (end + 255) / 256 * 256) return true;
  if (device < 0) {
    const std::uintptr_t region = driver_.device_region_bytes;
    return region != 0 && address < (end + region - 1) / region * region;
  }
  return driver_.block_start(reinterpret_cast<const void*>(address), ordinal) == start;
}

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

// Padding comes before the driver's answer, which may know nothing of the bytes past the size asked
// for: on an H200 with driver 13.0, cuMemGetAddressRange gave a block of 100 bytes its 100 bytes, and
// for every byte past them (also of a block of 2 MiB + 100 bytes, up to 4 MiB) it returned
// CUDA_ERROR_NOT_FOUND and cudaPointerGetAttributes cudaMemoryTypeUnregistered, as for host memory.
// An address taken for host memory is checked no further, and cudaMemcpyAsync (cudaMemcpyDefault)
// copies it as pageable memory, on the host: a segmentation fault. Owned by the block's device
// instead, it reaches check_range, which refuses it as an overrun. An address past a buffer's end is
// its block's (in_padding_of):
//   - before the next 256-byte boundary, whatever the driver's pointer attributes say of it (an error,
//     unknown, device, host or managed memory);
//   - further on, where they say device memory: where cuMemGetAddressRange says the
//     block still runs there (not where it names another block, nor where it fails);
//   - further on, where they say anything else: in the 2 MiB region of the
//     block's last byte (Driver::device_region_bytes), which covers the rest of a large block's
//     rounding, as above.
// Elsewhere the driver decides as for any foreign pointer: device memory, that device; any
// other answer, -1. What no answer tells apart is an address past that region that the driver calls
// no device memory: to CUDA that is host memory, as it is here.
int CudaAllocations::owner_of(const void* p) const noexcept {
  if (const auto a = find(p)) return a->ordinal;
  const int device = driver_.device_of(p);
  if (const auto below = nearest_below(p);
      below && in_padding_of(below->start, below->start + below->bytes, reinterpret_cast<std::uintptr_t>(p),
                             below->ordinal, device))
    return below->ordinal;  // an overrun: check_range refuses it
  return device;  // not RingKernel's
}

void CudaAllocations::check_range(int ordinal, const void* p, std::size_t bytes, const char* call,
                                  const char* what, int device_id) const {
  if (!p) throw Error(errc::invalid_argument, call, device_id, std::string(what) + " is null");
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  if (const auto a = find(p)) {
    if (a->ordinal != ordinal)
      throw Error(errc::invalid_argument, call, device_id,
                  std::string(what) + " " + hex(p) + " is memory of device " + std::to_string(a->ordinal) +
                      ", not of device " + std::to_string(device_id) + " (pass " + std::to_string(a->ordinal) +
                      " as its device)");
    const std::size_t offset = address - a->start;
    if (bytes > a->bytes - offset)
      throw Error(errc::out_of_range, call, device_id,
                  std::string(what) + " range [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                      std::to_string(bytes) + ") exceeds its allocation of " + std::to_string(a->bytes) + " bytes at " +
                      hex(reinterpret_cast<const void*>(a->start)));
    return;
  }
  // Past the end of one of ours, in its block's padding: an overrun, whatever the driver takes it
  // for (valid memory of the device, or host memory: owner_of).
  const int device = driver_.device_of(p);
  if (const auto below = nearest_below(p);
      below && in_padding_of(below->start, below->start + below->bytes, address, below->ordinal, device)) {
    throw Error(errc::out_of_range, call, device_id,
                std::string(what) + " " + hex(p) + " starts " + std::to_string(address - below->start - below->bytes) +
                    " bytes past the end of its allocation of " + std::to_string(below->bytes) + " bytes at " +
                    hex(reinterpret_cast<const void*>(below->start)));
  }
  // Memory not allocated through RingKernel: the driver can say where it lives, not its size.
  if (device >= 0 && device != ordinal)
    throw Error(errc::invalid_argument, call, device_id,
                std::string(what) + " " + hex(p) + " is memory of device " + std::to_string(device) +
                    ", not of device " + std::to_string(device_id) + " (pass " + std::to_string(device) +
                    " as its device)");
  if (device != ordinal)
    throw Error(errc::invalid_argument, call, device_id,
                std::string(what) + " " + hex(p) + " is not memory of device " + std::to_string(device_id));
}

// A range from host memory that runs into the first of the table's allocations at or above it. Not
// the driver's foreign blocks: it cannot say where they start.
void CudaAllocations::check_host_range(const void* p, std::size_t bytes, const char* call, const char* what,
                                       int first_id) const {
  if (bytes == 0) return;
  check_host_range_does_not_wrap(p, bytes, call, what);
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  Found hit{};
  {
    std::lock_guard lock(mutex_);
    const auto it = allocations_.lower_bound(address);
    if (it == allocations_.end() || it->first - address >= bytes) return;
    hit = Found{it->first, it->second.ordinal, it->second.bytes};
  }
  throw_host_range_runs_into(p, bytes, call, what, hit.start, hit.bytes, first_id + hit.ordinal);
}

}  // namespace ringkernel::detail
