// Copyright RingKernel authors.
// Compiled by the tests messaging.ring_alignment.*: a ring of an element aligned to more than the
// 128 bytes its slots are placed at would hand out misaligned slots and must not compile
// (RK_OVERALIGNED_MPMC, RK_OVERALIGNED_SPSC: the build fails with the static_assert's text); the
// largest supported alignment must (no macro: compiles cleanly).
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/spsc_ring.h"

struct alignas(256) Overaligned {
  int value;
};
struct alignas(128) LineAligned {
  int value;
};

#if defined(RK_OVERALIGNED_MPMC)
template class ringkernel::mpmc_ring<Overaligned>;
#elif defined(RK_OVERALIGNED_SPSC)
template class ringkernel::spsc_ring<Overaligned>;
#else
template class ringkernel::mpmc_ring<LineAligned>;
template class ringkernel::spsc_ring<LineAligned>;
#endif
