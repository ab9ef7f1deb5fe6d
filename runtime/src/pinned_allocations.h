// Copyright RingKernel authors.
// The pinned host allocations of one backend (base -> bytes), so that a stream of another backend
// (or another host configuration) can tell that a host pointer is pinned memory it does not own:
// freeing such memory waits only for its own backend's streams, so a copy queued elsewhere would
// read or write it after the free. Each allocation keeps an opaque tag of its backend's (the CUDA
// backend's: the context it was allocated in, which frees it again).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace ringkernel::detail {

class PinnedAllocations {
 public:
  struct Allocation {
    std::size_t bytes = 0;
    void* tag = nullptr;
  };
  void add(const void* p, std::size_t bytes, void* tag = nullptr) {
    std::lock_guard lock(mutex_);
    allocations_[address(p)] = Allocation{bytes, tag};
  }
  /// The allocation that starts at `p`, taken out of the table; none if `p` is not the start of one.
  std::optional<Allocation> remove(const void* p) noexcept {
    std::lock_guard lock(mutex_);
    const auto it = allocations_.find(address(p));
    if (it == allocations_.end()) return std::nullopt;
    const Allocation a = it->second;
    allocations_.erase(it);
    return a;
  }
  /// Whether `p` lies in one of them: [start, start + bytes), so that ordinary memory right after
  /// an allocation (an allocator that packs blocks of one size) is not taken for it.
  bool contains(const void* p) const noexcept {
    std::lock_guard lock(mutex_);
    auto it = allocations_.upper_bound(address(p));
    if (it == allocations_.begin()) return false;
    --it;
    return address(p) < it->first + it->second.bytes;
  }
  /// Every allocation's start, and the table emptied (a backend that frees them all).
  std::vector<void*> take_all() {
    std::lock_guard lock(mutex_);
    std::vector<void*> all;
    for (const auto& [base, allocation] : allocations_) all.push_back(reinterpret_cast<void*>(base));
    allocations_.clear();
    return all;
  }

 private:
  static std::uintptr_t address(const void* p) noexcept { return reinterpret_cast<std::uintptr_t>(p); }
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, Allocation> allocations_;
};

}  // namespace ringkernel::detail
