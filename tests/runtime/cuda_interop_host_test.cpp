// Copyright RingKernel authors.
// ringkernel/cuda_interop.h with host-backend streams and events (no GPU needed): a clear refusal,
// never a null cudaStream_t, which CUDA would take for the legacy default stream.
#include "ringkernel/cuda_interop.h"

#include <gtest/gtest.h>

#include "expect_error.h"
#include "host_fixture.h"

namespace ringkernel {
namespace {

TEST(CudaInterop, HostStreamsAndEventsAreRefused) {
  const auto ids = test::use_host_devices(2, HostTopology::none);
  const Stream s(ids[1]);
  const Event e(ids[1]);
  const std::string device = "(device " + std::to_string(ids[1]) + ")";
  EXPECT_RK_ERROR((void)cuda_stream(s), errc::unsupported,
                  "ringkernel::cuda_stream " + device + ": unsupported: the stream of device " +
                      std::to_string(ids[1]) + " is a host-backend stream");
  EXPECT_RK_ERROR((void)cuda_event(e), errc::unsupported,
                  "ringkernel::cuda_event " + device + ": unsupported: the event of device " +
                      std::to_string(ids[1]) + " is a host-backend event");
  Stream moved(ids[0]);
  const Stream taker = std::move(moved);
  EXPECT_RK_ERROR((void)cuda_stream(moved), errc::invalid_state,  // NOLINT(bugprone-use-after-move)
                  "Stream::native_handle: invalid state: the stream was moved from");
}

}  // namespace
}  // namespace ringkernel
