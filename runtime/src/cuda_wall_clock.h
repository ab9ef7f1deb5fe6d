// Copyright RingKernel authors.
// measure_wall_clock_offset for a CUDA device (cuda_wall_clock.cpp; compiled with CUDA only).
#pragma once

#include "ringkernel/wall_clock_offset.h"

namespace ringkernel::detail {

/// Device `ordinal`'s %globaltimer minus the host's system_clock (see wall_clock_offset.h);
/// `device_id` names the device in errors.
WallClockOffset measure_cuda_wall_clock_offset(int ordinal, int device_id);

}  // namespace ringkernel::detail
