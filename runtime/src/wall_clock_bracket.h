// Copyright RingKernel authors.
// A device clock's offset from the host's, from one bracketed reading: the host reads its clock
// (before_us), the device reads its own (device_us, taken as the device's clock ticked, so not
// stale), the host reads again (after_us). Pure arithmetic, so that it is tested without a GPU
// (tests/runtime/wall_clock_bracket_test.cpp); measure_cuda_wall_clock_offset takes the tightest
// of several.
#pragma once

#include <cstdint>
#include <optional>

#include "ringkernel/wall_clock_offset.h"

namespace ringkernel::detail {

/// Empty when after_us < before_us: the host's clock stepped back, and the reading brackets nothing.
inline std::optional<WallClockOffset> offset_from_bracket(std::uint64_t before_us, std::uint64_t device_us,
                                                          std::uint64_t after_us) noexcept {
  if (after_us < before_us) return std::nullopt;
  // The device read its clock at a host time in [before, after + 1) (the host's readings are
  // truncated to microseconds), and its own reading is truncated too: the offset lies in
  // (device - after - 1, device - before + 1). Centred on device - before - floor(w / 2), with
  // w = after - before, a half-width of ceil(w / 2) + 1 reaches both bounds (for odd w, one
  // microsecond past the upper one).
  const std::uint64_t width = after_us - before_us;
  const auto centre = static_cast<std::int64_t>(device_us) - static_cast<std::int64_t>(before_us + width / 2);
  return WallClockOffset{centre, (width + 1) / 2 + 1};
}

}  // namespace ringkernel::detail
