// Copyright RingKernel authors.
// A bad RINGKERNEL_HOST_* environment (this binary runs with RINGKERNEL_HOST_DEVICES=abc, set by
// CTest; the registry reads it once, at first use): the calls that need a host device, or the
// devices of every backend, throw its configuration error; calls restricted to CUDA devices do not
// (a leftover host-backend variable used to stop a CUDA-only program from listing its GPUs). No test
// here calls configure_host_backend(), which would end the bad configuration for the rest of a run
// of the whole binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "expect_error.h"
#include "ringkernel/buffers.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/stream.h"

namespace ringkernel {
namespace {

constexpr const char* bad_variable = "RINGKERNEL_HOST_DEVICES: bad configuration: \"abc\"";

class BadHostEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* v = std::getenv("RINGKERNEL_HOST_DEVICES");  // NOLINT(concurrency-mt-unsafe)
    if (v == nullptr || std::string(v) != "abc")
      GTEST_SKIP() << "run with RINGKERNEL_HOST_DEVICES=abc (CTest sets it)";
  }
};

TEST_F(BadHostEnvironment, CudaOnlyListingsDoNotThrow) {
  std::vector<DeviceInfo> cuda;
  ASSERT_NO_THROW(cuda = devices(Backend::cuda));
  for (const auto& d : cuda) EXPECT_EQ(d.backend, Backend::cuda);
  // Without a GPU the list is empty and backend_statuses() says why.
  const auto statuses = backend_statuses();
  const auto status = std::find_if(statuses.begin(), statuses.end(),
                                   [](const BackendStatus& s) { return s.backend == Backend::cuda; });
  ASSERT_NE(status, statuses.end());
  EXPECT_EQ(status->device_count, static_cast<int>(cuda.size()));
  if (cuda.empty()) {
    EXPECT_FALSE(status->note.empty());
  }

  DeviceRequirements r;
  r.backend = Backend::cuda;
  std::vector<DeviceInfo> selected;
  ASSERT_NO_THROW(selected = select_devices(r));
  EXPECT_EQ(selected.size(), cuda.size());
  r.capabilities = Capability::peer_to_peer;
  ASSERT_NO_THROW(selected = select_devices(r));
  EXPECT_LE(selected.size(), cuda.size());
}

// CUDA devices are numbered first, so their ids do not depend on the host configuration: a CUDA
// program uses them as usual. (No device here without a GPU.)
TEST_F(BadHostEnvironment, CudaDeviceIdsStillResolve) {
  for (const auto& d : devices(Backend::cuda)) {
    EXPECT_EQ(device(d.id).backend, Backend::cuda);
    EXPECT_NO_THROW(Stream{d.id});
    PeerMemory peers;
    EXPECT_NO_THROW((void)peers.can_access_peer(d.id, d.id));
  }
}

TEST_F(BadHostEnvironment, CallsThatNeedHostDevicesThrowTheConfigurationError) {
  EXPECT_RK_ERROR(devices(), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(device_count(), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(select_devices({}), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(devices(Backend::host), errc::configuration, bad_variable);
  DeviceRequirements host;
  host.backend = Backend::host;
  EXPECT_RK_ERROR(select_devices(host), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(synchronize_all_devices(), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(host_backend_config(), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(PeerMemory{}.topology(), errc::configuration, bad_variable);
  // The first id after the CUDA devices may name a host device: the error cannot say which.
  const int past_cuda = static_cast<int>(devices(Backend::cuda).size());
  EXPECT_RK_ERROR(device(past_cuda), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(DeviceBuffer(past_cuda, 16), errc::configuration, bad_variable);
  EXPECT_RK_ERROR(Stream{past_cuda}, errc::configuration, bad_variable);
}

TEST_F(BadHostEnvironment, HostStatusSaysWhichCallsThrow) {
  const auto statuses = backend_statuses();
  const auto host = std::find_if(statuses.begin(), statuses.end(),
                                 [](const BackendStatus& s) { return s.backend == Backend::host; });
  ASSERT_NE(host, statuses.end());
  EXPECT_FALSE(host->available);
  EXPECT_NE(host->note.find(bad_variable), std::string::npos) << host->note;
  EXPECT_NE(host->note.find("every call that needs a host device, or the devices of every backend"),
            std::string::npos)
      << host->note;
}

}  // namespace
}  // namespace ringkernel
