// Copyright RingKernel authors.
// The CUDA backend's streams and events and its calls on them. Each knows its device and the
// context it was made in, and every call on it, its destruction included, runs in that context
// (cuda_call::ContextScope): from a thread with no context bound (one that made no CUDA call yet),
// the runtime would otherwise bind and initialise the primary context of the thread's current
// device, device 0 unless the thread chose another, and leave it bound. Errors name the call and
// the object's device (the backend's ordinal). Only cuda_backend.cpp includes it (compiled with
// CUDA only).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "backend.h"
#include "cuda_call.h"
#include "cuda_driver_entry.h"

namespace ringkernel::detail::cuda_streams {

struct CudaStream final : StreamImpl {
  CudaStream(cudaStream_t s, int o, CUcontext c) : stream(s), ordinal(o), context(c) {}
  ~CudaStream() override {
    const cuda_call::ContextScope scope(context);
    cuda_call::ignore_error(cudaStreamDestroy(stream));
  }
  void* native_handle() const noexcept override { return stream; }
  cudaStream_t stream;
  int ordinal;
  CUcontext context;  // current when the stream was made (null where the driver could not say)
};

struct CudaEvent final : EventImpl {
  CudaEvent(cudaEvent_t e, int o, CUcontext c) : event(e), ordinal(o), context(c) {}
  ~CudaEvent() override {
    const cuda_call::ContextScope scope(context);
    cuda_call::ignore_error(cudaEventDestroy(event));
  }
  void* native_handle() const noexcept override { return event; }
  cudaEvent_t event;
  int ordinal;
  CUcontext context;  // current when the event was made (null where the driver could not say)
};

inline CudaStream& of(StreamImpl& s) { return static_cast<CudaStream&>(s); }
inline CudaEvent& of(EventImpl& e) { return static_cast<CudaEvent&>(e); }

// Made with the device current (DeviceGuard): its primary context, which the object then keeps.
inline std::shared_ptr<StreamImpl> create_stream(int ordinal) {
  cuda_call::DeviceGuard guard(ordinal);
  cudaStream_t s = nullptr;
  cuda_call::check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", ordinal);
  try {
    return std::make_shared<CudaStream>(s, ordinal, cuda_driver::current_context());
  } catch (...) {  // std::bad_alloc: no stream without its owner
    cuda_call::ignore_error(cudaStreamDestroy(s));
    throw;
  }
}

inline std::shared_ptr<EventImpl> create_event(int ordinal) {
  cuda_call::DeviceGuard guard(ordinal);
  cudaEvent_t e = nullptr;
  cuda_call::check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags", ordinal);
  try {
    return std::make_shared<CudaEvent>(e, ordinal, cuda_driver::current_context());
  } catch (...) {  // std::bad_alloc: no event without its owner
    cuda_call::ignore_error(cudaEventDestroy(e));
    throw;
  }
}

inline void record(EventImpl& event, StreamImpl& stream) {
  const CudaStream& s = of(stream);
  const cuda_call::ContextScope scope(s.context);
  cuda_call::check(cudaEventRecord(of(event).event, s.stream), "cudaEventRecord", s.ordinal);
}

inline void wait(StreamImpl& stream, EventImpl& event) {
  const CudaStream& s = of(stream);
  const cuda_call::ContextScope scope(s.context);
  cuda_call::check(cudaStreamWaitEvent(s.stream, of(event).event, 0), "cudaStreamWaitEvent", s.ordinal);
}

inline void synchronize(EventImpl& event) {
  const CudaEvent& e = of(event);
  const cuda_call::ContextScope scope(e.context);
  cuda_call::check(cudaEventSynchronize(e.event), "cudaEventSynchronize", e.ordinal);
}

inline bool completed(EventImpl& event) {
  const CudaEvent& e = of(event);
  const cuda_call::ContextScope scope(e.context);
  const cudaError_t result = cudaEventQuery(e.event);
  if (result == cudaErrorNotReady) return false;
  cuda_call::check(result, "cudaEventQuery", e.ordinal);
  return true;
}

inline void synchronize(StreamImpl& stream) {
  const CudaStream& s = of(stream);
  const cuda_call::ContextScope scope(s.context);
  cuda_call::check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize", s.ordinal);
}

inline bool idle(StreamImpl& stream) {
  const CudaStream& s = of(stream);
  const cuda_call::ContextScope scope(s.context);
  const cudaError_t result = cudaStreamQuery(s.stream);
  if (result == cudaErrorNotReady) return false;
  cuda_call::check(result, "cudaStreamQuery", s.ordinal);
  return true;
}

inline void copy_async(StreamImpl& stream, void* dst, const void* src, std::size_t bytes) {
  const CudaStream& s = of(stream);
  const cuda_call::ContextScope scope(s.context);
  cuda_call::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s.stream), "cudaMemcpyAsync", s.ordinal);
}

inline void copy_peer_async(StreamImpl& stream, void* dst, int dst_ordinal, const void* src, int src_ordinal,
                            std::size_t bytes) {
  const CudaStream& s = of(stream);
  const cuda_call::ContextScope scope(s.context);
  cuda_call::check(cudaMemcpyPeerAsync(dst, dst_ordinal, src, src_ordinal, bytes, s.stream), "cudaMemcpyPeerAsync",
                   s.ordinal);
}

}  // namespace ringkernel::detail::cuda_streams
