// Copyright RingKernel authors.
// The CUDA backend's table of the device memory it allocated, and what it says of an address: the
// device that owns it, and whether a range of bytes at it lies inside one allocation of a given
// device. The driver knows where memory lives but not the size the program asked for (cudaMalloc
// rounds blocks up to 256 bytes and places them back to back), so an overrun into a block's
// padding or into the next block looks valid to it; this table catches both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace ringkernel::detail {

class CudaAllocations {
 public:
  void add(const void* p, int ordinal, std::size_t bytes);
  void remove(const void* p) noexcept;

  /// The device that owns `p`: the table's, else the driver's answer (-1: host memory, or unknown).
  int owner_of(const void* p) const noexcept;

  /// Throws ringkernel::Error (invalid_argument, out_of_range) naming `call`, `what` and `device_id`
  /// unless [p, p + bytes) is memory of device `ordinal`: inside one of the table's allocations, or
  /// memory the driver says is that device's and that does not start in one of their paddings.
  void check_range(int ordinal, const void* p, std::size_t bytes, const char* call, const char* what,
                   int device_id) const;

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

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, Allocation> allocations_;
};

}  // namespace ringkernel::detail
