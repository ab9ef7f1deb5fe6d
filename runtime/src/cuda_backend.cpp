// Copyright RingKernel authors.
// The CUDA backend: the CUDA runtime API (no kernels) behind DeviceBackend. Every CUDA error
// becomes a ringkernel::Error naming the CUDA error, the call and the device. No driver or no GPU
// means zero devices, never an exception from enumeration.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <set>

#include "cuda_allocations.h"
#include "pinned_allocations.h"
#include "cuda_call.h"
#include "cuda_link_detection.h"
#include "cuda_wall_clock.h"
#include "registry.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

namespace {

using cuda_call::check;
using cuda_call::DeviceGuard;
using cuda_call::describe_cuda_error;
using cuda_call::ignore_error;

struct CudaStream final : StreamImpl {
  CudaStream(cudaStream_t s, int o) : stream(s), ordinal(o) {}
  ~CudaStream() override { ignore_error(cudaStreamDestroy(stream)); }
  void* native_handle() const noexcept override { return stream; }
  cudaStream_t stream;
  int ordinal;
};

struct CudaEvent final : EventImpl {
  CudaEvent(cudaEvent_t e, int o) : event(e), ordinal(o) {}
  ~CudaEvent() override { ignore_error(cudaEventDestroy(event)); }
  void* native_handle() const noexcept override { return event; }
  cudaEvent_t event;
  int ordinal;
};

cudaStream_t native(StreamImpl& s) { return static_cast<CudaStream&>(s).stream; }
cudaEvent_t native(EventImpl& e) { return static_cast<CudaEvent&>(e).event; }

class CudaBackend final : public DeviceBackend {
 public:
  CudaBackend() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      note_ = "no CUDA devices: cudaGetDeviceCount returned " + describe_cuda_error(e);
      return;
    }
    int driver = 0, runtime = 0;
    (void)cudaDriverGetVersion(&driver);
    (void)cudaRuntimeGetVersion(&runtime);
    const auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
    note_ = "CUDA driver " + version(driver) + ", runtime " + version(runtime);
    try {
      enumerate(count);
    } catch (const Error& e) {  // a broken device or driver: no devices, and the status says why
      props_.clear();
      pci_.clear();
      links_.clear();
      note_ += "; no CUDA devices: enumeration failed: " + std::string(e.what());
    }
  }

 private:
  void enumerate(int count) {
    props_.resize(static_cast<std::size_t>(count));
    std::vector<std::string> pci(static_cast<std::size_t>(count));
    for (int d = 0; d < count; ++d) {
      check(cudaGetDeviceProperties(&props_[static_cast<std::size_t>(d)], d), "cudaGetDeviceProperties", d);
      char bus[32] = {};
      check(cudaDeviceGetPCIBusId(bus, sizeof bus, d), "cudaDeviceGetPCIBusId", d);
      pci[static_cast<std::size_t>(d)] = bus;
    }
    pci_ = pci;
    // NVML only where there is a pair to ask about (loading it costs seconds in some sandboxes).
    const auto nvlink = count > 1 ? detect_nvlink(pci) : NvlinkMatrix{};
    if (!nvlink.available && count > 1) note_ += "; " + nvlink.note;
    links_.assign(static_cast<std::size_t>(count), std::vector<LinkInfo>(static_cast<std::size_t>(count)));
    for (int a = 0; a < count; ++a)
      for (int b = 0; b < count; ++b) {
        if (a == b) continue;
        int can = 0, rank = 0, atomics = 0;
        check(cudaDeviceCanAccessPeer(&can, a, b), "cudaDeviceCanAccessPeer", a);
        auto& link = links_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
        link.peer_access_supported = can != 0;
        if (can) {
          check(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b), "cudaDeviceGetP2PAttribute", a);
          check(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, a, b),
                "cudaDeviceGetP2PAttribute", a);
          link.access = nvlink.available && nvlink.nvlink[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]
                            ? AccessType::nvlink
                            : AccessType::pcie;
          link.backend_rank = rank;
          link.native_atomics = atomics != 0;
        } else {
          link.access = AccessType::host_routed;
        }
      }
  }

 public:
  Backend kind() const noexcept override { return Backend::cuda; }
  BackendStatus status() const override {
    return BackendStatus{Backend::cuda, !props_.empty(), device_count(), note_};
  }
  int device_count() const noexcept override { return static_cast<int>(props_.size()); }

  DeviceInfo describe(int ordinal) const override {
    const auto& p = props_[static_cast<std::size_t>(ordinal)];
    DeviceInfo info;
    info.ordinal = ordinal;
    info.backend = Backend::cuda;
    info.name = p.name;
    info.total_memory = p.totalGlobalMem;
    {
      DeviceGuard guard(ordinal);
      std::size_t free = 0, total = 0;
      check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo", ordinal);
      info.free_memory = free;
    }
    info.compute_units = p.multiProcessorCount;
    info.compute_capability_major = p.major;
    info.compute_capability_minor = p.minor;
    info.pci_bus_id = pci_[static_cast<std::size_t>(ordinal)];
    if (p.unifiedAddressing) info.capabilities |= Capability::unified_memory;
    if (p.managedMemory) info.capabilities |= Capability::managed_memory;
    if (p.cooperativeLaunch) info.capabilities |= Capability::cooperative_launch;
    if (p.hostNativeAtomicSupported) info.capabilities |= Capability::host_native_atomics;
    for (const auto& link : links_[static_cast<std::size_t>(ordinal)])
      if (link.peer_access_supported) info.capabilities |= Capability::peer_to_peer;
    return info;
  }

  void* allocate(int ordinal, std::size_t bytes, int) override {
    if (bytes == 0) return nullptr;
    DeviceGuard guard(ordinal);
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc", ordinal);
    allocations_.add(p, ordinal, bytes);
    return p;
  }

  void release(int ordinal, void* p) noexcept override {
    if (!p) return;
    allocations_.remove(p);
    // Freed with its own device current, as it was allocated: cudaFree's implicit synchronization
    // is then that device's, whatever device the freeing thread had current (restored after).
    int previous = ordinal;
    const cudaError_t got = cudaGetDevice(&previous);
    ignore_error(got);
    bool switched = false;
    if (got == cudaSuccess && previous != ordinal) {
      const cudaError_t set = cudaSetDevice(ordinal);
      ignore_error(set);
      switched = set == cudaSuccess;
    }
    ignore_error(cudaFree(p));
    if (switched) ignore_error(cudaSetDevice(previous));
  }

  void* allocate_pinned(std::size_t bytes, int device_id) override {
    if (bytes == 0) return nullptr;
    void* p = nullptr;
    check(cudaHostAlloc(&p, bytes, cudaHostAllocPortable), "cudaHostAlloc", device_id);
    try {
      pinned_.add(p, bytes);
    } catch (...) {  // std::bad_alloc of the table: no pinned memory without its entry
      ignore_error(cudaFreeHost(p));
      throw;
    }
    return p;
  }

  void release_pinned(void* p) noexcept override {
    if (!p) return;
    pinned_.remove(p);
    ignore_error(cudaFreeHost(p));
  }

  bool owns_pinned(const void* p) const noexcept override { return pinned_.contains(p); }

  int owner_of(const void* p) const noexcept override { return allocations_.owner_of(p); }

  void check_device_range(int ordinal, const void* p, std::size_t bytes, const char* call,
                          const char* what, int device_id) const override {
    allocations_.check_range(ordinal, p, bytes, call, what, device_id);
  }

  // Not cudaMemcpy: that runs on the legacy default stream, which waits for every kernel launched
  // there, a persistent one forever. A non-blocking stream of the buffer's device waits for nothing.
  void copy_sync(void* dst, const void* src, std::size_t bytes, int device_id) override {
    int ordinal = owner_of(dst);
    if (ordinal < 0) ordinal = owner_of(src);
    if (ordinal < 0) check(cudaGetDevice(&ordinal), "cudaGetDevice", device_id);
    DeviceGuard guard(ordinal);
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", device_id);
    const char* call = "cudaMemcpyAsync";
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
    if (e == cudaSuccess) {
      call = "cudaStreamSynchronize";
      e = cudaStreamSynchronize(s);
    }
    ignore_error(cudaStreamDestroy(s));
    check(e, call, device_id);
  }

  std::shared_ptr<StreamImpl> create_stream(int ordinal, int) override {
    DeviceGuard guard(ordinal);
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", ordinal);
    return std::make_shared<CudaStream>(s, ordinal);
  }

  std::shared_ptr<EventImpl> create_event(int ordinal, int) override {
    DeviceGuard guard(ordinal);
    cudaEvent_t e = nullptr;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags", ordinal);
    return std::make_shared<CudaEvent>(e, ordinal);
  }

  void record(EventImpl& event, StreamImpl& stream) override {
    check(cudaEventRecord(native(event), native(stream)), "cudaEventRecord", static_cast<CudaStream&>(stream).ordinal);
  }
  void wait(StreamImpl& stream, EventImpl& event) override {
    check(cudaStreamWaitEvent(native(stream), native(event), 0), "cudaStreamWaitEvent",
          static_cast<CudaStream&>(stream).ordinal);
  }
  void synchronize(EventImpl& event) override {
    check(cudaEventSynchronize(native(event)), "cudaEventSynchronize", static_cast<CudaEvent&>(event).ordinal);
  }
  bool completed(EventImpl& event) override {
    const cudaError_t e = cudaEventQuery(native(event));
    if (e == cudaErrorNotReady) return false;
    check(e, "cudaEventQuery", static_cast<CudaEvent&>(event).ordinal);
    return true;
  }
  void synchronize(StreamImpl& stream) override {
    check(cudaStreamSynchronize(native(stream)), "cudaStreamSynchronize", static_cast<CudaStream&>(stream).ordinal);
  }
  bool idle(StreamImpl& stream) override {
    const cudaError_t e = cudaStreamQuery(native(stream));
    if (e == cudaErrorNotReady) return false;
    check(e, "cudaStreamQuery", static_cast<CudaStream&>(stream).ordinal);
    return true;
  }
  void synchronize_device(int ordinal, int) override {
    DeviceGuard guard(ordinal);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", ordinal);
  }

  WallClockOffset wall_clock_offset(int ordinal, int device_id) override {
    return measure_cuda_wall_clock_offset(ordinal, device_id);
  }

  void copy_async(StreamImpl& stream, void* dst, const void* src, std::size_t bytes) override {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, native(stream)), "cudaMemcpyAsync",
          static_cast<CudaStream&>(stream).ordinal);
  }
  void copy_peer_async(StreamImpl& stream, void* dst, int dst_ordinal, const void* src, int src_ordinal,
                       std::size_t bytes) override {
    check(cudaMemcpyPeerAsync(dst, dst_ordinal, src, src_ordinal, bytes, native(stream)), "cudaMemcpyPeerAsync",
          src_ordinal);
  }

  LinkInfo link(int a, int b) const override {
    return links_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  }

  void enable_peer_access(int a, int b, int, int) override {
    if (!link(a, b).peer_access_supported)
      throw Error(errc::peer_access_unsupported, "PeerMemory::enable_peer_access", a,
                  "cudaDeviceCanAccessPeer reports that device " + std::to_string(a) +
                      " cannot access device " + std::to_string(b) + " (no P2P path between " + pci_[static_cast<std::size_t>(a)] +
                      " and " + pci_[static_cast<std::size_t>(b)] + "); copies between them are host-staged");
    std::lock_guard lock(mutex_);
    if (enabled_.count({a, b})) return;
    DeviceGuard guard(a);
    const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
    else check(e, "cudaDeviceEnablePeerAccess", a);
    enabled_.insert({a, b});
  }

  void disable_peer_access(int a, int b, int, int) override {
    std::lock_guard lock(mutex_);
    if (!enabled_.count({a, b})) return;
    DeviceGuard guard(a);
    const cudaError_t e = cudaDeviceDisablePeerAccess(b);
    if (e == cudaErrorPeerAccessNotEnabled) (void)cudaGetLastError();
    else check(e, "cudaDeviceDisablePeerAccess", a);
    enabled_.erase({a, b});
  }

  bool peer_access_enabled(int a, int b) const override {
    std::lock_guard lock(mutex_);
    return enabled_.count({a, b}) != 0;
  }

 private:
  std::string note_;
  std::vector<cudaDeviceProp> props_;
  std::vector<std::string> pci_;
  std::vector<std::vector<LinkInfo>> links_;
  CudaAllocations allocations_;
  PinnedAllocations pinned_;
  mutable std::mutex mutex_;  // guards enabled_
  std::set<std::pair<int, int>> enabled_;
};

}  // namespace

std::shared_ptr<DeviceBackend> make_cuda_backend() {
  try {
    return std::make_shared<CudaBackend>();
  } catch (const Error&) {
    return nullptr;  // a broken driver state: report no CUDA backend rather than fail enumeration
  }
}

}  // namespace ringkernel::detail
