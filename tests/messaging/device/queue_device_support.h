// Copyright RingKernel authors.
// What the queue gpu tests share: skipping, with the reason, where there is no CUDA device, and the
// time after which their spinning kernels give up.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "ringkernel/device.h"

namespace queue_device_test {

/// The id of the first CUDA device, or -1 when there is none.
inline int cuda_device_or_skip() {
  const auto cuda = ringkernel::devices(ringkernel::Backend::cuda);
  return cuda.empty() ? -1 : cuda.front().id;
}

/// Every spinning kernel gives up after this long, before the host's own 30 s deadlines: a failed
/// host-side check returns while kernels still spin, and the queues' destructors would then wait
/// for them forever (freeing pinned or device memory waits for outstanding kernels).
inline constexpr std::uint64_t kernel_budget_us = 20'000'000;

}  // namespace queue_device_test

/// Declares `id`, the first CUDA device, or skips the test saying why.
#define REQUIRE_CUDA_DEVICE(id)                                                     \
  const int id = queue_device_test::cuda_device_or_skip();                          \
  if (id < 0) GTEST_SKIP() << "no CUDA device (ringkernel::devices(Backend::cuda) is empty)"
