// Copyright RingKernel authors.
// GPU queue benchmarks (need a CUDA device; each reports an error and does nothing without one):
//   BM_HostGpuHostRoundTrip<Queue>: a persistent kernel echoes messages from one pinned-memory
//       ring to another; time per host send -> host receive; counters median_ns and p99_ns from
//       every round trip timed on its own (goal: median <= 2 us on H100/H200). MpmcQueue (the
//       kernel claims with compare-and-swap on host memory) and SpscQueue (plain loads and stores;
//       the kernel holds each side as an endpoint, spsc_ring::consumer() / producer()).
//   BM_KernelToKernelPingPong<Ring>: two persistent kernels bounce a message through two
//       device-memory rings; time per one-way hop = round trip / 2 (goal <= 1 us); mpmc_ring and
//       spsc_ring.
//   BM_DeviceQueueThroughput/B: producer warps push, consumer warps pop through one device-memory
//       ring, 64-byte messages (goal >= 1 G msgs/s); B = 1: warp_push / warp_pop (one message per
//       lane per claim); B > 1: warp_push_batch / warp_pop_batch of B messages per warp call, staged
//       in global memory (a claim covers up to 8 positions per lane: 256 for a full warp). The
//       consumers' checksum over every word of every message is compared with what was sent, so a
//       lost or repeated message fails the row (and no consumer can skip loading any word).
// Any CUDA error (a launch refused, a kernel image missing for this GPU) ends the row with
// SkipWithError naming the call, instead of spinning on a queue that no kernel serves; so does a
// kernel that gave up (no answer, a ping-pong short of its rounds, a wrong checksum), whose time
// would otherwise be reported as a result, and an exception from the runtime (guarded below).
// The kernels: device_queue_kernels.cuh. gpu-kit/run.sh prints each row's figure against its goal.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "device_queue_kernels.cuh"
#include "ringkernel/buffers.h"
#include "ringkernel/device.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using namespace bench_queue_device;

int cuda_device() {
  const auto cuda = ringkernel::devices(ringkernel::Backend::cuda);
  return cuda.empty() ? -1 : cuda.front().id;
}

// False (and the row marked failed) when `e`, or the last launch, is an error.
bool ok(benchmark::State& state, cudaError_t e, const char* what) {
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e == cudaSuccess) return true;
  state.SkipWithError((std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e)).c_str());
  return false;
}

// Loads the kernels of a row before it launches the first: CUDA loads a kernel lazily, at its first
// launch (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2), and that load may wait for the
// kernels already running, such as a consumer spinning until this very producer runs (the CUDA
// Programming Guide's Lazy Loading section names this case). cudaFuncGetAttributes loads a kernel.
template <class... Kernels>
bool preloaded(benchmark::State& state, Kernels... kernels) {
  cudaFuncAttributes attributes{};
  return (ok(state, cudaFuncGetAttributes(&attributes, kernels), "cudaFuncGetAttributes") && ...);
}

// A row whose setup throws (a queue or buffer the CUDA runtime refuses, e.g. after an earlier row's
// kernel fault left the context unusable) ends with the error instead of ending the program: Google
// Benchmark does not catch exceptions, and the rows after it would never run.
template <void (*Row)(benchmark::State&)>
void guarded(benchmark::State& state) {
  try {
    Row(state);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

template <class Queue>
void BM_HostGpuHostRoundTrip(benchmark::State& state) {
  const int dev = cuda_device();
  if (dev < 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  using ringkernel::QueueUsers;
  Queue in({.capacity = 64, .memory = ringkernel::QueueMemory::pinned, .device = dev, .producers = QueueUsers::host,
            .consumers = QueueUsers::kernels});
  Queue out({.capacity = 64, .memory = ringkernel::QueueMemory::pinned, .device = dev,
             .producers = QueueUsers::kernels, .consumers = QueueUsers::host});
  echo<typename Queue::ring_type><<<1, 1>>>(in.ring(), out.ring());
  if (!ok(state, cudaSuccess, "echo<<<1, 1>>>")) return;
  Msg64 m{};
  std::vector<double> ns;
  ns.reserve(1 << 20);
  bool answered = true;
  for (std::uint64_t sent = 1; auto _ : state) {
    m.words[0] = sent++;  // the echo must return this very message (else the row reports no latency)
    const auto t0 = std::chrono::steady_clock::now();
    const auto give_up = t0 + std::chrono::seconds(1);
    while (!in.try_send(m).ok() && (answered = std::chrono::steady_clock::now() < give_up)) {
    }
    while (answered && out.try_receive(m) != ringkernel::ReceiveStatus::ok &&
           (answered = std::chrono::steady_clock::now() < give_up)) {
    }
    if (!answered || m.words[0] != sent - 1) {
      state.SkipWithError(answered ? ("echo returned message " + std::to_string(m.words[0]) + ", expected " +
                                      std::to_string(sent - 1)).c_str()
                                   : "no answer within 1 s: the echo kernel is not running");
      break;
    }
    ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
  }
  m.words[1] = 1;  // stop (a kernel that already gave up is not waiting for it)
  if (answered && in.send(m).ok()) (void)out.receive(m);
  if (!ok(state, cudaDeviceSynchronize(), "echo kernel")) return;
  std::sort(ns.begin(), ns.end());
  if (!ns.empty()) {
    state.counters["median_ns"] = ns[ns.size() / 2];
    state.counters["p99_ns"] = ns[std::min(ns.size() - 1, ns.size() * 99 / 100)];
  }
}

template <class Ring = DeviceRing>
Ring device_ring(ringkernel::QueueStorage& storage, std::uint64_t capacity) {
  return ringkernel::initialize_ring<Ring>(storage, capacity);
}

template <class Ring>
void BM_KernelToKernelPingPong(benchmark::State& state) {
  const int dev = cuda_device();
  if (dev < 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  constexpr std::uint64_t capacity = 64, rounds = 100000;
  ringkernel::QueueStorage a(ringkernel::QueueMemory::device, dev, Ring::bytes_for(capacity));
  ringkernel::QueueStorage b(ringkernel::QueueMemory::device, dev, Ring::bytes_for(capacity));
  unsigned long long* completed = nullptr;
  cudaStream_t s1 = nullptr, s2 = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr;
  double total_ms = 0;
  if (ok(state, cudaMalloc(&completed, 2 * sizeof *completed), "cudaMalloc") &&
      ok(state, cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaEventCreate(&begin), "cudaEventCreate") && ok(state, cudaEventCreate(&end), "cudaEventCreate") &&
      preloaded(state, pong<Ring>, ping<Ring>)) {
    for (auto _ : state) {
      const Ring ab = device_ring<Ring>(a, capacity), ba = device_ring<Ring>(b, capacity);
      if (!ok(state, cudaEventRecord(begin, s1), "cudaEventRecord")) break;
      pong<Ring><<<1, 1, 0, s2>>>(ab, ba, rounds);
      if (!ok(state, cudaSuccess, "pong<<<1, 1>>>")) break;
      ping<Ring><<<1, 1, 0, s1>>>(ab, ba, rounds, completed);
      if (!ok(state, cudaSuccess, "ping<<<1, 1>>>")) break;
      if (!ok(state, cudaEventRecord(end, s1), "cudaEventRecord")) break;
      if (!ok(state, cudaEventSynchronize(end), "ping-pong kernels")) break;
      unsigned long long done[2] = {};
      if (!ok(state, cudaMemcpy(done, completed, sizeof done, cudaMemcpyDeviceToHost), "cudaMemcpy")) break;
      if (done[0] != rounds || done[1] != 0) {
        state.SkipWithError((done[0] != rounds ? "ping gave up after " + std::to_string(done[0]) + " of " +
                                                     std::to_string(rounds) +
                                                     " rounds: the pong kernel did not answer (not running alongside?)"
                                               : std::to_string(done[1]) + " answers were not the message ping sent")
                                .c_str());
        break;
      }
      float ms = 0;
      if (!ok(state, cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime")) break;
      state.SetIterationTime(ms / 1000.0);
      total_ms += ms;
    }
  }
  if (state.iterations() != 0 && total_ms > 0) {
    state.counters["one_way_ns"] = total_ms * 1e6 / (2.0 * rounds * static_cast<double>(state.iterations()));
  }
  cudaDeviceSynchronize();  // a kernel that gave up has ended by now (or the row already failed)
  if (begin != nullptr) cudaEventDestroy(begin);
  if (end != nullptr) cudaEventDestroy(end);
  cudaFree(completed);
  if (s1 != nullptr) cudaStreamDestroy(s1);
  if (s2 != nullptr) cudaStreamDestroy(s2);
}

void BM_DeviceQueueThroughput(benchmark::State& state) {
  const int dev = cuda_device();
  if (dev < 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  const auto batch = static_cast<std::uint32_t>(state.range(0));
  constexpr std::uint64_t capacity = 1 << 20;
  constexpr std::uint32_t blocks = 264, threads = 256, per_thread = 64;
  ringkernel::QueueStorage storage(ringkernel::QueueMemory::device, dev, DeviceRing::bytes_for(capacity));
  // Staging for every producer warp and every consumer warp (batch > 1).
  const std::size_t warps = std::size_t{blocks} * threads / 32 + std::size_t{blocks / 2} * threads / 32;
  ringkernel::DeviceBuffer staging(dev, batch == 1 ? sizeof(Msg64) : warps * batch * sizeof(Msg64));
  auto* producer_staging = static_cast<Msg64*>(staging.data());
  Msg64* consumer_staging = batch == 1 ? producer_staging : producer_staging + std::size_t{blocks} * threads / 32 * batch;
  unsigned long long* sum = nullptr;
  cudaStream_t s1 = nullptr, s2 = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr;
  // Each of the n = blocks * threads producers t sends k = 0 .. per_thread-1, words t, k, 2, .., 7.
  constexpr unsigned long long n = static_cast<unsigned long long>(blocks) * threads;
  constexpr unsigned long long expected =
      per_thread * (n * (n - 1) / 2) + n * (per_thread * (per_thread - 1ull) / 2) + n * per_thread * (2 + 3 + 4 + 5 + 6 + 7);
  if (ok(state, cudaMalloc(&sum, sizeof *sum), "cudaMalloc") &&
      ok(state, cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") &&
      ok(state, cudaEventCreate(&begin), "cudaEventCreate") && ok(state, cudaEventCreate(&end), "cudaEventCreate") &&
      preloaded(state, consume, produce)) {
    for (auto _ : state) {
      const DeviceRing ring = device_ring(storage, capacity);
      // On s2, ahead of the consumers: a plain cudaMemset runs on the legacy stream, which s2 does not wait for.
      if (!ok(state, cudaMemsetAsync(sum, 0, sizeof *sum, s2), "cudaMemsetAsync")) break;
      consume<<<blocks / 2, threads, 0, s2>>>(ring, per_thread * 2, batch, consumer_staging, sum);
      if (!ok(state, cudaSuccess, "consume<<<>>>")) break;
      // From the producers' start (the consumers wait for them) to the consumers' end; recorded after
      // the consumers' launch so that the time the host spends launching them is not counted.
      if (!ok(state, cudaEventRecord(begin, s1), "cudaEventRecord")) break;
      produce<<<blocks, threads, 0, s1>>>(ring, per_thread, batch, producer_staging);
      if (!ok(state, cudaSuccess, "produce<<<>>>")) break;
      if (!ok(state, cudaEventRecord(end, s2), "cudaEventRecord")) break;
      if (!ok(state, cudaDeviceSynchronize(), "produce/consume kernels")) break;
      unsigned long long got = 0;
      if (!ok(state, cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost), "cudaMemcpy")) break;
      if (got != expected) {
        state.SkipWithError(
            ("consumers' checksum " + std::to_string(got) + ", expected " + std::to_string(expected)).c_str());
        break;
      }
      float ms = 0;
      if (!ok(state, cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime")) break;
      state.SetIterationTime(ms / 1000.0);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * blocks * threads * per_thread);
  cudaDeviceSynchronize();  // kernels of a failed iteration have given up by now
  if (begin != nullptr) cudaEventDestroy(begin);
  if (end != nullptr) cudaEventDestroy(end);
  cudaFree(sum);
  if (s1 != nullptr) cudaStreamDestroy(s1);
  if (s2 != nullptr) cudaStreamDestroy(s2);
}

}  // namespace

// Names as BENCHMARK_TEMPLATE gives them (bench/RESULTS.md and gpu-kit-run.sh refer to them).
BENCHMARK(guarded<BM_HostGpuHostRoundTrip<ringkernel::MpmcQueue<Msg64>>>)
    ->Name("BM_HostGpuHostRoundTrip<ringkernel::MpmcQueue<Msg64>>")
    ->UseRealTime();
BENCHMARK(guarded<BM_HostGpuHostRoundTrip<ringkernel::SpscQueue<Msg64>>>)
    ->Name("BM_HostGpuHostRoundTrip<ringkernel::SpscQueue<Msg64>>")
    ->UseRealTime();
BENCHMARK(guarded<BM_KernelToKernelPingPong<DeviceRing>>)
    ->Name("BM_KernelToKernelPingPong<DeviceRing>")
    ->UseManualTime()
    ->Iterations(5);
BENCHMARK(guarded<BM_KernelToKernelPingPong<DeviceSpscRing>>)
    ->Name("BM_KernelToKernelPingPong<DeviceSpscRing>")
    ->UseManualTime()
    ->Iterations(5);
// B = 256 is one full claim per call (8 positions per lane); 1024 takes four.
BENCHMARK(guarded<BM_DeviceQueueThroughput>)
    ->Name("BM_DeviceQueueThroughput")
    ->Arg(1)
    ->Arg(32)
    ->Arg(256)
    ->Arg(1024)
    ->UseManualTime()
    ->Iterations(10);
BENCHMARK_MAIN();
