// Copyright RingKernel authors.
// How gpu tests skip: with how many CUDA devices they need, how many there are and the cuda
// backend's own reason (a missing or too old driver, a build without CUDA, ...), so that a skipped
// run on a machine that should have a GPU says what is wrong with it.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "ringkernel/device.h"

namespace ringkernel_test {

/// What the cuda backend says about itself (BackendStatus::note).
inline std::string cuda_backend_note() {
  for (const ringkernel::BackendStatus& b : ringkernel::backend_statuses()) {
    if (b.backend == ringkernel::Backend::cuda) return b.note;
  }
  return "the cuda backend is not in this build";
}

/// "needs 2 CUDA devices, found 1: <the cuda backend's note>".
inline std::string cuda_skip_reason(std::size_t wanted, std::size_t found) {
  return "needs " + std::to_string(wanted) + (wanted == 1 ? " CUDA device" : " CUDA devices") + ", found " +
         std::to_string(found) + ": " + cuda_backend_note();
}

}  // namespace ringkernel_test

/// Declares `devices_var`, the CUDA devices (ringkernel::devices(Backend::cuda), in id order), or
/// skips the test, saying why, when there are fewer than `n`.
#define RINGKERNEL_REQUIRE_CUDA_DEVICES(devices_var, n)                                                    \
  const std::vector<ringkernel::DeviceInfo> devices_var = ringkernel::devices(ringkernel::Backend::cuda); \
  if (devices_var.size() < static_cast<std::size_t>(n))                                                    \
  GTEST_SKIP() << ringkernel_test::cuda_skip_reason(static_cast<std::size_t>(n), devices_var.size())
