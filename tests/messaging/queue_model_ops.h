// Copyright RingKernel authors.
// The random calls of the model-based queue test (queue_model_run.h): a fixed-seed generator of
// host queue API calls, biased so that queues of every capacity run full and run dry often (phases
// that mostly send alternate with phases that mostly receive), with batches longer than the queue,
// empty batches, timeouts, stop tokens, peeks, clears and, on half the queues, a shutdown. A call that
// could wait for real (a default timeout on a full block queue, say) is never generated: with one
// thread nothing would ever change, so waits end by a tiny timeout or a stop already requested.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stop_token>
#include <string>
#include <vector>

#include "queue_model.h"
#include "ringkernel/queue/queue_types.h"

namespace queue_model {

enum class CallKind : std::uint8_t {
  try_send, send, send_batch, try_send_batch, try_receive, receive, receive_batch, try_receive_batch, try_peek, clear,
  shutdown
};

inline const char* to_string(CallKind k) {
  static const char* const names[] = {"try_send", "send", "send_batch", "try_send_batch", "try_receive", "receive",
                                      "receive_batch", "try_receive_batch", "try_peek", "clear", "shutdown"};
  return names[static_cast<int>(k)];
}

struct Call {
  CallKind kind = CallKind::try_peek;
  std::vector<std::uint64_t> ids;  // the messages a send offers, in order
  std::size_t count = 0;           // receive_batch: the span's size
  Wait wait = Wait::never;         // what ends a wait, would the call have to wait
  std::chrono::nanoseconds timeout{0};

  /// A token whose stop was requested for Wait::stop; otherwise one that never stops.
  std::stop_token stop_token() const {
    static const std::stop_source stopped = [] {
      std::stop_source s;
      s.request_stop();
      return s;
    }();
    return wait == Wait::stop ? stopped.get_token() : std::stop_token{};
  }

  std::string describe() const {
    std::ostringstream s;
    s << to_string(kind);
    if (kind == CallKind::try_send || kind == CallKind::send || kind == CallKind::send_batch ||
        kind == CallKind::try_send_batch) {
      s << "(";
      if (ids.empty()) s << "no messages";
      if (ids.size() == 1) s << ids[0];
      if (ids.size() > 1) s << ids.front() << ".." << ids.back();
      s << ")";
    }
    if (kind == CallKind::receive_batch || kind == CallKind::try_receive_batch) s << "(span of " << count << ")";
    if (kind == CallKind::send || kind == CallKind::send_batch || kind == CallKind::receive ||
        kind == CallKind::receive_batch) {
      if (wait == Wait::stop) {
        s << " [stop requested]";
      } else {
        s << " [timeout " << timeout.count() << " ns]";
      }
    }
    return s.str();
  }
};

/// splitmix64: small, fast and the same on every platform and standard library.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool chance(std::uint64_t one_in) { return below(one_in) == 0; }
  template <class V>
  const V& pick(const std::vector<V>& v) {
    return v[below(v.size())];
  }

 private:
  std::uint64_t state_;
};

class CallGenerator : public Random {
 public:
  using Random::Random;

  /// Calls on the next queue (episode) before another is built. Half the queues are shut down in
  /// their last fifth (long enough to drain them and see the closed answers, short enough that
  /// most calls meet an open queue).
  std::uint64_t episode_length() {
    const std::uint64_t length = 200 + below(2000);
    calls_ = 0;
    shutdown_at_ = chance(2) ? length - 1 - below(length / 5) : length;
    return length;
  }

  Call next(const Model& m) {
    if (chance(40)) filling_ = !filling_;
    Call c;
    if (calls_++ == shutdown_at_) {
      c.kind = CallKind::shutdown;
      return c;
    }
    // Weights: sends (try_send, send, send_batch, try_send_batch), receives (4 kinds), try_peek, clear.
    const std::uint64_t send_weight = filling_ ? 60 : 22;
    const std::uint64_t receive_weight = filling_ ? 22 : 60;
    std::uint64_t r = below(send_weight + receive_weight + 16);
    const std::size_t cap = m.capacity();
    if (r < send_weight) {
      c.kind = r % 4 == 0   ? CallKind::try_send
               : r % 4 == 1 ? CallKind::send
               : r % 4 == 2 ? CallKind::send_batch
                            : CallKind::try_send_batch;
      const bool batch = c.kind == CallKind::send_batch || c.kind == CallKind::try_send_batch;
      const std::size_t n = !batch ? 1 : chance(10) ? 0 : 1 + below(2 * cap + 2);
      for (std::size_t i = 0; i < n; ++i) c.ids.push_back(next_id_++);
      if (c.kind == CallKind::send || c.kind == CallKind::send_batch) {
        const bool waits = !m.closed() && m.policy() == FullPolicy::block && m.capacity() - m.count() < n;
        choose_wait(c, waits);
      }
      return c;
    }
    r -= send_weight;
    if (r < receive_weight) {
      c.kind = r % 4 == 0 ? CallKind::try_receive
               : r % 4 == 1 ? CallKind::receive
               : r % 4 == 2 ? CallKind::receive_batch
                            : CallKind::try_receive_batch;
      if (c.kind == CallKind::receive_batch || c.kind == CallKind::try_receive_batch) {
        c.count = chance(10) ? 0 : 1 + below(cap + 2);
      }
      if (c.kind == CallKind::receive || c.kind == CallKind::receive_batch) {
        const bool asks = c.kind == CallKind::receive || c.count != 0;
        choose_wait(c, asks && !m.closed() && m.count() == 0);
      }
      return c;
    }
    c.kind = below(16) < 13 ? CallKind::try_peek : CallKind::clear;
    return c;
  }

 private:
  // How a call that may wait is bounded: the default timeout only where it would not wait.
  void choose_wait(Call& c, bool would_wait) {
    switch (below(4)) {
      case 0:
        c.wait = Wait::stop;
        c.timeout = std::chrono::hours(1);
        return;
      case 1:
        c.wait = Wait::timeout;
        c.timeout = std::chrono::microseconds(1);
        return;
      case 2:
        if (!would_wait) {
          c.wait = Wait::timeout;
          c.timeout = ringkernel::default_queue_timeout;
          return;
        }
        [[fallthrough]];
      default:
        c.wait = Wait::timeout;
        c.timeout = std::chrono::nanoseconds(0);
        return;
    }
  }

  bool filling_ = true;
  std::uint64_t next_id_ = 1;
  std::uint64_t calls_ = 0;        // on the current queue
  std::uint64_t shutdown_at_ = 0;  // the call that shuts it down (none if the episode is shorter)
};

}  // namespace queue_model
