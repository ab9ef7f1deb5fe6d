// Copyright RingKernel authors.
// The CUDA backend: the CUDA runtime API (no kernels) behind DeviceBackend. Every CUDA error
// becomes a ringkernel::Error naming the CUDA error, the call and the device. No driver or no GPU
// means zero devices, never an exception from enumeration.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <new>  // std::nothrow
#include <optional>
#include <set>

#include "cuda_allocations.h"
#include "pinned_allocations.h"
#include "cuda_call.h"
#include "cuda_link_detection.h"
#include "cuda_peer_refusal.h"
#include "cuda_streams.h"
#include "cuda_wall_clock.h"
#include "registry.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

namespace {

using cuda_call::check;
using cuda_call::DeviceGuard;
using cuda_call::describe_cuda_error;
using cuda_call::ignore_error;

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
      query_failures_.clear();
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
    query_failures_.assign(static_cast<std::size_t>(count), std::vector<std::string>(static_cast<std::size_t>(count)));
    for (int a = 0; a < count; ++a)
      for (int b = 0; b < count; ++b)
        if (a != b) links_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = query_link(a, b, nvlink);
  }

  // How device a reaches device b. A query failing for this pair alone means no peer access (copies
  // host-staged), and the status note names the call, its error and the pair, as does
  // enable_peer_access's refusal (query_failures_, cuda_peer_refusal.h); one that leaves no CUDA
  // call usable (is_unusable_cuda_error) throws: no devices, and the note says why.
  LinkInfo query_link(int a, int b, const NvlinkMatrix& nvlink) {
    LinkInfo link;  // host_routed, no peer access
    int can = 0, rank = 0, atomics = 0;
    const char* call = "cudaDeviceCanAccessPeer";
    cudaError_t e = cudaDeviceCanAccessPeer(&can, a, b);
    if (e == cudaSuccess && can) {
      call = "cudaDeviceGetP2PAttribute";
      e = cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b);
      if (e == cudaSuccess) e = cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, a, b);
    }
    if (e != cudaSuccess) {
      if (cuda_call::is_unusable_cuda_error(e)) check(e, call, a);
      ignore_error(e);
      auto& failure = query_failures_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
      failure = std::string(call) + " returned " + describe_cuda_error(e);
      note_ += "; no peer access from device " + std::to_string(a) + " to device " + std::to_string(b) + ": " + failure;
      return link;
    }
    link.peer_access_supported = can != 0;
    if (!can) return link;
    const bool nv = nvlink.available && nvlink.nvlink[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
    link.access = nv ? AccessType::nvlink : AccessType::pcie;
    link.backend_rank = rank;
    link.native_atomics = atomics != 0;
    return link;
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
    info.free_memory = query_free_memory(ordinal);
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
    try {
      allocations_.add(p, ordinal, bytes);
    } catch (...) {  // std::bad_alloc of the table: no device memory without its entry
      ignore_error(cudaFree(p));
      throw;
    }
    return p;
  }

  void release(int ordinal, void* p) noexcept override {
    if (!p) return;
    allocations_.remove(p);
    // Freed with its own device current, as it was allocated (the freeing thread's device restored
    // after). cudaFree's documentation promises no more than that it "may perform implicit
    // synchronization" (for memory not from cudaMallocAsync); whatever it waits for is then this
    // device's work, never another device's (a direct peer copy queued on a peer's stream, a peer's
    // kernel writing through a mapping), and it may block behind a persistent kernel running here.
    // Callers synchronise what touches the buffer first (buffers.h, docs/runtime.md).
    DeviceGuard guard(ordinal, std::nothrow);  // cudaFree all the same where that fails
    ignore_error(cudaFree(p));
  }

  void* allocate_pinned(std::size_t bytes, int device_id) override {
    if (bytes == 0) return nullptr;
    // cudaHostAlloc runs in the current context ("host memory allocated from this host thread ...
    // will have its lifetime associated with" the current device, cudaSetDevice's documentation):
    // that of the device asked for, so the memory lives as long as that device's context (not device
    // 0's).
    const int ordinal = ordinal_of(device_id);
    std::optional<DeviceGuard> guard;
    if (ordinal >= 0) guard.emplace(ordinal);
    void* p = nullptr;
    check(cudaHostAlloc(&p, bytes, cudaHostAllocPortable), "cudaHostAlloc", device_id);
    try {
      pinned_.add(p, bytes, cuda_driver::current_context());  // the context it lives in, which frees it
    } catch (...) {  // std::bad_alloc of the table: no pinned memory without its entry
      ignore_error(cudaFreeHost(p));
      throw;
    }
    return p;
  }

  // Freed in the context it was allocated in (ContextScope), the calling thread's left as it was:
  // cudaFreeHost needs a context (cuMemFreeHost documents CUDA_ERROR_INVALID_CONTEXT), and in a
  // thread with none bound the runtime would bind and initialise the primary context of the
  // thread's current device (0 unless it chose another), in a process that may never use device 0.
  // cudaFreeHost's documentation promises no synchronization: copies still queued on a stream
  // would read or write freed memory, so callers wait for them first (StagingPipeline's destructor
  // for its staging buffers; users, for theirs: buffers.h).
  void release_pinned(void* p) noexcept override {
    if (!p) return;
    const auto allocation = pinned_.remove(p);
    const cuda_call::ContextScope scope(allocation ? static_cast<CUcontext>(allocation->tag) : nullptr);
    ignore_error(cudaFreeHost(p));
  }

  bool owns_pinned(const void* p) const noexcept override { return pinned_.contains(p); }

  int owner_of(const void* p) const noexcept override { return allocations_.owner_of(p); }

  void check_device_range(int ordinal, const void* p, std::size_t bytes, const char* call,
                          const char* what, int device_id) const override {
    allocations_.check_range(ordinal, p, bytes, call, what, device_id);
  }

  void check_host_range(const void* p, std::size_t bytes, const char* call, const char* what,
                        int first_id) const override {
    allocations_.check_host_range(p, bytes, call, what, first_id);
  }

  // Not cudaMemcpy: that runs on the legacy default stream, which waits for every kernel launched
  // there, a persistent one forever. A non-blocking stream of the buffer's device waits for nothing.
  void copy_sync(void* dst, const void* src, std::size_t bytes, int device_id) override {
    int ordinal = owner_of(dst);
    if (ordinal < 0) ordinal = owner_of(src);
    if (ordinal < 0) ordinal = ordinal_of(device_id);  // host to host: the device the call names
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

  // Each call runs in the stream's or event's own context (cuda_streams.h).
  std::shared_ptr<StreamImpl> create_stream(int ordinal, int) override { return cuda_streams::create_stream(ordinal); }
  std::shared_ptr<EventImpl> create_event(int ordinal, int) override { return cuda_streams::create_event(ordinal); }
  void record(EventImpl& event, StreamImpl& stream) override { cuda_streams::record(event, stream); }
  void wait(StreamImpl& stream, EventImpl& event) override { cuda_streams::wait(stream, event); }
  void synchronize(EventImpl& event) override { cuda_streams::synchronize(event); }
  bool completed(EventImpl& event) override { return cuda_streams::completed(event); }
  void synchronize(StreamImpl& stream) override { cuda_streams::synchronize(stream); }
  bool idle(StreamImpl& stream) override { return cuda_streams::idle(stream); }
  void synchronize_device(int ordinal, int) override {
    DeviceGuard guard(ordinal);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", ordinal);
  }

  WallClockOffset wall_clock_offset(int ordinal, int device_id) override {
    return measure_cuda_wall_clock_offset(ordinal, device_id);
  }

  void copy_async(StreamImpl& stream, void* dst, const void* src, std::size_t bytes) override {
    cuda_streams::copy_async(stream, dst, src, bytes);
  }
  void copy_peer_async(StreamImpl& stream, void* dst, int dst_ordinal, const void* src, int src_ordinal,
                       std::size_t bytes) override {
    cuda_streams::copy_peer_async(stream, dst, dst_ordinal, src, src_ordinal, bytes);
  }

  LinkInfo link(int a, int b) const override {
    return links_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  }

  // enabled_ mirrors the peer access this backend turned on. CUDA's own state is process-wide and
  // changes behind its back when the program calls cudaDeviceEnablePeerAccess /
  // cudaDeviceDisablePeerAccess itself or resets either device of a pair (access lasts "until
  // access is explicitly disabled ... or either device is reset using cudaDeviceReset()", its
  // documentation): path choice and the mapping checks then go by a stale table, so peer access is
  // managed through PeerMemory only (docs/runtime.md).
  void enable_peer_access(int a, int b, int a_id, int b_id) override {
    if (!link(a, b).peer_access_supported)
      throw Error(errc::peer_access_unsupported, "PeerMemory::enable_peer_access", a_id,
                  cuda_peer_refusal(query_failures_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)], a_id,
                                    b_id, pci_[static_cast<std::size_t>(a)], pci_[static_cast<std::size_t>(b)]));
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
  // Free memory of the device now, or 0 (unknown) where CUDA cannot say. cudaMemGetInfo reports
  // for the current context, so it needs the device's primary context: the first query creates it
  // (device memory and time). That fails for a GPU in exclusive-process mode that another process
  // uses and for one in prohibited mode (cudaSetDevice's documentation; cudaErrorDevicesUnavailable
  // in driver_types.h), and after a sticky error. Enumeration must not fail on it: devices() and
  // device(id) list the device with 0 free bytes, and the error is dropped.
  static std::size_t query_free_memory(int ordinal) noexcept {
    try {
      DeviceGuard guard(ordinal);
      std::size_t free = 0, total = 0;
      const cudaError_t e = cudaMemGetInfo(&free, &total);
      ignore_error(e);
      return e == cudaSuccess ? free : 0;
    } catch (...) {  // DeviceGuard: cudaSetDevice refused the device
      return 0;
    }
  }

  // This backend's ordinal of a global device id (-1 if the id is none of its devices). For the
  // calls that get only the id (backend.h); the registry numbers them, not the backend.
  int ordinal_of(int device_id) const noexcept {
    try {
      const auto ref = Registry::instance().resolve(device_id, "CudaBackend");
      return ref.backend.get() == this ? ref.ordinal : -1;
    } catch (...) {
      return -1;
    }
  }

  std::string note_;
  std::vector<cudaDeviceProp> props_;
  std::vector<std::string> pci_;
  std::vector<std::vector<LinkInfo>> links_;
  std::vector<std::vector<std::string>> query_failures_;  // [a][b]: why the peer query failed, empty if it did not
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
