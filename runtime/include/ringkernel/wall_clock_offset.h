// Copyright RingKernel authors.
// How far a device's wall clock is from this host's, measured. Kernels stamp envelopes and hybrid
// logical clock stamps with wall_clock_us() (wall_clock.h), on a CUDA device the %globaltimer
// register, which the driver sets from the host's clock when it initialises the GPU and does not
// follow afterwards: the two part by the drift since. A device stamp further ahead of a host clock
// than its max_skew_us is rejected (hlc.h), and the queues' latency figures are off by the offset.
// This says by how much (ringkernel-info prints it for every CUDA device).
#pragma once

#include <cstdint>

namespace ringkernel {

struct WallClockOffset {
  /// The device's clock minus the host's, in microseconds: positive when the device's is ahead.
  std::int64_t offset_us = 0;
  /// The true offset lies within offset_us ± uncertainty_us: half the host time that bracketed the
  /// device's reading, rounded up, plus 1 us (each bound widened by one clock's truncation to
  /// microseconds).
  std::uint64_t uncertainty_us = 0;
};

/// Measures device `device_id`'s offset: a one-thread kernel waits for the device's clock to tick
/// and reads it, between two readings of the host's, eight times; the reading with the tightest
/// bracket is the result. Host-backend devices run their kernels' code on host threads, which read
/// the host's clock: {0, 0}, without measuring. The kernel is PTX, which the driver JIT-compiles
/// (or takes from its JIT cache); it runs on a stream of its own. Allocating its page-locked result
/// word, loading the kernel and freeing the word may wait for kernels running on the device (with
/// CUDA_MODULE_LOADING=EAGER, on every device that has a context), so call it before persistent
/// kernels start or after they end. Throws ringkernel::Error: invalid_device for an id no backend
/// has, out_of_memory when the word cannot be allocated, backend_failure naming any other CUDA call
/// that failed (a kernel the driver cannot compile fails the library's load or, loaded lazily, the
/// launch), invalid_state when the host's clock stepped back during every reading.
WallClockOffset measure_wall_clock_offset(int device_id);

}  // namespace ringkernel
