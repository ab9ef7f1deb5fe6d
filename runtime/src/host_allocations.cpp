// Copyright RingKernel authors.
#include "host_allocations.h"

#include <limits>
#include <string>

#include "host_range_errors.h"
#include "pointer_text.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

namespace {
constexpr std::size_t block_alignment = 256;
constexpr std::size_t min_padding = 256;  // past the rounding: at least 256 bytes after every end
std::uintptr_t address(const void* p) noexcept { return reinterpret_cast<std::uintptr_t>(p); }
}  // namespace

std::size_t HostAllocations::block_bytes(std::size_t bytes) noexcept {
  // round_up(bytes + 1, 256) + 256 fits exactly while bytes <= max - 512.
  if (bytes > std::numeric_limits<std::size_t>::max() - 2 * block_alignment) return 0;
  return (bytes + block_alignment) / block_alignment * block_alignment + min_padding;
}

void HostAllocations::add(const void* p, int ordinal, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  allocations_[address(p)] = {ordinal, bytes};
}

std::optional<std::size_t> HostAllocations::remove(const void* p, int ordinal) noexcept {
  std::lock_guard lock(mutex_);
  const auto it = allocations_.find(address(p));
  if (it == allocations_.end() || it->second.ordinal != ordinal) return std::nullopt;
  const std::size_t bytes = it->second.bytes;
  allocations_.erase(it);
  return bytes;
}

std::vector<void*> HostAllocations::take_all() {
  std::lock_guard lock(mutex_);
  std::vector<void*> all;
  for (const auto& [start, a] : allocations_) all.push_back(reinterpret_cast<void*>(start));
  allocations_.clear();
  return all;
}

std::optional<HostAllocations::Found> HostAllocations::block_of(const void* p) const {
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(address(p));
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  if (address(p) - it->first >= block_bytes(it->second.bytes)) return std::nullopt;
  return Found{it->first, it->second.ordinal, it->second.bytes};
}

int HostAllocations::owner_of(const void* p) const noexcept {
  try {
    const auto b = block_of(p);
    return b ? b->ordinal : -1;
  } catch (...) {  // std::system_error of the mutex: no answer is "not ours"
    return -1;
  }
}

void HostAllocations::check_range(int ordinal, const void* p, std::size_t bytes, const char* call,
                                  const char* what, int device_id) const {
  if (!p) throw Error(errc::invalid_argument, call, device_id, std::string(what) + " is null");
  const auto b = block_of(p);
  if (!b)
    throw Error(errc::invalid_argument, call, device_id,
                std::string(what) + " " + hex(p) + " is not memory of device " + std::to_string(device_id));
  const std::size_t offset = address(p) - b->start;
  const std::string allocation =
      "its allocation of " + std::to_string(b->bytes) + " bytes at " + hex(reinterpret_cast<const void*>(b->start));
  // Past the end (one past it is the allocation's): an overrun, whichever device's block it is.
  if (offset > b->bytes)
    throw Error(errc::out_of_range, call, device_id,
                std::string(what) + " " + hex(p) + " starts " + std::to_string(offset - b->bytes) +
                    " bytes past the end of " + allocation);
  if (b->ordinal != ordinal) {
    const std::string owner = std::to_string(device_id - ordinal + b->ordinal);
    throw Error(errc::invalid_argument, call, device_id,
                std::string(what) + " " + hex(p) + " is memory of device " + owner + ", not of device " +
                    std::to_string(device_id) + " (pass " + owner + " as its device)");
  }
  if (bytes > b->bytes - offset)
    throw Error(errc::out_of_range, call, device_id,
                std::string(what) + " range [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                    std::to_string(bytes) + ") exceeds " + allocation);
}

void HostAllocations::check_host_range(const void* p, std::size_t bytes, const char* call, const char* what,
                                       int first_id) const {
  if (bytes == 0) return;
  check_host_range_does_not_wrap(p, bytes, call, what);
  Found hit{};
  {
    std::lock_guard lock(mutex_);
    const auto it = allocations_.lower_bound(address(p));  // the first block at or above p
    if (it == allocations_.end() || it->first - address(p) >= bytes) return;
    hit = Found{it->first, it->second.ordinal, it->second.bytes};
  }
  throw_host_range_runs_into(p, bytes, call, what, hit.start, hit.bytes, first_id + hit.ordinal);
}

}  // namespace ringkernel::detail
