// Copyright RingKernel authors.
// CUDA: PeerMemory copies against the raw CUDA calls they wrap, in the same run, 4 KiB .. 1 GiB.
//   same device:  PeerMemory same-device path   vs cudaMemcpyAsync D2D
//   two devices:  PeerMemory direct-peer path   vs cudaMemcpyPeerAsync (peer access enabled)
//   two devices:  PeerMemory host-staged path   vs the same pipeline written with raw CUDA calls
//                 (4 MiB chunks through two pinned buffers, D2H on the source's stream overlapping
//                 H2D on the destination's: what PeerMemory does), and, for reference, one serial
//                 full-size D2H then H2D
// Each iteration enqueues one copy and synchronises the stream. Every row makes one untimed copy
// first (PeerMemory creates its internal streams and staging buffers at its first copy; the raw rows
// allocate theirs before timing, and the driver's first copy of a size is slower too). Pairs need >= 2 CUDA devices and are
// skipped with a message otherwise. A failing CUDA call (or a RingKernel call that throws) ends its
// row with SkipWithError naming it, and so does a PeerMemory row whose first copy took another path
// than the row's name says; the other rows still run and the JSON is complete.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "bench_guarded.h"
#include "ringkernel/device.h"
#include "ringkernel/peer_memory.h"

namespace {

// False, with the row ended by SkipWithError naming the call, when `e` (or the last error) is not
// cudaSuccess: a failing call (a 1 GiB cudaMalloc on a shared GPU, peer enabling) ends its row, and
// the other rows and the JSON are still written. Every row returns at once then (from inside the
// timed loop: after `break`), and its holders below free what it allocated.
bool ok(benchmark::State& state, cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  (void)cudaGetLastError();  // not sticky: the next row starts clean
  state.SkipWithError((std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e)).c_str());
  return false;
}

// False, with the row ended by SkipWithError, where the untimed first copy took another path than
// the one its row is named after (CopyResult::path): the row would time that other path under the
// wrong name (another row of the run may have left peer access so, or the pair lost it).
bool took_path(benchmark::State& state, const ringkernel::CopyResult& r, ringkernel::CopyPath named) {
  if (r.path == named) return true;
  state.SkipWithError((std::string("the first copy took the ") + ringkernel::to_string(r.path) + " path, not the " +
                       ringkernel::to_string(named) + " path this row measures")
                          .c_str());
  return false;
}

// Owners of a raw row's CUDA objects (freed in reverse order of declaration; null: nothing).
struct DeviceMemory {
  void* p = nullptr;
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    if (p != nullptr) cudaFree(p);
  }
};
struct HostMemory {
  void* p = nullptr;
  HostMemory() = default;
  HostMemory(const HostMemory&) = delete;
  HostMemory& operator=(const HostMemory&) = delete;
  ~HostMemory() {
    if (p != nullptr) cudaFreeHost(p);
  }
};
struct StreamHandle {
  cudaStream_t s = nullptr;
  StreamHandle() = default;
  StreamHandle(const StreamHandle&) = delete;
  StreamHandle& operator=(const StreamHandle&) = delete;
  ~StreamHandle() {
    if (s != nullptr) {
      cudaStreamSynchronize(s);  // nothing of it still running when the memory goes
      cudaStreamDestroy(s);
    }
  }
};
struct EventHandle {
  cudaEvent_t e = nullptr;
  EventHandle() = default;
  EventHandle(const EventHandle&) = delete;
  EventHandle& operator=(const EventHandle&) = delete;
  ~EventHandle() {
    if (e != nullptr) cudaEventDestroy(e);
  }
};

// A row whose RingKernel calls throw (ringkernel::Error from a failed CUDA call) ends with the
// message instead of ending the program.
using rkbench::guarded;

std::vector<ringkernel::DeviceInfo> gpus() { return ringkernel::devices(ringkernel::Backend::cuda); }

void set_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

// Peer access from `from` to `to` (already enabled: fine).
bool enable_peer(benchmark::State& state, int from, int to) {
  if (!ok(state, cudaSetDevice(from), "cudaSetDevice")) return false;
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();
    return true;
  }
  return ok(state, e, "cudaDeviceEnablePeerAccess");
}

void BM_Raw_MemcpyAsync_D2D(benchmark::State& state) {
  const auto g = gpus();
  if (g.empty()) return state.SkipWithError("no CUDA device");
  const auto n = static_cast<std::size_t>(state.range(0));
  DeviceMemory a, b;
  StreamHandle s;
  if (!ok(state, cudaSetDevice(g[0].ordinal), "cudaSetDevice") || !ok(state, cudaMalloc(&a.p, n), "cudaMalloc") ||
      !ok(state, cudaMalloc(&b.p, n), "cudaMalloc") ||
      !ok(state, cudaStreamCreateWithFlags(&s.s, cudaStreamNonBlocking), "cudaStreamCreate") ||
      !ok(state, cudaMemcpyAsync(b.p, a.p, n, cudaMemcpyDeviceToDevice, s.s), "cudaMemcpyAsync") ||  // untimed first copy
      !ok(state, cudaStreamSynchronize(s.s), "cudaStreamSynchronize")) {
    return;
  }
  for (auto _ : state) {
    if (!ok(state, cudaMemcpyAsync(b.p, a.p, n, cudaMemcpyDeviceToDevice, s.s), "cudaMemcpyAsync") ||
        !ok(state, cudaStreamSynchronize(s.s), "cudaStreamSynchronize")) {
      break;
    }
  }
  set_bytes(state);
}

void BM_PeerMemory_same_device(benchmark::State& state) {
  const auto g = gpus();
  if (g.empty()) return state.SkipWithError("no CUDA device");
  const auto n = static_cast<std::size_t>(state.range(0));
  ringkernel::PeerMemory peers;
  ringkernel::DeviceBuffer a(g[0].id, n), b(g[0].id, n);
  ringkernel::Stream s(g[0].id);
  const auto first = peers.copy_peer_async(b.data(), g[0].id, a.data(), g[0].id, n, s);  // untimed first copy
  s.synchronize();
  if (!took_path(state, first, ringkernel::CopyPath::same_device)) return;
  for (auto _ : state) {
    peers.copy_peer_async(b.data(), g[0].id, a.data(), g[0].id, n, s);
    s.synchronize();
  }
  set_bytes(state);
}

void BM_Raw_MemcpyPeerAsync(benchmark::State& state) {
  const auto g = gpus();
  if (g.size() < 2) return state.SkipWithError("needs 2 CUDA devices");
  const auto n = static_cast<std::size_t>(state.range(0));
  const int d0 = g[0].ordinal, d1 = g[1].ordinal;
  int can = 0;
  if (!ok(state, cudaDeviceCanAccessPeer(&can, d0, d1), "cudaDeviceCanAccessPeer")) return;
  if (!can) return state.SkipWithError("no peer access between the first two devices");
  DeviceMemory a, b;
  StreamHandle s;
  if (!ok(state, cudaSetDevice(d1), "cudaSetDevice") || !ok(state, cudaMalloc(&b.p, n), "cudaMalloc") ||
      !enable_peer(state, d1, d0) || !enable_peer(state, d0, d1) || !ok(state, cudaMalloc(&a.p, n), "cudaMalloc") ||
      !ok(state, cudaStreamCreateWithFlags(&s.s, cudaStreamNonBlocking), "cudaStreamCreate") ||
      !ok(state, cudaMemcpyPeerAsync(b.p, d1, a.p, d0, n, s.s), "cudaMemcpyPeerAsync") ||  // untimed first copy
      !ok(state, cudaStreamSynchronize(s.s), "cudaStreamSynchronize")) {
    return;
  }
  for (auto _ : state) {
    if (!ok(state, cudaMemcpyPeerAsync(b.p, d1, a.p, d0, n, s.s), "cudaMemcpyPeerAsync") ||
        !ok(state, cudaStreamSynchronize(s.s), "cudaStreamSynchronize")) {
      break;
    }
  }
  set_bytes(state);
}

void BM_PeerMemory_direct(benchmark::State& state) {
  const auto g = gpus();
  if (g.size() < 2) return state.SkipWithError("needs 2 CUDA devices");
  const auto n = static_cast<std::size_t>(state.range(0));
  ringkernel::PeerMemory peers;
  if (!peers.can_access_peer(g[0].id, g[1].id)) return state.SkipWithError("no peer access");
  peers.enable_peer_access(g[0].id, g[1].id);
  peers.enable_peer_access(g[1].id, g[0].id);
  ringkernel::DeviceBuffer a(g[0].id, n), b(g[1].id, n);
  ringkernel::Stream s(g[0].id);
  const auto first = peers.copy_peer_async(b.data(), g[1].id, a.data(), g[0].id, n, s);  // untimed first copy
  s.synchronize();
  if (!took_path(state, first, ringkernel::CopyPath::direct_peer)) return;
  for (auto _ : state) {
    peers.copy_peer_async(b.data(), g[1].id, a.data(), g[0].id, n, s);
    s.synchronize();
  }
  set_bytes(state);
}

void BM_Raw_Pinned_D2H_H2D(benchmark::State& state) {
  const auto g = gpus();
  if (g.size() < 2) return state.SkipWithError("needs 2 CUDA devices");
  const auto n = static_cast<std::size_t>(state.range(0));
  DeviceMemory a, b;
  HostMemory h;
  StreamHandle s0, s1;
  if (!ok(state, cudaSetDevice(g[1].ordinal), "cudaSetDevice") || !ok(state, cudaMalloc(&b.p, n), "cudaMalloc") ||
      !ok(state, cudaStreamCreateWithFlags(&s1.s, cudaStreamNonBlocking), "cudaStreamCreate") ||
      !ok(state, cudaSetDevice(g[0].ordinal), "cudaSetDevice") || !ok(state, cudaMalloc(&a.p, n), "cudaMalloc") ||
      !ok(state, cudaStreamCreateWithFlags(&s0.s, cudaStreamNonBlocking), "cudaStreamCreate") ||
      !ok(state, cudaHostAlloc(&h.p, n, cudaHostAllocPortable), "cudaHostAlloc") ||
      !ok(state, cudaMemcpyAsync(h.p, a.p, n, cudaMemcpyDeviceToHost, s0.s), "D2H") ||  // untimed first copy
      !ok(state, cudaStreamSynchronize(s0.s), "sync")) {
    return;
  }
  for (auto _ : state) {
    if (!ok(state, cudaMemcpyAsync(h.p, a.p, n, cudaMemcpyDeviceToHost, s0.s), "D2H") ||
        !ok(state, cudaStreamSynchronize(s0.s), "sync") ||
        !ok(state, cudaMemcpyAsync(b.p, h.p, n, cudaMemcpyHostToDevice, s1.s), "H2D") ||
        !ok(state, cudaStreamSynchronize(s1.s), "sync")) {
      break;
    }
  }
  set_bytes(state);
}

// The host-staged pipeline PeerMemory runs, with raw CUDA calls: chunk i+1 leaves the source while
// chunk i enters the destination; a buffer is refilled only after its last chunk left for the
// destination.
void BM_Raw_Pinned_Pipelined(benchmark::State& state) {
  const auto g = gpus();
  if (g.size() < 2) return state.SkipWithError("needs 2 CUDA devices");
  const auto n = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t chunk = ringkernel::PeerMemoryOptions{}.staging_chunk_bytes;
  DeviceMemory a, b;
  HostMemory h[2];
  EventHandle staged[2], drained[2];
  StreamHandle s0, s1;  // declared last: destroyed (after synchronising) first
  bool ready = ok(state, cudaSetDevice(g[1].ordinal), "cudaSetDevice") &&
               ok(state, cudaMalloc(&b.p, n), "cudaMalloc") &&
               ok(state, cudaStreamCreateWithFlags(&s1.s, cudaStreamNonBlocking), "cudaStreamCreate");
  for (auto& e : drained) {
    ready = ready && ok(state, cudaEventCreateWithFlags(&e.e, cudaEventDisableTiming), "cudaEventCreate");
  }
  ready = ready && ok(state, cudaSetDevice(g[0].ordinal), "cudaSetDevice") &&
          ok(state, cudaMalloc(&a.p, n), "cudaMalloc") &&
          ok(state, cudaStreamCreateWithFlags(&s0.s, cudaStreamNonBlocking), "cudaStreamCreate");
  for (auto& e : staged) {
    ready = ready && ok(state, cudaEventCreateWithFlags(&e.e, cudaEventDisableTiming), "cudaEventCreate");
  }
  for (auto& buffer : h) ready = ready && ok(state, cudaHostAlloc(&buffer.p, chunk, cudaHostAllocPortable), "cudaHostAlloc");
  if (!ready) return;
  bool used[2] = {false, false};
  // One copy of n bytes; false (the row ended) on a failed call.
  const auto copy = [&] {
    for (std::size_t offset = 0, i = 0; offset < n; offset += chunk, ++i) {
      const std::size_t k = i % 2, bytes = n - offset < chunk ? n - offset : chunk;
      if (used[k] && !ok(state, cudaStreamWaitEvent(s0.s, drained[k].e, 0), "wait drained")) return false;
      if (!ok(state,
              cudaMemcpyAsync(h[k].p, static_cast<const char*>(a.p) + offset, bytes, cudaMemcpyDeviceToHost, s0.s),
              "D2H") ||
          !ok(state, cudaEventRecord(staged[k].e, s0.s), "record staged") ||
          !ok(state, cudaStreamWaitEvent(s1.s, staged[k].e, 0), "wait staged") ||
          !ok(state, cudaMemcpyAsync(static_cast<char*>(b.p) + offset, h[k].p, bytes, cudaMemcpyHostToDevice, s1.s),
              "H2D") ||
          !ok(state, cudaEventRecord(drained[k].e, s1.s), "record drained")) {
        return false;
      }
      used[k] = true;
    }
    return ok(state, cudaStreamSynchronize(s1.s), "sync");
  };
  if (!copy()) return;  // untimed first copy
  for (auto _ : state) {
    if (!copy()) break;
  }
  set_bytes(state);
}

void BM_PeerMemory_host_staged(benchmark::State& state) {
  const auto g = gpus();
  if (g.size() < 2) return state.SkipWithError("needs 2 CUDA devices");
  const auto n = static_cast<std::size_t>(state.range(0));
  ringkernel::PeerMemory peers;  // peer access left disabled: the staged path
  peers.disable_peer_access(g[0].id, g[1].id);
  peers.disable_peer_access(g[1].id, g[0].id);
  ringkernel::DeviceBuffer a(g[0].id, n), b(g[1].id, n);
  ringkernel::Stream s(g[0].id);
  const auto first = peers.copy_peer_async(b.data(), g[1].id, a.data(), g[0].id, n, s);  // untimed first copy
  s.synchronize();
  if (!took_path(state, first, ringkernel::CopyPath::host_staged)) return;
  for (auto _ : state) {
    peers.copy_peer_async(b.data(), g[1].id, a.data(), g[0].id, n, s);
    s.synchronize();
  }
  set_bytes(state);
}

}  // namespace

// The kit (gpu-kit/run.sh) runs these with --benchmark_repetitions, random interleaving and the
// aggregates displayed, and prints the ratio of median rates per size for each pair.
#define RK_SIZES RangeMultiplier(4)->Range(4 << 10, 1 << 30)->UseRealTime()
BENCHMARK(guarded<BM_Raw_MemcpyAsync_D2D>)->Name("BM_Raw_MemcpyAsync_D2D")->RK_SIZES;
BENCHMARK(guarded<BM_PeerMemory_same_device>)->Name("BM_PeerMemory_same_device")->RK_SIZES;
BENCHMARK(guarded<BM_Raw_MemcpyPeerAsync>)->Name("BM_Raw_MemcpyPeerAsync")->RK_SIZES;
BENCHMARK(guarded<BM_PeerMemory_direct>)->Name("BM_PeerMemory_direct")->RK_SIZES;
BENCHMARK(guarded<BM_Raw_Pinned_D2H_H2D>)->Name("BM_Raw_Pinned_D2H_H2D")->RK_SIZES;
BENCHMARK(guarded<BM_Raw_Pinned_Pipelined>)->Name("BM_Raw_Pinned_Pipelined")->RK_SIZES;
BENCHMARK(guarded<BM_PeerMemory_host_staged>)->Name("BM_PeerMemory_host_staged")->RK_SIZES;

BENCHMARK_MAIN();
