// Copyright RingKernel authors.
// Paired comparison rows of bench_queue (BM_Paired_*): each iteration moves `paired_messages`
// through every contender back to back (the starting contender rotates), so the contenders of one
// iteration see the same machine state - on this VM the host moves the two vCPUs and the
// core-to-core latency changes by up to 10x within seconds, far more than the differences measured.
// Per iteration: ours / best peer of that iteration, for each of our contenders. Counters: the
// median and quartiles of those ratios over the iterations, and each contender's median rate.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "transfer.h"

namespace rkbench {

inline constexpr std::uint64_t paired_messages = 1 << 18;

struct contender {
  std::string name;
  bool ours;
  std::function<double(polls&)> seconds;  // moves paired_messages, returns the time it took
};

template <class M, class Push, class Pop>
contender single_contender(std::string name, bool ours, Push push, Pop pop) {
  return {std::move(name), ours, [push, pop](polls& p) { return move_once<M>(push, pop, paired_messages, p); }};
}
template <class M, class PushN, class PopN>
contender batch_contender(std::string name, bool ours, PushN push_n, PopN pop_n) {
  return {std::move(name), ours,
          [push_n, pop_n](polls& p) { return move_once_batched<M>(push_n, pop_n, paired_messages, p); }};
}

/// The consumer's work per message in the BM_Paired_SpscConsumerWork rows: `iterations` turns of an
/// empty loop the compiler must keep (about one cycle each), after every successful pop.
inline void consumer_work(int iterations) {
  for (int i = 0; i < iterations; ++i) asm volatile("");
}
/// pop, followed by consumer_work(iterations) when it returned a message.
template <class Pop>
auto working_pop(Pop pop, int iterations) {
  return [pop, iterations](auto& m) mutable {
    if (!pop(m)) return false;
    consumer_work(iterations);
    return true;
  };
}

inline double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

inline void run_paired(benchmark::State& state, const std::vector<contender>& c) {
  pinned_scope pin(producer_cpu);
  std::vector<std::vector<double>> rate(c.size()), ratio(c.size());
  std::size_t first = 0;
  for (auto _ : state) {
    std::vector<double> r(c.size());
    for (std::size_t k = 0; k < c.size(); ++k) {
      const std::size_t i = (first + k) % c.size();
      polls p;
      r[i] = static_cast<double>(paired_messages) / c[i].seconds(p) / 1e6;
      rate[i].push_back(r[i]);
    }
    first = (first + 1) % c.size();
    double best_peer = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (!c[i].ours) best_peer = std::max(best_peer, r[i]);
    }
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (c[i].ours) ratio[i].push_back(r[i] / best_peer);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * c.size() * paired_messages));
  for (std::size_t i = 0; i < c.size(); ++i) {
    state.counters[c[i].name + "_Mmsgs"] = quantile(rate[i], 0.5);
    if (c[i].ours) {
      state.counters["ratio_" + c[i].name + "_p25"] = quantile(ratio[i], 0.25);
      state.counters["ratio_" + c[i].name + "_median"] = quantile(ratio[i], 0.5);
      state.counters["ratio_" + c[i].name + "_p75"] = quantile(ratio[i], 0.75);
    }
  }
}

}  // namespace rkbench
