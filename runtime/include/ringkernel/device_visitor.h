// Copyright RingKernel authors.
// ringkernel::on_device(visitor): hands a visitor to the generated registry's dispatch and
// dispatch_envelope, or to message_traits<T>::visit_fields, in device code with nvcc's host/device
// check in force. Those are __host__ __device__ templates whose check is off, so that host code
// may pass host-only visitors; a host-only visitor in device code then compiles without a word and
// nvcc drops its call (the messages are lost). Through on_device the visitor is called from a
// __device__ function: a host-only one is a compile error.
//
//   __global__ void route(const std::uint8_t* in, std::size_t size, Stats* stats) {
//     Handlers handlers{stats};  // __device__ (or __host__ __device__) call operators
//     ringkernel::registry::app::dispatch_envelope(in, size, ringkernel::on_device(handlers));
//   }
#pragma once

#include "ringkernel/config.h"

#if defined(__CUDACC__)

namespace ringkernel {

/// Calls the wrapped visitor from device code only; made by on_device() in device code. Holds a
/// reference to an lvalue visitor (`Visitor` = `V&`) and a copy of a temporary one (`Visitor` = `V`),
/// so a wrapper kept in a variable never refers to a destroyed visitor.
template <class Visitor>
class device_visitor {
 public:
  template <class V>
  __device__ explicit device_visitor(V&& visitor) : visitor_(static_cast<V&&>(visitor)) {}

  template <class... Args>
  __device__ decltype(auto) operator()(Args&&... args) {
    return visitor_(static_cast<Args&&>(args)...);
  }
  template <class... Args>
  __device__ decltype(auto) operator()(Args&&... args) const {
    return visitor_(static_cast<Args&&>(args)...);
  }

 private:
  Visitor visitor_;
};

/// `visitor` for a visiting call in device code; constructing it in host code is a compile error.
template <class Visitor>
__device__ device_visitor<Visitor> on_device(Visitor&& visitor) {
  return device_visitor<Visitor>(static_cast<Visitor&&>(visitor));
}

}  // namespace ringkernel

#else  // a host compiler: on_device exists only to say, at the call, why it cannot be used here

namespace ringkernel {
namespace detail {
template <class...>
inline constexpr bool on_device_in_host_code = false;

// An object, not a function: argument-dependent lookup and overload resolution never prefer it to a
// user's own on_device; a call through ringkernel:: stops the build saying why.
struct host_on_device {
  template <class Visitor>
  Visitor&& operator()(Visitor&& visitor) const noexcept {
    static_assert(on_device_in_host_code<Visitor>,
                  "ringkernel::on_device wraps a visitor for device code: call it in a kernel, in a file nvcc "
                  "compiles as CUDA (.cu); host code passes its visitor to dispatch directly");
    return static_cast<Visitor&&>(visitor);
  }
};
}  // namespace detail

// Internal linkage: no name shared with CUDA files ([[maybe_unused]]: as warp_push, warp_enqueue.h).
[[maybe_unused]] constexpr detail::host_on_device on_device{};

}  // namespace ringkernel

#endif  // __CUDACC__
