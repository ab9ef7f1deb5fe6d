// Copyright RingKernel authors.
// The ringkernel::Error a call throws, for tests that check its code, device and text.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "ringkernel/error.h"

namespace messaging_test {

/// Runs `make` and returns the Error it must throw (a test failure, and an empty Error, if none).
template <class F>
ringkernel::Error error_of(F make) {
  try {
    make();
  } catch (const ringkernel::Error& e) {
    return e;
  }
  ADD_FAILURE() << "no ringkernel::Error was thrown";
  return ringkernel::Error(ringkernel::errc::invalid_state, "none", ringkernel::no_device, "none");
}

inline bool mentions(const ringkernel::Error& e, const std::string& text) {
  return std::string(e.what()).find(text) != std::string::npos;
}

}  // namespace messaging_test
