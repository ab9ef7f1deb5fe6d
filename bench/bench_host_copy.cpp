// Copyright RingKernel authors.
// Host backend: PeerMemory copies (direct peer path and host-staged path, each a worker-thread
// stream plus a synchronize) against a plain memcpy of the same bytes in the same run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/peer_memory.h"

namespace {

std::vector<int> host_pair() {
  ringkernel::HostBackendConfig config;
  config.device_count = 3;
  config.topology = ringkernel::HostTopology::pairs;
  config.pairs = {{0, 1}};
  ringkernel::configure_host_backend(config);
  std::vector<int> ids;
  for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  return ids;
}

void BM_memcpy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<char> a(n, 1), b(n, 0);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), n);
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void peer_copy(benchmark::State& state, bool direct) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto ids = host_pair();
  const int src = ids[0], dst = direct ? ids[1] : ids[2];
  ringkernel::PeerMemory peers;
  if (direct) peers.enable_peer_access(src, dst);
  ringkernel::DeviceBuffer a(src, n), b(dst, n);
  std::vector<char> fill(n, 1);
  a.upload(fill.data(), n);
  b.upload(fill.data(), n);  // touch every page once, as the memcpy peer's vectors are
  ringkernel::Stream stream(src);
  peers.copy_peer_async(b.data(), dst, a.data(), src, n, stream);  // warm-up: staging buffers
  stream.synchronize();
  for (auto _ : state) {
    peers.copy_peer_async(b.data(), dst, a.data(), src, n, stream);
    stream.synchronize();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void BM_PeerMemory_direct(benchmark::State& state) { peer_copy(state, true); }
void BM_PeerMemory_host_staged(benchmark::State& state) { peer_copy(state, false); }

}  // namespace

BENCHMARK(BM_memcpy)->RangeMultiplier(16)->Range(4 << 10, 256 << 20)->UseRealTime();
BENCHMARK(BM_PeerMemory_direct)->RangeMultiplier(16)->Range(4 << 10, 256 << 20)->UseRealTime();
BENCHMARK(BM_PeerMemory_host_staged)->RangeMultiplier(16)->Range(4 << 10, 256 << 20)->UseRealTime();

BENCHMARK_MAIN();
