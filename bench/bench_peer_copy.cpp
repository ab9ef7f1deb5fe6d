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
// skipped with a message otherwise.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ringkernel/device.h"
#include "ringkernel/peer_memory.h"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

std::vector<ringkernel::DeviceInfo> gpus() { return ringkernel::devices(ringkernel::Backend::cuda); }

void set_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void BM_Raw_MemcpyAsync_D2D(benchmark::State& state) {
  const auto g = gpus();
  if (g.empty()) return state.SkipWithError("no CUDA device");
  const auto n = static_cast<std::size_t>(state.range(0));
  check(cudaSetDevice(g[0].ordinal), "cudaSetDevice");
  void *a = nullptr, *b = nullptr;
  cudaStream_t s = nullptr;
  check(cudaMalloc(&a, n), "cudaMalloc");
  check(cudaMalloc(&b, n), "cudaMalloc");
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaMemcpyAsync(b, a, n, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");  // untimed first copy
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  for (auto _ : state) {
    check(cudaMemcpyAsync(b, a, n, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  set_bytes(state);
  cudaStreamDestroy(s);
  cudaFree(a);
  cudaFree(b);
}

void BM_PeerMemory_same_device(benchmark::State& state) {
  const auto g = gpus();
  if (g.empty()) return state.SkipWithError("no CUDA device");
  const auto n = static_cast<std::size_t>(state.range(0));
  ringkernel::PeerMemory peers;
  ringkernel::DeviceBuffer a(g[0].id, n), b(g[0].id, n);
  ringkernel::Stream s(g[0].id);
  peers.copy_peer_async(b.data(), g[0].id, a.data(), g[0].id, n, s);  // untimed first copy
  s.synchronize();
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
  check(cudaDeviceCanAccessPeer(&can, d0, d1), "cudaDeviceCanAccessPeer");
  if (!can) return state.SkipWithError("no peer access between the first two devices");
  void *a = nullptr, *b = nullptr;
  cudaStream_t s = nullptr;
  check(cudaSetDevice(d1), "cudaSetDevice");
  check(cudaMalloc(&b, n), "cudaMalloc");
  const cudaError_t e1 = cudaDeviceEnablePeerAccess(d0, 0);
  if (e1 == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError(); else check(e1, "enable");
  check(cudaSetDevice(d0), "cudaSetDevice");
  const cudaError_t e0 = cudaDeviceEnablePeerAccess(d1, 0);
  if (e0 == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError(); else check(e0, "enable");
  check(cudaMalloc(&a, n), "cudaMalloc");
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaMemcpyPeerAsync(b, d1, a, d0, n, s), "cudaMemcpyPeerAsync");  // untimed first copy
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  for (auto _ : state) {
    check(cudaMemcpyPeerAsync(b, d1, a, d0, n, s), "cudaMemcpyPeerAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  set_bytes(state);
  cudaStreamDestroy(s);
  cudaFree(a);
  cudaFree(b);
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
  peers.copy_peer_async(b.data(), g[1].id, a.data(), g[0].id, n, s);  // untimed first copy
  s.synchronize();
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
  void *a = nullptr, *b = nullptr, *h = nullptr;
  cudaStream_t s0 = nullptr, s1 = nullptr;
  check(cudaSetDevice(g[1].ordinal), "cudaSetDevice");
  check(cudaMalloc(&b, n), "cudaMalloc");
  check(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaSetDevice(g[0].ordinal), "cudaSetDevice");
  check(cudaMalloc(&a, n), "cudaMalloc");
  check(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaHostAlloc(&h, n, cudaHostAllocPortable), "cudaHostAlloc");
  check(cudaMemcpyAsync(h, a, n, cudaMemcpyDeviceToHost, s0), "D2H");  // untimed first copy
  check(cudaStreamSynchronize(s0), "sync");
  for (auto _ : state) {
    check(cudaMemcpyAsync(h, a, n, cudaMemcpyDeviceToHost, s0), "D2H");
    check(cudaStreamSynchronize(s0), "sync");
    check(cudaMemcpyAsync(b, h, n, cudaMemcpyHostToDevice, s1), "H2D");
    check(cudaStreamSynchronize(s1), "sync");
  }
  set_bytes(state);
  cudaStreamDestroy(s0);
  cudaStreamDestroy(s1);
  cudaFreeHost(h);
  cudaFree(a);
  cudaFree(b);
}

// The host-staged pipeline PeerMemory runs, with raw CUDA calls: chunk i+1 leaves the source while
// chunk i enters the destination; a buffer is refilled only after its last chunk left for the
// destination.
void BM_Raw_Pinned_Pipelined(benchmark::State& state) {
  const auto g = gpus();
  if (g.size() < 2) return state.SkipWithError("needs 2 CUDA devices");
  const auto n = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t chunk = ringkernel::PeerMemoryOptions{}.staging_chunk_bytes;
  void *a = nullptr, *b = nullptr;
  void* h[2] = {nullptr, nullptr};
  cudaStream_t s0 = nullptr, s1 = nullptr;
  cudaEvent_t staged[2] = {nullptr, nullptr}, drained[2] = {nullptr, nullptr};
  check(cudaSetDevice(g[1].ordinal), "cudaSetDevice");
  check(cudaMalloc(&b, n), "cudaMalloc");
  check(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreate");
  for (auto& e : drained) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
  check(cudaSetDevice(g[0].ordinal), "cudaSetDevice");
  check(cudaMalloc(&a, n), "cudaMalloc");
  check(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking), "cudaStreamCreate");
  for (auto& e : staged) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
  for (auto& buffer : h) check(cudaHostAlloc(&buffer, chunk, cudaHostAllocPortable), "cudaHostAlloc");
  bool used[2] = {false, false};
  const auto copy = [&] {
    for (std::size_t offset = 0, i = 0; offset < n; offset += chunk, ++i) {
      const std::size_t k = i % 2, bytes = n - offset < chunk ? n - offset : chunk;
      if (used[k]) check(cudaStreamWaitEvent(s0, drained[k], 0), "wait drained");
      check(cudaMemcpyAsync(h[k], static_cast<const char*>(a) + offset, bytes, cudaMemcpyDeviceToHost, s0), "D2H");
      check(cudaEventRecord(staged[k], s0), "record staged");
      check(cudaStreamWaitEvent(s1, staged[k], 0), "wait staged");
      check(cudaMemcpyAsync(static_cast<char*>(b) + offset, h[k], bytes, cudaMemcpyHostToDevice, s1), "H2D");
      check(cudaEventRecord(drained[k], s1), "record drained");
      used[k] = true;
    }
    check(cudaStreamSynchronize(s1), "sync");
  };
  copy();  // untimed first copy
  for (auto _ : state) copy();
  set_bytes(state);
  check(cudaStreamSynchronize(s0), "sync");
  for (auto& e : staged) cudaEventDestroy(e);
  for (auto& e : drained) cudaEventDestroy(e);
  for (auto* buffer : h) cudaFreeHost(buffer);
  cudaStreamDestroy(s0);
  cudaStreamDestroy(s1);
  cudaFree(a);
  cudaFree(b);
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
  peers.copy_peer_async(b.data(), g[1].id, a.data(), g[0].id, n, s);  // untimed first copy
  s.synchronize();
  for (auto _ : state) {
    peers.copy_peer_async(b.data(), g[1].id, a.data(), g[0].id, n, s);
    s.synchronize();
  }
  set_bytes(state);
}

}  // namespace

#define RK_SIZES RangeMultiplier(4)->Range(4 << 10, 1 << 30)->UseRealTime()
BENCHMARK(BM_Raw_MemcpyAsync_D2D)->RK_SIZES;
BENCHMARK(BM_PeerMemory_same_device)->RK_SIZES;
BENCHMARK(BM_Raw_MemcpyPeerAsync)->RK_SIZES;
BENCHMARK(BM_PeerMemory_direct)->RK_SIZES;
BENCHMARK(BM_Raw_Pinned_D2H_H2D)->RK_SIZES;
BENCHMARK(BM_Raw_Pinned_Pipelined)->RK_SIZES;
BENCHMARK(BM_PeerMemory_host_staged)->RK_SIZES;

BENCHMARK_MAIN();
