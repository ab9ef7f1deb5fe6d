// Copyright RingKernel authors.
// The host backend's table of device memory, every virtual device's in one map: each allocation is a
// block of its own host memory, rounded up past its end to a 256-byte boundary (as cudaMalloc rounds)
// and 256 bytes more, so that at least the 256 bytes right after a buffer's end are the backend's,
// never the program's (rounding alone leaves none after a buffer of 255 or 511 bytes). What the
// table says of an address: the device whose block holds it, whether a range at it lies inside one
// allocation of a given device (an address in a block's padding is an overrun), and whether a range
// taken for host memory runs into a block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace ringkernel::detail {

class HostAllocations {
 public:
  /// The block an allocation of `bytes` takes: one byte more (the address one past the end is the
  /// allocation's, for empty ranges there) rounded up to 256, plus 256 bytes of padding: 257 to 512
  /// bytes past the end in all; 0 when that overflows (bytes > SIZE_MAX - 512).
  static std::size_t block_bytes(std::size_t bytes) noexcept;

  void add(const void* p, int ordinal, std::size_t bytes);
  /// The size of `ordinal`'s allocation that starts at `p`, now removed; nothing if there is none.
  std::optional<std::size_t> remove(const void* p, int ordinal) noexcept;
  /// Every allocation's start, and the table emptied (a backend that frees them all).
  std::vector<void*> take_all();

  /// The ordinal whose block holds `p` (its padding too, which check_range refuses), or -1.
  int owner_of(const void* p) const noexcept;

  /// Throws ringkernel::Error naming `call`, `what` and `device_id` (the global id of `ordinal`)
  /// unless [p, p + bytes) lies inside one allocation of `ordinal`: invalid_argument for a null `p`,
  /// memory of another device or no device memory, out_of_range for a range past the allocation's
  /// end or one that starts in its block's padding.
  void check_range(int ordinal, const void* p, std::size_t bytes, const char* call, const char* what,
                   int device_id) const;

  /// Throws ringkernel::Error(out_of_range) if [p, p + bytes), taken for host memory (owner_of(p) is
  /// -1), runs into a block (`first_id`: the global id of ordinal 0; the error names the block's
  /// device) or wraps around the end of the address space (an error of no device).
  void check_host_range(const void* p, std::size_t bytes, const char* call, const char* what, int first_id) const;

 private:
  struct Allocation {
    int ordinal;
    std::size_t bytes;
  };
  struct Found {
    std::uintptr_t start;
    int ordinal;
    std::size_t bytes;
  };
  // The allocation whose block holds `p`; a copy taken under the lock.
  std::optional<Found> block_of(const void* p) const;

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, Allocation> allocations_;
};

}  // namespace ringkernel::detail
