// Copyright RingKernel authors.
// Model-based random test of P2PMessageQueue's host calls (docs/messaging.md §5) on the host
// backend, in direct_p2p and host_staged modes: they forward to an MpmcQueue, so the model and the
// call generator of queue_model_test.cpp apply as they are (start position 0: P2PQueueOptions has
// none), with a fifth of its calls.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "queue_model_codecs.h"
#include "queue_model_run.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/p2p_message_queue.h"

namespace {

using queue_model::EnvelopeCodec;
using queue_model::Episode;
using ringkernel::FullPolicy;
using ringkernel::P2PTransferMode;
using Msg = EnvelopeCodec::value_type;
using Queue = ringkernel::P2PMessageQueue<Msg>;

struct P2PCase {
  P2PTransferMode mode;
  FullPolicy policy;
};

class P2PQueueModel : public ::testing::TestWithParam<P2PCase> {
 protected:
  void TearDown() override {
    ringkernel::configure_host_backend(ringkernel::HostBackendConfig{});  // the default for later tests
  }
};

TEST_P(P2PQueueModel, HostCallsFollowTheModel) {
  const P2PCase c = GetParam();
  // A linked pair: direct_p2p is possible, host_staged is asked for explicitly.
  ringkernel::configure_host_backend(
      ringkernel::HostBackendConfig{.device_count = 2, .topology = ringkernel::HostTopology::all});
  std::vector<int> ids;
  for (const auto& d : ringkernel::devices(ringkernel::Backend::host)) ids.push_back(d.id);
  ASSERT_EQ(ids.size(), 2u);
  ringkernel::PeerMemory peers;  // outlives the queues (it owns direct_p2p's peer mapping)
  const auto settings = queue_model::Settings::from_environment(5);
  queue_model::Run<Queue, EnvelopeCodec> run(
      std::string("P2PMessageQueue ") + ringkernel::to_string(c.mode) + " " + ringkernel::to_string(c.policy),
      settings.seed, c.policy, {{2, 4, 8, 64}, false}, [&](const Episode& e) {
        auto q = std::make_unique<Queue>(peers, ids[0], ids[1],
                                         ringkernel::P2PQueueOptions{.capacity = e.capacity,
                                                                     .policy = e.policy,
                                                                     .mode = c.mode,
                                                                     .detailed_statistics = e.detailed});
        EXPECT_EQ(q->transfer_mode(), c.mode);
        EXPECT_TRUE(q->host_endpoints());
        return q;
      });
  EXPECT_TRUE(run.run(settings.calls));
  run.expect_every_outcome();
}

std::vector<P2PCase> all_cases() {
  std::vector<P2PCase> cases;
  for (const auto mode : {P2PTransferMode::direct_p2p, P2PTransferMode::host_staged}) {
    for (const auto policy : {FullPolicy::block, FullPolicy::reject, FullPolicy::drop_newest, FullPolicy::drop_oldest}) {
      cases.push_back({mode, policy});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(ModesAndPolicies, P2PQueueModel, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<P2PCase>& info) {
                           return std::string(ringkernel::to_string(info.param.mode)) + "_" +
                                  ringkernel::to_string(info.param.policy);
                         });

}  // namespace
