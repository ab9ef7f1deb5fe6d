// Copyright RingKernel authors.
// The host backend: virtual devices whose memory is host memory, with an allocation table
// (host_allocations.h) and per-device capacity, worker-thread streams, events and a configurable peer topology.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "aligned_host_memory.h"
#include "host_allocations.h"
#include "host_backend_seams.h"
#include "host_stream.h"
#include "pinned_allocations.h"
#include "registry.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

namespace {

std::atomic<bool> refuse_peer_access{false};   // the test seams (host_backend_seams.h)
std::atomic<bool> refuse_pinned_memory{false};

class HostBackend final : public DeviceBackend {
 public:
  explicit HostBackend(HostBackendConfig config)
      : config_(std::move(config)), devices_(static_cast<std::size_t>(config_.device_count)) {}

  ~HostBackend() override {
    for (void* p : allocations_.take_all()) free_aligned_host(p);
    for (void* p : pinned_.take_all()) free_aligned_host(p);
  }

  Backend kind() const noexcept override { return Backend::host; }

  BackendStatus status() const override {
    return BackendStatus{Backend::host, config_.device_count > 0, config_.device_count,
                         "virtual devices in host memory: " + config_.describe()};
  }

  int device_count() const noexcept override { return config_.device_count; }

  DeviceInfo describe(int ordinal) const override {
    DeviceInfo info;
    info.ordinal = ordinal;
    info.backend = Backend::host;
    info.name = "RingKernel host device " + std::to_string(ordinal);
    info.total_memory = config_.memory_per_device;
    {
      std::lock_guard lock(mutex_);
      info.free_memory = config_.memory_per_device - devices_[static_cast<std::size_t>(ordinal)].used;
    }
    info.compute_units = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    info.capabilities = Capability::unified_memory | Capability::managed_memory;
    if (config_.native_atomics) info.capabilities |= Capability::host_native_atomics;
    for (int other = 0; other < config_.device_count; ++other)
      if (config_.linked(ordinal, other)) info.capabilities |= Capability::peer_to_peer;
    return info;
  }

  void* allocate(int ordinal, std::size_t bytes, int device_id) override {
    if (bytes == 0) return nullptr;
    std::lock_guard lock(mutex_);
    auto& d = devices_[static_cast<std::size_t>(ordinal)];
    if (bytes > config_.memory_per_device - d.used)
      throw Error(errc::out_of_memory, "DeviceBuffer::DeviceBuffer", device_id,
                  "cannot allocate " + std::to_string(bytes) + " bytes: " +
                      std::to_string(config_.memory_per_device - d.used) + " of " +
                      std::to_string(config_.memory_per_device) + " bytes free");
    // A block past the end, to a 256-byte boundary and 256 bytes more (HostAllocations::block_bytes):
    // the address one past the end, which counts as the allocation's (empty ranges at its end), and
    // at least 256 bytes after it are the backend's, so an overrun that starts up to 256 bytes past
    // the end starts in the block's padding (refused), never in host memory of the program. Allocators without chunk headers (jemalloc, tcmalloc, the
    // sanitizers') put objects side by side, and host memory there would pass for the buffer's.
    const std::size_t block = HostAllocations::block_bytes(bytes);
    void* p = block == 0 ? nullptr : allocate_aligned_host(block);
    if (!p)
      throw Error(errc::out_of_memory, "DeviceBuffer::DeviceBuffer", device_id,
                  "host allocation of " + std::to_string(bytes) + " bytes failed");
    try {
      allocations_.add(p, ordinal, bytes);
    } catch (...) {  // std::bad_alloc of the table's node: the block must not leak
      free_aligned_host(p);
      throw Error(errc::out_of_memory, "DeviceBuffer::DeviceBuffer", device_id,
                  "cannot record the allocation of " + std::to_string(bytes) + " bytes: out of host memory");
    }
    d.used += bytes;
    return p;
  }

  // Like cudaFree (which synchronizes the device): work already queued, a copy into the buffer for
  // instance, finishes before the memory goes back. Every device's streams: a direct peer copy
  // into or out of the buffer may be queued on a stream of the other device.
  void release(int ordinal, void* p) noexcept override {
    if (!p) return;
    for (int device = 0; device < config_.device_count; ++device) synchronize_device(device, -1);
    std::lock_guard lock(mutex_);
    auto& d = devices_[static_cast<std::size_t>(ordinal)];
    const auto bytes = allocations_.remove(p, ordinal);
    if (!bytes) return;  // owners only release what they allocated
    d.used -= *bytes;
    free_aligned_host(p);
  }

  void* allocate_pinned(std::size_t bytes, int device_id) override {
    if (bytes == 0) return nullptr;
    if (refuse_pinned_memory.load(std::memory_order_relaxed))
      throw Error(errc::out_of_memory, "PinnedBuffer::PinnedBuffer", device_id,
                  "host allocation of " + std::to_string(bytes) +
                      " bytes refused by the test seam (refuse_host_pinned_memory_for_testing)");
    void* p = allocate_aligned_host(bytes);
    if (!p)
      throw Error(errc::out_of_memory, "PinnedBuffer::PinnedBuffer", device_id,
                  "host allocation of " + std::to_string(bytes) + " bytes failed");
    try {
      pinned_.add(p, bytes);
    } catch (...) {  // as allocate()
      free_aligned_host(p);
      throw Error(errc::out_of_memory, "PinnedBuffer::PinnedBuffer", device_id,
                  "cannot record the allocation of " + std::to_string(bytes) + " bytes: out of host memory");
    }
    return p;
  }

  // Pinned memory serves every device's streams: all of them finish their queued work first.
  void release_pinned(void* p) noexcept override {
    if (!p) return;
    for (int ordinal = 0; ordinal < config_.device_count; ++ordinal) synchronize_device(ordinal, -1);
    if (!pinned_.remove(p)) return;
    free_aligned_host(p);
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

  void copy_sync(void* dst, const void* src, std::size_t bytes, int) override {
    if (bytes != 0) std::memcpy(dst, src, bytes);
  }

  // A stream is a worker thread, which the process may have no room for (a pids limit, address
  // space): a ringkernel::Error like every other failure of the backend, not std::system_error.
  std::shared_ptr<StreamImpl> create_stream(int ordinal, int device_id) override {
    std::shared_ptr<HostStream> stream;
    try {
      stream = std::make_shared<HostStream>();
    } catch (const std::system_error& e) {
      const bool exhausted = e.code() == std::errc::resource_unavailable_try_again ||
                             e.code() == std::errc::not_enough_memory;
      throw Error(exhausted ? errc::out_of_memory : errc::backend_failure, "Stream::Stream", device_id,
                  std::string("cannot start the worker thread of a host stream: ") + e.what());
    }
    std::lock_guard lock(mutex_);
    auto& list = devices_[static_cast<std::size_t>(ordinal)].streams;
    std::erase_if(list, [](const auto& w) { return w.expired(); });
    list.push_back(stream);
    return stream;
  }

  std::shared_ptr<EventImpl> create_event(int, int) override {
    return std::make_shared<HostEvent>();
  }

  // One step with respect to the stream (HostStream::enqueue_record), as cudaEventRecord.
  void record(EventImpl& event, StreamImpl& stream) override {
    static_cast<HostStream&>(stream).enqueue_record(static_cast<HostEvent&>(event));
  }

  // The latest record already queued on its stream (HostEvent::latest), as cudaStreamWaitEvent:
  // never one that another thread's record is still queuing, which could end up behind this wait.
  void wait(StreamImpl& stream, EventImpl& event) override {
    auto e = static_cast<HostEvent&>(event).shared_from_this();
    const auto generation = e->latest();
    if (generation == 0) return;  // never recorded: nothing to wait for (as in CUDA)
    static_cast<HostStream&>(stream).enqueue([e, generation] { e->wait_for(generation); });
  }

  void synchronize(EventImpl& event) override {
    auto& e = static_cast<HostEvent&>(event);
    e.wait_for(e.latest());
  }

  bool completed(EventImpl& event) override {
    auto& e = static_cast<HostEvent&>(event);
    return e.reached(e.latest());
  }

  void synchronize(StreamImpl& stream) override { static_cast<HostStream&>(stream).synchronize(); }
  bool idle(StreamImpl& stream) override { return static_cast<HostStream&>(stream).idle(); }

  void synchronize_device(int ordinal, int) override {
    std::vector<std::shared_ptr<HostStream>> live;
    {
      std::lock_guard lock(mutex_);
      for (const auto& w : devices_[static_cast<std::size_t>(ordinal)].streams)
        if (auto s = w.lock()) live.push_back(std::move(s));
    }
    for (const auto& s : live) s->synchronize();
  }

  // A host device's kernels are host threads: they read the host's own clock.
  WallClockOffset wall_clock_offset(int, int) override { return {}; }

  void copy_async(StreamImpl& stream, void* dst, const void* src, std::size_t bytes) override {
    if (bytes == 0) return;
    static_cast<HostStream&>(stream).enqueue([dst, src, bytes] { std::memcpy(dst, src, bytes); });
  }

  void copy_peer_async(StreamImpl& stream, void* dst, int, const void* src, int,
                       std::size_t bytes) override {
    copy_async(stream, dst, src, bytes);
  }

  LinkInfo link(int a, int b) const override {
    if (config_.linked(a, b))
      return LinkInfo{AccessType::virtual_link, true, config_.native_atomics, 0};
    return LinkInfo{AccessType::host_routed, false, false, 0};
  }

  void enable_peer_access(int a, int b, int a_id, int b_id) override {
    if (!config_.linked(a, b))
      throw Error(errc::peer_access_unsupported, "PeerMemory::enable_peer_access", a_id,
                  "host devices " + std::to_string(a_id) + " and " + std::to_string(b_id) +
                      " have no direct link in the host topology (" + config_.describe() +
                      "; set RINGKERNEL_HOST_TOPOLOGY or configure_host_backend()); copies "
                      "between them are host-staged");
    std::lock_guard lock(mutex_);
    if (refuse_peer_access.load(std::memory_order_relaxed) && !enabled_.count({a, b}))
      throw Error(errc::backend_failure, "PeerMemory::enable_peer_access", a_id,
                  "refused by the test seam (refuse_host_peer_access_for_testing)");
    enabled_.insert({a, b});
  }

  void disable_peer_access(int a, int b, int, int) override {
    std::lock_guard lock(mutex_);
    enabled_.erase({a, b});
  }

  bool peer_access_enabled(int a, int b) const override {
    std::lock_guard lock(mutex_);
    return enabled_.count({a, b}) != 0;
  }

 private:
  struct VirtualDevice {
    std::size_t used = 0;
    std::vector<std::weak_ptr<HostStream>> streams;
  };

  const HostBackendConfig config_;
  mutable std::mutex mutex_;
  std::vector<VirtualDevice> devices_;
  HostAllocations allocations_;  // its own lock
  PinnedAllocations pinned_;  // its own lock
  std::set<std::pair<int, int>> enabled_;
};

}  // namespace

void refuse_host_peer_access_for_testing(bool on) noexcept { refuse_peer_access.store(on, std::memory_order_relaxed); }
void refuse_host_pinned_memory_for_testing(bool on) noexcept { refuse_pinned_memory.store(on, std::memory_order_relaxed); }

std::shared_ptr<DeviceBackend> make_host_backend(const HostBackendConfig& config) {
  validate_host_config(config, "configure_host_backend");
  return std::make_shared<HostBackend>(config);
}

}  // namespace ringkernel::detail
