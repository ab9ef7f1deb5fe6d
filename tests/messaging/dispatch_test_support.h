// Copyright RingKernel authors.
// Shared by the registry's dispatch tests (envelope_dispatch_test, kernel_message_dispatch_test):
// one message of each type of the messaging registry, and a visitor that records what reached it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "envelope_test_support.h"
#include "messaging_messages.rk.h"
#include "ringkernel/kernel_message.h"

namespace messaging_test {

inline const ringkernel::KernelMessage<Tagged> tagged = ringkernel::KernelMessage<Tagged>::create_data(1, 2, Tagged{3, 0, 42});
inline const ringkernel::KernelMessage<Reading> reading =
    ringkernel::KernelMessage<Reading>::create_control(4, -1, Reading{Tagged{1, 0, 2}, {0.5, 1.0, 2.0}});
inline const ringkernel::KernelMessage<Blob64> blob =
    ringkernel::KernelMessage<Blob64>::create_data(5, 6, Blob64{{1, 2, 3, 4, 5, 6, 7, ~0ull}});

/// A causal message, stamped (sequence, timestamp and clock stamp set).
inline ringkernel::KernelMessage<Tick> stamped_tick() {
  return stamped(ringkernel::KernelMessage<Tick>::create_data(2, 3, Tick{-7, 2.5f, "dispatch"}), 2);
}

/// A causal message whose payload is aligned to 16 (payload at 48), stamped.
inline ringkernel::KernelMessage<Aligned16> stamped_aligned16() {
  return stamped(ringkernel::KernelMessage<Aligned16>::create_data(7, ringkernel::broadcast_receiver, Aligned16{9, -0.25}),
                 7);
}

/// Counts the calls of each handler; the value is checked against `expected` when its type matches.
template <class Expected>
struct Recorder {
  const ringkernel::KernelMessage<Expected>* expected;
  int calls = 0;
  int equal = 0;
  std::uint32_t last_type_id = 0;
  template <class T>
  void operator()(const ringkernel::KernelMessage<T>& m) {
    ++calls;
    last_type_id = ringkernel::message_traits<T>::type_id;
    if constexpr (std::is_same_v<T, Expected>) equal += m == *expected ? 1 : 0;
  }
};

}  // namespace messaging_test
