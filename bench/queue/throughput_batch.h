// Copyright RingKernel authors.
// The batch sizes B that the throughput rows (BM_DeviceQueueThroughput/B in bench_queue_device.cu,
// BM_Raw_DeviceThroughput/B in raw_throughput.cu) can run, checked before anything is allocated or
// launched. Their producer warps stage B / 32 messages per lane per call and step each lane's
// count by that (device_queue_kernels.cuh produce, raw_throughput.cu raw_produce): B / 32 of 0 (B
// from 2 to 31) never advances and spins until the kernels' deadline; a B that is not a multiple
// of 32 sends messages it never staged; a B / 32 that does not divide a lane's
// throughput_per_thread messages sends more than the consumers take. The rows would fail late,
// with a misleading checksum, or time nothing meaningful.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "throughput_timing.h"

namespace bench_queue_device {

/// True for B = 1 (each lane sends its own message) or a multiple of 32 whose B / 32 divides
/// throughput_per_thread (each consumer lane's 2 x throughput_per_thread too, then); otherwise
/// false, with the row ended by SkipWithError naming B and what it must be.
inline bool batch_fits(benchmark::State& state, std::int64_t batch) {
  if (batch == 1 || (batch > 0 && batch % 32 == 0 && throughput_per_thread % (batch / 32) == 0)) return true;
  state.SkipWithError(("batch " + std::to_string(batch) + " (the row's argument) cannot run: B must be 1, or a " +
                       "multiple of 32 whose B / 32 divides the " + std::to_string(throughput_per_thread) +
                       " messages each producer lane sends")
                          .c_str());
  return false;
}

}  // namespace bench_queue_device
