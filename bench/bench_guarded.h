// Copyright RingKernel authors.
// rkbench::guarded<Row>: a benchmark row whose code throws ends with the exception's message
// (SkipWithError) instead of ending the program - Google Benchmark does not catch exceptions, so
// the rows after it would never run and the JSON would stay incomplete. Shared by bench_peer_copy
// (RingKernel calls that throw ringkernel::Error on a failed CUDA call), bench_queue_device (a
// queue or buffer the CUDA runtime refuses) and every row of bench_queue (a process allowed too few
// CPUs, a thread that cannot be pinned; in the PxC rows also a failed delivery check or a stall).
#pragma once

#include <benchmark/benchmark.h>

#include <exception>

namespace rkbench {

template <void (*Row)(benchmark::State&)>
void guarded(benchmark::State& state) {
  try {
    Row(state);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace rkbench
