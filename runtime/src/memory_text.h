// Copyright RingKernel authors.
// A memory size as people read it: whole MiB where that is exact or the size is 1 GiB or more (a
// GPU's memory, rounded down by under 0.1 %), else KiB or bytes where those are exact, so that
// small sizes are not rounded to nothing or to a size they are not ("1 MiB" for 2047 KiB); the
// largest size_t (a host device without a limit) is "unlimited".
#pragma once

#include <cstddef>
#include <limits>
#include <string>

namespace ringkernel::detail {

inline std::string memory_text(std::size_t bytes) {
  constexpr std::size_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
  if (bytes == std::numeric_limits<std::size_t>::max()) return "unlimited memory";
  if (bytes % mib == 0 || bytes >= gib) return std::to_string(bytes / mib) + " MiB";
  if (bytes % kib == 0) return std::to_string(bytes / kib) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace ringkernel::detail
