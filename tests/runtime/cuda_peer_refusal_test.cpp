// Copyright RingKernel authors.
// What the CUDA backend's enable_peer_access says for a pair without peer access
// (runtime/src/cuda_peer_refusal.h): where the peer query failed for the pair at enumeration, that
// it failed and why, not that the devices cannot reach each other. Strings only: no GPU (label unit).
#include "cuda_peer_refusal.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using ringkernel::detail::cuda_peer_refusal;

TEST(CudaPeerRefusal, AFailedQuerySaysItFailedAndWhy) {
  const std::string why = "cudaDeviceGetP2PAttribute returned cudaErrorInvalidDevice (invalid device ordinal)";
  const std::string text = cuda_peer_refusal(why, 2, 3, "0000:17:00.0", "0000:65:00.0");
  EXPECT_NE(text.find("the peer query from device 2 to device 3 failed when the devices were enumerated (" + why +
                      ")"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("host-staged"), std::string::npos) << text;
  EXPECT_EQ(text.find("cannot access device"), std::string::npos)
      << "not the answer of a query that succeeded: " << text;
}

TEST(CudaPeerRefusal, ANoFromCudaDeviceCanAccessPeerNamesThePciPath) {
  const std::string text = cuda_peer_refusal("", 0, 1, "0000:17:00.0", "0000:65:00.0");
  EXPECT_EQ(text,
            "cudaDeviceCanAccessPeer reports that device 0 cannot access device 1 (no P2P path between 0000:17:00.0 "
            "and 0000:65:00.0); copies between them are host-staged");
}

}  // namespace
