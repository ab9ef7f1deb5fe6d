// Copyright RingKernel authors.
// ringkernel::Stream: an in-order queue of work on one device (a cudaStream_t on cuda, a worker
// thread on host: an OS thread per stream). Move-only RAII owner. Thread-safe: several threads may
// call its member functions at once (each call is one step on the stream); moving from, assigning to
// or destroying it while another thread uses it is not (docs/runtime.md, "Threads").
#pragma once

#include <cstddef>
#include <memory>

namespace ringkernel {

namespace detail {
class DeviceBackend;
class StreamImpl;
}  // namespace detail

class Event;

class Stream {
 public:
  /// On the host backend an Error (out_of_memory when the process has no room for another thread:
  /// a pids or tasks limit, say) if its worker thread cannot be started.
  explicit Stream(int device);
  /// A moved-from stream has device() == -1; every call on it is Error(invalid_state).
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  /// CUDA: returns at once (cudaStreamDestroy) and the work queued on the stream goes on, so memory
  /// that work uses must not be freed yet: synchronize() first. Host backend: waits until the
  /// queued work is done. Code tested only on the host backend does not catch the difference.
  ~Stream();

  int device() const noexcept { return device_; }

  /// Stream-ordered copy between host memory and this stream's device, or within that device
  /// (like cudaMemcpyAsync with cudaMemcpyDefault). Memory of any other device is an Error:
  /// peer copies go through PeerMemory.
  void copy_async(void* dst, const void* src, std::size_t bytes);

  /// Work enqueued after this call starts only when `event`'s latest record has completed; the
  /// event may belong to another device of the same backend (cross-device ordering).
  void wait(const Event& event);

  /// Block until all work enqueued so far is done.
  void synchronize();
  /// True if all work enqueued so far is done.
  bool idle() const;

  /// The cudaStream_t of a CUDA-backend stream (as void*; ringkernel/cuda_interop.h gives it its
  /// type), for launching kernels and CUDA calls in order with this stream's work; null for a
  /// host-backend stream (a worker thread). The stream keeps owning it. Error(invalid_state) if
  /// moved from.
  void* native_handle() const;

  detail::StreamImpl& impl() const;  // for the runtime's own use
  const std::shared_ptr<detail::DeviceBackend>& backend() const noexcept { return backend_; }

 private:
  int device_ = -1;
  int ordinal_ = -1;  // inside its backend
  std::shared_ptr<detail::DeviceBackend> backend_;
  std::shared_ptr<detail::StreamImpl> impl_;
};

}  // namespace ringkernel
