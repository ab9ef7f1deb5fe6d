// Copyright RingKernel authors.
// Shared by the envelope tests (envelope_codec_test, envelope_decode_input_test, envelope_peek_test,
// envelope_dispatch_test): the bytes of an envelope, a causal message stamped by a MessageStamper,
// and one such message (broadcast control).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "messaging_messages.rk.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/message_stamper.h"

namespace messaging_test {

/// The envelope of `m`, exactly as long as encode_envelope says (its status must be ok).
template <class T>
std::vector<std::uint8_t> envelope_bytes(const ringkernel::KernelMessage<T>& m) {
  std::vector<std::uint8_t> out(ringkernel::max_envelope_encoded_size<T>);
  const ringkernel::codec_result r = ringkernel::encode_envelope(m, out.data(), out.size());
  EXPECT_EQ(r.status, ringkernel::codec_status::ok);
  out.resize(r.size);
  return out;
}

/// `m` stamped by a MessageStamper of `sender` (sender id, sequence, timestamp and HLC stamp set).
template <class T>
ringkernel::KernelMessage<T> stamped(ringkernel::KernelMessage<T> m, std::int32_t sender) {
  static ringkernel::HybridLogicalClock clock;
  ringkernel::MessageStamper stamper(sender, &clock);
  EXPECT_TRUE(stamper.stamp(m));
  return m;
}

/// A causal control message to every receiver (broadcast), stamped by a MessageStamper of sender 5.
inline ringkernel::KernelMessage<Tick> stamped_broadcast_tick() {
  return stamped(ringkernel::KernelMessage<Tick>::create_control(0, ringkernel::broadcast_receiver, Tick{-7, 2.5f, "causal"}),
                 5);
}

}  // namespace messaging_test
