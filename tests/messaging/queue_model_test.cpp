// Copyright RingKernel authors.
// Model-based random test of MpmcQueue and SpscQueue (docs/messaging.md §4): long random call
// sequences against queue_model::Model in lockstep, one thread, for every policy, capacities 1
// (SPSC) / 2 / 4 / 8 / 64, start positions 0 and near 2^64, detailed statistics on and off, with
// plain numbers and with KernelMessage envelopes (latency counts). 20,000 calls per test under
// label unit; messaging.slow.queue_model runs 25x more with another seed.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "queue_model_codecs.h"
#include "queue_model_run.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using queue_model::EnvelopeCodec;
using queue_model::Episode;
using queue_model::NumberCodec;
using ringkernel::FullPolicy;

template <class Queue, class Codec>
void run_against_model(const std::string& name, FullPolicy policy, std::vector<std::size_t> capacities) {
  const auto settings = queue_model::Settings::from_environment();
  queue_model::Run<Queue, Codec> run(
      name + " " + ringkernel::to_string(policy), settings.seed, policy, {std::move(capacities), true},
      [](const Episode& e) {
        return std::make_unique<Queue>(ringkernel::QueueOptions{.capacity = e.capacity,
                                                                .policy = e.policy,
                                                                .detailed_statistics = e.detailed,
                                                                .start_position = e.start});
      });
  EXPECT_TRUE(run.run(settings.calls));
  run.expect_every_outcome();
}

std::string policy_name(const ::testing::TestParamInfo<FullPolicy>& info) { return ringkernel::to_string(info.param); }

class MpmcQueueModel : public ::testing::TestWithParam<FullPolicy> {};

TEST_P(MpmcQueueModel, NumbersFollowTheModel) {
  run_against_model<ringkernel::MpmcQueue<std::uint64_t>, NumberCodec>("MpmcQueue<u64>", GetParam(), {2, 4, 8, 64});
}
TEST_P(MpmcQueueModel, EnvelopesFollowTheModel) {
  run_against_model<ringkernel::MpmcQueue<EnvelopeCodec::value_type>, EnvelopeCodec>("MpmcQueue<KernelMessage>",
                                                                                      GetParam(), {2, 4, 8, 64});
}
INSTANTIATE_TEST_SUITE_P(Policies, MpmcQueueModel,
                         ::testing::Values(FullPolicy::block, FullPolicy::reject, FullPolicy::drop_newest,
                                           FullPolicy::drop_oldest),
                         policy_name);

// drop_oldest needs a multi-consumer ring: SpscQueue refuses it (ring_test.cpp).
class SpscQueueModel : public ::testing::TestWithParam<FullPolicy> {};

TEST_P(SpscQueueModel, NumbersFollowTheModel) {
  run_against_model<ringkernel::SpscQueue<std::uint64_t>, NumberCodec>("SpscQueue<u64>", GetParam(), {1, 2, 4, 8, 64});
}
TEST_P(SpscQueueModel, EnvelopesFollowTheModel) {
  run_against_model<ringkernel::SpscQueue<EnvelopeCodec::value_type>, EnvelopeCodec>("SpscQueue<KernelMessage>",
                                                                                      GetParam(), {1, 2, 4, 8, 64});
}
INSTANTIATE_TEST_SUITE_P(Policies, SpscQueueModel,
                         ::testing::Values(FullPolicy::block, FullPolicy::reject, FullPolicy::drop_newest),
                         policy_name);

}  // namespace
