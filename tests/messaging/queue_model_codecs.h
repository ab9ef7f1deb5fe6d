// Copyright RingKernel authors.
// Message types of the model-based queue test (queue_model_run.h): each message carries its unique
// number, from which the codec rebuilds the whole message to check that what comes out is what
// went in. The envelope codec stamps header.timestamp_us so that the latency statistics have
// something to count: 0 (never stamped), 1 µs after the epoch (in every receiver's past: a sample),
// the largest time there is (in its future: stamped_ahead) or the smallest (before the epoch:
// stamped_before_epoch), chosen by the number.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include "messaging_messages.rk.h"
#include "ringkernel/kernel_message.h"
#include "queue_model.h"

namespace queue_model {

struct NumberCodec {
  using value_type = std::uint64_t;
  static value_type make(std::uint64_t id) { return id; }
  static std::uint64_t id(const value_type& m) { return m; }
  static std::string show(const value_type& m) { return std::to_string(m); }
  static std::function<Stamp(std::uint64_t)> stamp_function() { return {}; }
};

struct EnvelopeCodec {
  using value_type = ringkernel::KernelMessage<messaging_test::Tagged>;
  static Stamp stamp(std::uint64_t id) {
    const std::uint64_t h = (id * 0x9e3779b97f4a7c15ull) >> 61;  // 0..7
    return h < 3 ? Stamp::none : h < 6 ? Stamp::past : h < 7 ? Stamp::ahead : Stamp::before_epoch;
  }
  static value_type make(std::uint64_t id) {
    value_type m = value_type::create_data(3, 4, messaging_test::Tagged{7, 0, id});
    const Stamp s = stamp(id);
    m.header.timestamp_us = s == Stamp::none     ? 0
                            : s == Stamp::past  ? 1
                            : s == Stamp::ahead ? std::numeric_limits<std::int64_t>::max()
                                                : std::numeric_limits<std::int64_t>::min();
    m.header.sequence = id * 3;
    return m;
  }
  static std::uint64_t id(const value_type& m) { return m.payload.index; }
  /// The number, marked when the rest of the message is not what make() built.
  static std::string show(const value_type& m) {
    return std::to_string(m.payload.index) + (m == make(m.payload.index) ? "" : "(corrupted)");
  }
  static std::function<Stamp(std::uint64_t)> stamp_function() { return &stamp; }
};

}  // namespace queue_model
