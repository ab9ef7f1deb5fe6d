// Copyright RingKernel authors.
// ringkernel::Event: a marker recorded into a stream; other streams (also on other devices of the
// same backend) and the host can wait for it. Move-only RAII owner. Thread-safe as Stream is: record()
// and a wait of another thread are each one step, so a wait is for a record already queued, never for
// one queued behind it; moving from, assigning to or destroying it while another thread uses it is not.
#pragma once

#include <memory>

namespace ringkernel {

namespace detail {
class DeviceBackend;
class EventImpl;
}  // namespace detail

class Stream;

class Event {
 public:
  explicit Event(int device);
  /// A moved-from event has device() == -1; every call on it is Error(invalid_state).
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  int device() const noexcept { return device_; }

  /// Capture all work enqueued on `stream` so far; `stream` must be on this event's device (and
  /// of the same host configuration: not one created before configure_host_backend()).
  void record(Stream& stream);
  /// Block until the latest record (queued when called) has completed (returns at once if never
  /// recorded).
  void synchronize() const;
  /// True if the latest record has completed (or there was none).
  bool completed() const;

  /// The cudaEvent_t of a CUDA-backend event (as void*; see ringkernel/cuda_interop.h), e.g. for
  /// cudaStreamWaitEvent on a stream of your own; null for a host-backend event. The event keeps
  /// owning it. Error(invalid_state) if moved from.
  void* native_handle() const;

  detail::EventImpl& impl() const;  // for the runtime's own use
  const std::shared_ptr<detail::DeviceBackend>& backend() const noexcept { return backend_; }

 private:
  int device_ = -1;
  std::shared_ptr<detail::DeviceBackend> backend_;
  std::shared_ptr<detail::EventImpl> impl_;
};

}  // namespace ringkernel
