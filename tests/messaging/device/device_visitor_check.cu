// Copyright RingKernel authors.
// ringkernel::on_device (ringkernel/device_visitor.h): through it, the registry's dispatch,
// dispatch_envelope and dispatch_kernel_message and message_traits<T>::visit_fields call a visitor in device code with nvcc's
// host/device check in force. A host-only visitor is then a compile error (test
// messaging.device_visitor_check.host_only_*, one per call) instead of a call nvcc silently drops; device visitors
// compile clean under -Werror (messaging.device_visitor_check.device).
#include <cstddef>
#include <cstdint>

#include "messaging.registry.rk.h"
#include "ringkernel/device_visitor.h"

namespace reg = ringkernel::registry::messaging;

#ifdef RK_HOST_ONLY_VISITOR
struct Counter {  // no __device__: runs on the host only
  unsigned* n;
  template <class T>
  void operator()(const T&) const { ++*n; }
  template <class I, class F>
  void operator()(I, const F&) const { ++*n; }
};
#else
struct Counter {
  unsigned* n;
  template <class T>
  __device__ void operator()(const T&) const { atomicAdd(n, 1u); }
  template <class I, class F>
  __device__ void operator()(I, const F&) const { atomicAdd(n, 1u); }
};
#endif

__global__ void route(const std::uint8_t* in, std::size_t size, const void* raw, std::uint32_t type_id,
                      const messaging_test::Tagged* tagged, unsigned* n) {
  // RK_PATH (1, 2, 3, 4) compiles one of the four calls, so that each is checked on its own.
  [[maybe_unused]] Counter counter{n};
#if !defined(RK_PATH) || RK_PATH == 1
  if (reg::dispatch(type_id, raw, ringkernel::on_device(counter))) atomicAdd(n, 100u);
#endif
#if !defined(RK_PATH) || RK_PATH == 2
  if (reg::dispatch_envelope(in, size, ringkernel::on_device(Counter{n})).status == ringkernel::codec_status::ok) {
    atomicAdd(n, 1000u);
  }
  auto kept = ringkernel::on_device(Counter{n});  // a temporary visitor is copied: safe to keep
  (void)reg::dispatch_envelope(in, size, kept);
#endif
#if !defined(RK_PATH) || RK_PATH == 3
  ringkernel::message_traits<messaging_test::Tagged>::visit_fields(*tagged, ringkernel::on_device(counter));
#endif
#if !defined(RK_PATH) || RK_PATH == 4
  if (reg::dispatch_kernel_message(raw, size, ringkernel::on_device(counter)).status == ringkernel::codec_status::ok) {
    atomicAdd(n, 10000u);
  }
#endif
  (void)in, (void)size, (void)raw, (void)type_id, (void)tagged;
}

// Host code in the same file still passes host-only visitors to dispatch directly.
unsigned count_on_host(std::uint32_t type_id, const void* raw) {
  unsigned n = 0;
  reg::dispatch(type_id, raw, [&n](const auto&) { ++n; });
  return n;
}
