// Copyright RingKernel authors.
// Shared by the envelope tests (envelope_codec_test, envelope_peek_test, envelope_dispatch_test):
// the bytes of an envelope, and a causal message stamped by a MessageStamper.
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

}  // namespace messaging_test
