// Copyright RingKernel authors.
// The interface every backend (cuda, host) implements. Private to the runtime. Backends work with
// their own ordinals; the registry maps global device ids to (backend, ordinal) and does the
// argument checks that do not need backend knowledge.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ringkernel/device.h"
#include "ringkernel/topology.h"
#include "ringkernel/wall_clock_offset.h"

namespace ringkernel::detail {

/// Backend-specific stream / event state; each backend downcasts only its own objects.
/// native_handle(): the cudaStream_t / cudaEvent_t behind it, null where there is none (host).
class StreamImpl {
 public:
  virtual ~StreamImpl() = default;
  virtual void* native_handle() const noexcept { return nullptr; }
};
class EventImpl {
 public:
  virtual ~EventImpl() = default;
  virtual void* native_handle() const noexcept { return nullptr; }
};

/// What a backend knows about the link from ordinal a to ordinal b (a != b).
struct LinkInfo {
  AccessType access = AccessType::host_routed;
  bool peer_access_supported = false;
  bool native_atomics = false;
  int backend_rank = 0;  // the backend's own performance rank, lower is faster
};

class DeviceBackend {
 public:
  DeviceBackend() : serial_(next_serial()) {}
  virtual ~DeviceBackend() = default;
  DeviceBackend(const DeviceBackend&) = delete;
  DeviceBackend& operator=(const DeviceBackend&) = delete;

  /// Unique per backend object of the process, never reused (unlike its address, which a backend
  /// made after this one is destroyed may take): for tables keyed by backend.
  std::uint64_t serial() const noexcept { return serial_; }

  virtual Backend kind() const noexcept = 0;
  virtual BackendStatus status() const = 0;
  virtual int device_count() const noexcept = 0;
  /// Everything but DeviceInfo::id, which the registry fills.
  virtual DeviceInfo describe(int ordinal) const = 0;

  // Memory. `device_id` is the global id, only used in error messages.
  virtual void* allocate(int ordinal, std::size_t bytes, int device_id) = 0;
  virtual void release(int ordinal, void* p) noexcept = 0;
  virtual void* allocate_pinned(std::size_t bytes, int device_id) = 0;
  virtual void release_pinned(void* p) noexcept = 0;
  /// The ordinal whose device memory contains p, or -1 (host memory or unknown).
  virtual int owner_of(const void* p) const noexcept = 0;
  /// Whether p lies in pinned memory this backend allocated (allocate_pinned) and has not released.
  virtual bool owns_pinned(const void* p) const noexcept = 0;
  /// Error unless [p, p + bytes) is memory of `ordinal`; `what` names the argument.
  virtual void check_device_range(int ordinal, const void* p, std::size_t bytes,
                                  const char* call, const char* what, int device_id) const = 0;
  /// Error(out_of_range) if [p, p + bytes), taken for host memory (owner_of(p) is -1), runs into
  /// device memory this backend allocated; `first_id`: the global id of ordinal 0.
  virtual void check_host_range(const void* p, std::size_t bytes, const char* call, const char* what,
                                int first_id) const = 0;
  virtual void copy_sync(void* dst, const void* src, std::size_t bytes, int device_id) = 0;

  // Streams and events.
  virtual std::shared_ptr<StreamImpl> create_stream(int ordinal, int device_id) = 0;
  virtual std::shared_ptr<EventImpl> create_event(int ordinal, int device_id) = 0;
  virtual void record(EventImpl& event, StreamImpl& stream) = 0;
  virtual void wait(StreamImpl& stream, EventImpl& event) = 0;
  virtual void synchronize(EventImpl& event) = 0;
  virtual bool completed(EventImpl& event) = 0;
  virtual void synchronize(StreamImpl& stream) = 0;
  virtual bool idle(StreamImpl& stream) = 0;
  virtual void synchronize_device(int ordinal, int device_id) = 0;
  /// The device's wall clock (wall_clock_us() in its kernels) against the host's, measured.
  virtual WallClockOffset wall_clock_offset(int ordinal, int device_id) = 0;

  // Stream-ordered copies. copy_async: host <-> device or within one device.
  virtual void copy_async(StreamImpl& stream, void* dst, const void* src, std::size_t bytes) = 0;
  virtual void copy_peer_async(StreamImpl& stream, void* dst, int dst_ordinal, const void* src,
                               int src_ordinal, std::size_t bytes) = 0;

  // Peer access (a may access b's memory).
  virtual LinkInfo link(int a, int b) const = 0;
  virtual void enable_peer_access(int a, int b, int a_id, int b_id) = 0;
  virtual void disable_peer_access(int a, int b, int a_id, int b_id) = 0;
  virtual bool peer_access_enabled(int a, int b) const = 0;

 private:
  static std::uint64_t next_serial() noexcept {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
  const std::uint64_t serial_;
};

}  // namespace ringkernel::detail
