// Copyright RingKernel authors.
// The CUDA backend's table of the device memory it allocated, and what it says of an address: the
// device that owns it, and whether a range of bytes at it lies inside one allocation of a given
// device. cudaMalloc rounds blocks up to 256 bytes and may place them back to back: an overrun into
// the next block looks valid to the driver, and one into a block's padding looks valid to some
// drivers and like host memory to others (which cudaMemcpyAsync then copies on the host, faulting);
// this table catches both, whatever the driver says of the padding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace ringkernel::detail {

class CudaAllocations {
 public:
  /// What the driver and the system say of an address; theirs by default, a test's own else.
  struct Driver {
    /// cuPointerGetAttributes (cudaPointerGetAttributes where the driver's call cannot be looked
    /// up): the device whose memory `p` is, -1 for any other answer (an error, memory unknown to
    /// CUDA, host memory, managed memory).
    int (*device_of)(const void* p) noexcept;
    /// cuMemGetAddressRange, with device `ordinal` current: the start of the driver's block that
    /// holds `p`, 0 where it knows none (or the call fails).
    std::uintptr_t (*block_start)(const void* p, int ordinal) noexcept;
    /// The aligned regions device memory is mapped in: no host memory lies in a region that holds
    /// device memory. The larger of the host's page (sysconf) and 2 MiB, the granule in which the
    /// driver maps device memory on the GPUs CUDA 13 supports (small blocks are carved from such chunks).
    std::size_t device_region_bytes;
  };
  CudaAllocations();
  explicit CudaAllocations(Driver driver) noexcept : driver_(driver) {}

  void add(const void* p, int ordinal, std::size_t bytes);
  void remove(const void* p) noexcept;

  /// The device that owns `p`: the table's, also for an address in the padding of one of its blocks
  /// (which check_range refuses), else the driver's answer (-1: host memory, or unknown).
  int owner_of(const void* p) const noexcept;

  /// Throws ringkernel::Error (invalid_argument, out_of_range) naming `call`, `what` and `device_id`
  /// unless [p, p + bytes) is memory of device `ordinal`: inside one of the table's allocations, or
  /// memory the driver says is that device's and that does not start in one of their paddings.
  void check_range(int ordinal, const void* p, std::size_t bytes, const char* call, const char* what,
                   int device_id) const;

  /// Throws ringkernel::Error(out_of_range) if [p, p + bytes), taken for host memory (owner_of(p) is
  /// -1), runs into one of the table's allocations (`first_id`: the global id of ordinal 0; the
  /// error names the allocation's device) or wraps around the end of the address space (an error of
  /// no device).
  void check_host_range(const void* p, std::size_t bytes, const char* call, const char* what, int first_id) const;

 private:
  struct Found {
    std::uintptr_t start;
    int ordinal;
    std::size_t bytes;
  };
  struct Allocation {
    int ordinal;
    std::size_t bytes;
  };

  // The allocation that starts closest below or at `p`, whether or not it holds `p`. A copy taken
  // under the lock: another thread may release the allocation right after.
  std::optional<Found> nearest_below(const void* p) const;
  // The allocation holding `p`, where one past its end counts as its own (an empty range at the end
  // is valid) unless another block of the driver's starts there.
  std::optional<Found> find(const void* p) const;
  // `address` is one past the end of [start, end) and another block of the driver's starts there.
  bool starts_another_block(std::uintptr_t start, std::uintptr_t end, std::uintptr_t address, int ordinal) const noexcept;
  // `address` lies past the end of [start, end) in the rest of its block; `device`: the driver's
  // device of `address` (Driver::device_of).
  bool in_padding_of(std::uintptr_t start, std::uintptr_t end, std::uintptr_t address, int ordinal,
                     int device) const noexcept;

  Driver driver_;

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, Allocation> allocations_;
};

}  // namespace ringkernel::detail
