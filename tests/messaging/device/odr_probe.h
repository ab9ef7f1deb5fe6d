// Copyright RingKernel authors.
// Body of the two translation units of the ODR check (tests/check_odr.cmake): one compiled by nvcc
// (odr_probe.cu), one by the host compiler (odr_probe.cpp). Each explicitly instantiates
// odr_probes<Unit> with its own Unit: a function per runtime class that host code of both kinds of
// translation unit shares (atomic words, rings, queues, the P2P queue, the clock, the stamper, the
// envelope and its codec, the MessagePack reader, deadlines), taking the class in its signature and
// calling a member, so that link-time optimisation compares the two definitions of every class
// (GCC's -Wodr). A class whose members differ between nvcc and g++ translation units (atomic_word
// once held a cuda::atomic_ref in one and a std::atomic_ref in the other) fails the link.
#pragma once

#include <cstddef>
#include <cstdint>

#include "messaging_messages.rk.h"
#include "ringkernel/codec.h"
#include "ringkernel/deadline.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/hlc.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/queue/message_queue.h"

namespace odr_check {

using ringkernel::atomic_scope;
using ringkernel::detail::order;
using messaging_test::Blob64;
using messaging_test::Tagged;
using messaging_test::Tick;

template <int Unit>
struct odr_probes {
  static std::uint64_t system_word(ringkernel::detail::atomic_word<atomic_scope::system>& w) {
    return w.fetch_add(1, order::acq_rel);
  }
  static std::uint64_t device_word(ringkernel::detail::atomic_word<atomic_scope::device>& w) {
    return w.load(order::acquire);
  }
  static std::uint64_t spsc(ringkernel::spsc_ring<Blob64, atomic_scope::system>& r) { return r.size(); }
  static std::uint64_t mpmc(ringkernel::mpmc_ring<Tagged, atomic_scope::device>& r) { return r.size(); }
  static std::size_t spsc_queue(ringkernel::SpscQueue<Blob64>& q) { return q.count(); }
  static std::size_t mpmc_queue(ringkernel::MpmcQueue<Tagged>& q) { return q.count(); }
  static std::size_t p2p_queue(ringkernel::P2PMessageQueue<Tagged>& q) { return q.capacity(); }
  static std::uint64_t clock(ringkernel::HybridLogicalClock& c) { return c.now_at(1).bits; }
  static std::uint64_t stamper(ringkernel::MessageStamper& s) { return s.next_sequence(); }
  static bool envelopes(const ringkernel::KernelMessage<Tick>& a, const ringkernel::KernelMessage<Tagged>& b) {
    return a == a && b == b;
  }
  static ringkernel::codec_result envelope_codec(const std::uint8_t* in, std::size_t size,
                                                 ringkernel::KernelMessage<Tick>& m) {
    return ringkernel::decode_envelope(in, size, m);
  }
  static std::size_t reader(ringkernel::detail::msgpack_reader& r) { return r.offset(); }
  static bool deadline(const ringkernel::deadline& d) { return d.passed(); }
  /// Every probe's address, so that none is dropped before the link compares the classes.
  static std::uintptr_t all() {
    const void* probes[] = {reinterpret_cast<const void*>(&system_word), reinterpret_cast<const void*>(&device_word),
                            reinterpret_cast<const void*>(&spsc),        reinterpret_cast<const void*>(&mpmc),
                            reinterpret_cast<const void*>(&spsc_queue),  reinterpret_cast<const void*>(&mpmc_queue),
                            reinterpret_cast<const void*>(&p2p_queue),   reinterpret_cast<const void*>(&clock),
                            reinterpret_cast<const void*>(&stamper),     reinterpret_cast<const void*>(&envelopes),
                            reinterpret_cast<const void*>(&envelope_codec), reinterpret_cast<const void*>(&reader),
                            reinterpret_cast<const void*>(&deadline)};
    std::uintptr_t sum = 0;
    for (const void* p : probes) sum ^= reinterpret_cast<std::uintptr_t>(p);
    return sum;
  }
};

inline constexpr int cuda_unit = 1;
inline constexpr int host_unit = 2;

}  // namespace odr_check
