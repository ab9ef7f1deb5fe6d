// Copyright RingKernel authors.
// Compiled by the tests messaging.device_call_in_host_code.*: the device-only calls (warp_push,
// warp_pop, warp_push_batch, warp_pop_batch, on_device) in a file a host compiler builds fail at the
// call with a static_assert that says they are device code and what host code uses instead (before,
// "'warp_push' is not a member of 'ringkernel'"). Without a macro it compiles: the host calls, and a
// user's own warp_push / on_device called unqualified on a ring, which argument-dependent lookup
// must not take to ringkernel's (a forwarding-reference stub there won over the user's const T&).
#include <cstdint>

#include "ringkernel/device_visitor.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/warp_enqueue.h"

using Ring = ringkernel::mpmc_ring<std::uint64_t>;

namespace sim {  // a user's host-side stand-ins of the same names
template <class T, ringkernel::atomic_scope Scope, ringkernel::atomic_scope IndexScope>
bool warp_push(const ringkernel::mpmc_ring<T, Scope, IndexScope>&, const T&) {
  return true;
}
template <class V>
V&& on_device(V&& v) {
  return static_cast<V&&>(v);
}

inline bool simulate(const Ring& ring, std::uint64_t value) {
  return warp_push(ring, value) && &on_device(ring) == &ring;  // unqualified: sim's, not ringkernel's
}
}  // namespace sim

struct Visitor {
  void operator()(std::uint64_t) const {}
};

bool use(Ring ring, std::uint64_t* values) {  // a view, passed by value as to a kernel
#if defined(RK_WARP_PUSH)
  return ringkernel::warp_push(ring, values[0]);
#elif defined(RK_WARP_POP)
  return ringkernel::warp_pop(ring, values[0]);
#elif defined(RK_WARP_PUSH_BATCH)
  return ringkernel::warp_push_batch(0xffffffffu, ring, values, 4u) == 4u;
#elif defined(RK_WARP_POP_BATCH)
  return ringkernel::warp_pop_batch(0xffffffffu, ring, values, 4u) == 4u;
#elif defined(RK_ON_DEVICE)
  ringkernel::on_device(Visitor{})(values[0]);
  return ring.try_push(values[0]);
#else
  Visitor{}(values[0]);
  return sim::simulate(ring, values[0]) && ring.try_push(values[0]) && ring.try_pop(values[1]);
#endif
}
