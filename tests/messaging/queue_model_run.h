// Copyright RingKernel authors.
// Drives a real queue (MpmcQueue, SpscQueue, P2PMessageQueue: anything with the host queue API)
// and queue_model::Model with the same random calls, one thread, in lockstep: every call's result
// is compared with the model's, and after every call the count, the shut-down flag and the
// statistics. The first divergence fails the test with the seed, the call's index and the calls
// before it. Calls come from queue_model_ops.h; episodes (a fresh queue each) vary the capacity,
// the start position (near 2^64, so positions wrap), detailed statistics and the eviction handler.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "queue_model.h"
#include "queue_model_ops.h"

namespace queue_model {

/// Calls per test of queue_model_test.cpp under label unit (the slow variant sets
/// RINGKERNEL_QUEUE_MODEL_CALLS instead).
inline constexpr std::uint64_t default_calls = 20000;

/// The seed and the number of calls of one test: RINGKERNEL_QUEUE_MODEL_SEED / _CALLS override the
/// defaults; a test that needs fewer calls takes a share (calls / divisor). Printed either way.
struct Settings {
  std::uint64_t seed;
  std::uint64_t calls;
  static Settings from_environment(std::uint64_t divisor = 1) {
    const auto read = [](const char* name, std::uint64_t fallback) {
      const char* text = std::getenv(name);
      return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 0) : fallback;
    };
    const Settings s{read("RINGKERNEL_QUEUE_MODEL_SEED", 20260501),
                     read("RINGKERNEL_QUEUE_MODEL_CALLS", default_calls) / divisor};
    std::cout << "queue model: seed " << s.seed << ", " << s.calls
              << " calls (RINGKERNEL_QUEUE_MODEL_SEED, RINGKERNEL_QUEUE_MODEL_CALLS)" << std::endl;
    ::testing::Test::RecordProperty("seed", std::to_string(s.seed));
    return s;
  }
};

struct Episode {
  std::size_t capacity = 0;
  FullPolicy policy = FullPolicy::block;
  std::uint64_t start = 0;  // QueueOptions::start_position
  bool detailed = false;
  bool eviction_handler = false;
  std::string describe() const {
    std::ostringstream s;
    s << "capacity " << capacity << ", policy " << ringkernel::to_string(policy) << ", start_position " << start
      << ", detailed_statistics " << detailed << ", eviction handler " << (eviction_handler ? "set" : "none");
    return s.str();
  }
};

/// What episodes are drawn from.
struct EpisodeSpace {
  std::vector<std::size_t> capacities;
  bool wrap = true;  // start positions near 2^64 as well as 0 (P2PMessageQueue has no start_position)
};

template <class Queue, class Codec>
class Run {
 public:
  using T = typename Codec::value_type;
  using Factory = std::function<std::unique_ptr<Queue>(const Episode&)>;

  Run(std::string name, std::uint64_t seed, FullPolicy policy, EpisodeSpace space, Factory factory)
      : name_(std::move(name)), seed_(seed), policy_(policy), space_(std::move(space)), factory_(std::move(factory)),
        ops_(seed ^ std::hash<std::string>{}(name_)) {}

  /// Runs `calls` calls in episodes of a few hundred to a few thousand; false (after ADD_FAILURE)
  /// at the first divergence.
  bool run(std::uint64_t calls) {
    while (index_ < calls) {
      start_episode();
      const std::uint64_t end = std::min<std::uint64_t>(calls, index_ + ops_.episode_length());
      for (; index_ < end; ++index_) {
        if (!step()) return false;
      }
      tally();
    }
    std::cout << name_ << ": " << index_ << " calls on " << episodes_ << " queues (" << wrapped_
              << " wrapped past 2^64), totals " << show(totals_) << std::endl;
    return true;
  }

  /// A long enough run reached every outcome the policy has (and the model was not idle): fails
  /// otherwise, so that a generator that stops filling or draining queues does not go unnoticed.
  void expect_every_outcome() const {
    if (index_ < 5000) return;
    const Stats& t = totals_;
    EXPECT_GT(t.received, 0u);
    EXPECT_GT(t.receive_batches, 0u);
    EXPECT_GT(t.send_batches, 0u);
    EXPECT_GT(t.cleared, 0u);
    EXPECT_GT(t.rejected_closed, 0u);
    EXPECT_GT(t.high_water_mark, 0u);
    EXPECT_TRUE(!space_.wrap || wrapped_ > 0);
    EXPECT_TRUE(!Codec::stamp_function() ||
                (t.latency_samples > 0 && t.stamped_ahead > 0 && t.stamped_before_epoch > 0));
    switch (policy_) {
      case FullPolicy::block: EXPECT_TRUE(t.rejected_full > 0 && t.timed_out > 0 && t.stopped > 0); break;
      case FullPolicy::reject: EXPECT_GT(t.rejected_full, 0u); break;
      case FullPolicy::drop_newest: EXPECT_GT(t.dropped_newest, 0u); break;
      case FullPolicy::drop_oldest: EXPECT_GT(t.dropped_oldest, 0u); break;
    }
  }

 private:
  void start_episode() {
    episode_ = Episode{.capacity = ops_.pick(space_.capacities),
                       .policy = policy_,
                       .start = space_.wrap && ops_.chance(2) ? ~std::uint64_t{0} - ops_.below(300) : 0,
                       .detailed = ops_.chance(2),
                       .eviction_handler = !ops_.chance(4)};
    queue_.reset();
    queue_ = factory_(episode_);
    model_ = std::make_unique<Model>(episode_.capacity, episode_.policy, episode_.detailed, Codec::stamp_function());
    if (episode_.eviction_handler) {
      queue_->set_eviction_handler([this](const T& m) { evicted_.push_back(Codec::id(m)); });
    }
    history_.clear();
    history_.push_back("-- new queue: " + episode_.describe());
  }

  void tally() {
    totals_ += model_->stats();
    totals_.high_water_mark = std::max(totals_.high_water_mark, model_->stats().high_water_mark);
    ++episodes_;
    if (episode_.start != 0 && model_->stats().sent > 0 - episode_.start) ++wrapped_;
  }

  bool step() {
    const Call call = ops_.next(*model_);
    std::string got;
    std::string want;
    evicted_.clear();
    execute(call, got, want);
    std::ostringstream line;
    line << "#" << index_ << " " << call.describe() << " -> " << got;
    history_.push_back(line.str());
    while (history_.size() > 20) history_.pop_front();
    if (got != want) return diverged("result: queue " + got + ", model " + want);
    if (const std::string d = compare_state(); !d.empty()) return diverged(d);
    return true;
  }

  void execute(const Call& call, std::string& got, std::string& want) {
    switch (call.kind) {
      case CallKind::try_send:
      case CallKind::send: {
        const T m = Codec::make(call.ids[0]);
        const ringkernel::SendResult r = call.kind == CallKind::try_send
                                             ? queue_->try_send(m)
                                             : queue_->send(m, call.timeout, call.stop_token());
        got = show_send(r.status, r.ok() ? 1 : 0, r.evicted, evicted_);
        const SendOutcome w = model_->send(call.ids, call.wait, false);
        want = show_send(w.status, w.accepted, w.evicted.size(), w.evicted);
        break;
      }
      case CallKind::send_batch:
      case CallKind::try_send_batch: {
        std::vector<T> values;
        for (const std::uint64_t id : call.ids) values.push_back(Codec::make(id));
        const ringkernel::BatchSendResult r =
            call.kind == CallKind::try_send_batch
                ? queue_->try_send_batch(std::span<const T>(values))
                : queue_->send_batch(std::span<const T>(values), call.timeout, call.stop_token());
        got = show_send(r.status, r.accepted, r.evicted, evicted_);
        const SendOutcome w = model_->send(call.ids, call.wait, true);
        want = show_send(w.status, w.accepted, w.evicted.size(), w.evicted);
        break;
      }
      case CallKind::try_receive:
      case CallKind::receive: {
        T m{};
        const ringkernel::ReceiveStatus s =
            call.kind == CallKind::try_receive ? queue_->try_receive(m) : queue_->receive(m, call.timeout, call.stop_token());
        got = show_receive(s, std::span<const T>(&m, s == ringkernel::ReceiveStatus::ok ? 1 : 0));
        want = show_expected(model_->receive(1, call.wait, false));
        break;
      }
      case CallKind::receive_batch:
      case CallKind::try_receive_batch: {
        std::vector<T> out(call.count);
        const ringkernel::BatchReceiveResult r = call.kind == CallKind::try_receive_batch
                                                     ? queue_->try_receive_batch(std::span<T>(out))
                                                     : queue_->receive_batch(std::span<T>(out), call.timeout, call.stop_token());
        got = show_receive(r.status, std::span<const T>(out.data(), std::min(r.received, out.size())));
        if (r.received > out.size()) got += " (received " + std::to_string(r.received) + " > asked)";
        want = show_expected(model_->receive(call.count, call.wait, true));
        break;
      }
      case CallKind::try_peek: {
        T m{};
        const bool ok = queue_->try_peek(m);
        got = ok ? "peeked " + Codec::show(m) : "nothing to peek";
        const auto w = model_->peek();
        want = w ? "peeked " + std::to_string(*w) : "nothing to peek";
        break;
      }
      case CallKind::clear:
        got = "cleared " + std::to_string(queue_->clear());
        want = "cleared " + std::to_string(model_->clear());
        break;
      case CallKind::shutdown:
        queue_->shutdown();
        model_->shutdown();
        got = want = "shut down";
        break;
    }
  }

  // status, how many went in, the result's eviction count and, where the episode has an eviction
  // handler, the messages it saw (queue) or must see (model), in order.
  std::string show_send(ringkernel::SendStatus s, std::size_t accepted, std::size_t evicted_count,
                        const std::vector<std::uint64_t>& evicted) const {
    std::string out = std::string(ringkernel::to_string(s)) + ", accepted " + std::to_string(accepted) +
                      ", evicted " + std::to_string(evicted_count);
    if (episode_.eviction_handler) out += " " + show_ids(evicted);
    return out;
  }
  std::string show_receive(ringkernel::ReceiveStatus s, std::span<const T> messages) const {
    std::string out = ringkernel::to_string(s);
    for (const T& m : messages) out += " " + Codec::show(m);
    return out;
  }
  static std::string show_expected(const ReceiveOutcome& w) {
    std::string out = ringkernel::to_string(w.status);
    for (const std::uint64_t id : w.messages) out += " " + std::to_string(id);
    return out;
  }
  static std::string show_ids(const std::vector<std::uint64_t>& ids) {
    std::string out = "{";
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i != 0 ? " " : "") + std::to_string(ids[i]);
    return out + "}";
  }

  // The state every call leaves: count, flags and the statistics.
  std::string compare_state() const {
    std::ostringstream d;
    const Model& m = *model_;
    if (queue_->count() != m.count()) d << "count() " << queue_->count() << ", model " << m.count() << "; ";
    if (queue_->is_empty() != (m.count() == 0)) d << "is_empty() " << queue_->is_empty() << "; ";
    if (queue_->is_full() != m.full()) d << "is_full() " << queue_->is_full() << ", model " << m.full() << "; ";
    if (queue_->is_shut_down() != m.closed()) d << "is_shut_down() " << queue_->is_shut_down() << "; ";
    if (queue_->capacity() != m.capacity()) d << "capacity() " << queue_->capacity() << "; ";
    if (queue_->policy() != m.policy()) d << "policy() " << ringkernel::to_string(queue_->policy()) << "; ";
    const ringkernel::QueueStatistics s = queue_->statistics();
    const Stats got{s.sent, s.received, s.rejected_full, s.dropped_newest, s.dropped_oldest, s.cleared, s.timed_out,
                    s.stopped, s.rejected_closed, s.send_batches, s.receive_batches, s.detailed,
                    s.high_water_mark, s.latency.samples, s.latency.stamped_ahead, s.latency.stamped_before_epoch};
    if (!(got == m.stats())) d << "statistics " << show(got) << ", model " << show(m.stats()) << "; ";
    if (s.bytes_sent != s.sent * sizeof(T) || s.bytes_received != s.received * sizeof(T)) {
      d << "bytes_sent " << s.bytes_sent << " / bytes_received " << s.bytes_received << " for " << sizeof(T)
        << "-byte messages; ";
    }
    if (s.latency.samples == 0 && (s.latency.mean_us != 0.0 || s.latency.p50_us != 0 || s.latency.p99_us != 0 ||
                                   s.latency.max_us != 0)) {
      d << "latency figures without samples; ";
    }
    return d.str();
  }
  static std::string show(const Stats& s) {
    std::ostringstream o;
    o << "{sent " << s.sent << ", received " << s.received << ", rejected_full " << s.rejected_full
      << ", dropped_newest " << s.dropped_newest << ", dropped_oldest " << s.dropped_oldest << ", cleared " << s.cleared
      << ", timed_out " << s.timed_out << ", stopped " << s.stopped << ", rejected_closed " << s.rejected_closed
      << ", send_batches " << s.send_batches << ", receive_batches " << s.receive_batches << ", detailed " << s.detailed
      << ", high_water_mark " << s.high_water_mark << ", latency.samples " << s.latency_samples
      << ", latency.stamped_ahead " << s.stamped_ahead << ", latency.stamped_before_epoch " << s.stamped_before_epoch
      << "}";
    return o.str();
  }

  bool diverged(const std::string& what) {
    std::ostringstream report;
    report << name_ << ": the queue and the model diverged at call #" << index_ << " (seed " << seed_
           << "; RINGKERNEL_QUEUE_MODEL_SEED=" << seed_ << " replays it)\n  queue: " << episode_.describe()
           << "\n  " << what << "\n  model's queue (oldest first): " << show_ids({model_->queued().begin(), model_->queued().end()})
           << "\n  the calls up to it (queue's results):\n";
    for (const std::string& h : history_) report << "    " << h << "\n";
    ADD_FAILURE() << report.str();
    return false;
  }

  std::string name_;
  std::uint64_t seed_;
  FullPolicy policy_;
  EpisodeSpace space_;
  Factory factory_;
  CallGenerator ops_;
  Episode episode_;
  std::unique_ptr<Queue> queue_;
  std::unique_ptr<Model> model_;
  std::vector<std::uint64_t> evicted_;  // what the eviction handler saw during the current call
  std::deque<std::string> history_;
  std::uint64_t index_ = 0;
  Stats totals_;  // over the finished queues
  std::uint64_t episodes_ = 0, wrapped_ = 0;
};

}  // namespace queue_model
