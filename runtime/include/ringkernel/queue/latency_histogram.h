// Copyright RingKernel authors.
// Lock-free latency histogram: log2 buckets, each split into 8 linear sub-buckets (the HDR
// histogram idea at 3 bits of precision). Recording is two relaxed atomic adds and a max; the
// summary's percentiles are the upper bound of the bucket that holds the rank, capped at the
// largest value recorded, so they overstate the true value by at most 12.5 % (and never understate
// it, but while samples are being recorded concurrently); the mean is exact.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>

#include "ringkernel/detail/to_size.h"
#include "ringkernel/queue/queue_types.h"

namespace ringkernel::detail {

class latency_histogram {
 public:
  static constexpr unsigned sub_bits = 3;
  static constexpr unsigned sub_buckets = 1u << sub_bits;
  static constexpr std::size_t bucket_count = (64 - sub_bits + 1) * sub_buckets;

  /// Bucket of a value: values below 8 have their own bucket; above, (exponent, top 3 mantissa bits).
  static constexpr std::size_t bucket_of(std::uint64_t v) noexcept {
    if (v < sub_buckets) return to_size(v);
    const unsigned exponent = 63u - static_cast<unsigned>(std::countl_zero(v));  // >= sub_bits
    const unsigned shift = exponent - sub_bits;
    const std::uint64_t mantissa = (v >> shift) & (sub_buckets - 1);
    return (shift + 1) * sub_buckets + to_size(mantissa);
  }
  /// Largest value that falls into bucket b.
  static constexpr std::uint64_t upper_bound(std::size_t b) noexcept {
    if (b < sub_buckets) return b;
    const unsigned shift = static_cast<unsigned>(b / sub_buckets) - 1;
    const std::uint64_t mantissa = b % sub_buckets;
    const std::uint64_t low = (std::uint64_t{sub_buckets} + mantissa) << shift;
    return low + ((std::uint64_t{1} << shift) - 1);
  }

  void record(std::uint64_t v) noexcept {
    counts_[bucket_of(v)].fetch_add(1, std::memory_order_relaxed);
    sum_.fetch_add(v, std::memory_order_relaxed);
    std::uint64_t m = max_.load(std::memory_order_relaxed);
    while (v > m && !max_.compare_exchange_weak(m, v, std::memory_order_relaxed)) {
    }
  }

  /// A stamped message (timestamp `sent_us`, not 0) received at `now_us`, both in µs since the
  /// epoch: its latency is recorded, unless there is none to report: a stamp before the epoch
  /// (negative, which no stamper writes) or later than `now_us` (the clocks disagree) is counted
  /// apart (stamped_before_epoch, stamped_ahead) and kept out of the figures.
  void record_stamp(std::int64_t sent_us, std::int64_t now_us) noexcept {
    if (sent_us < 0) {
      stamped_before_epoch_.fetch_add(1, std::memory_order_relaxed);
    } else if (now_us >= sent_us) {
      record(static_cast<std::uint64_t>(now_us - sent_us));
    } else {
      stamped_ahead_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  /// A summary of everything recorded so far (concurrent recording may be partly included).
  LatencyStatistics summary() const noexcept {
    LatencyStatistics s;
    s.stamped_ahead = stamped_ahead_.load(std::memory_order_relaxed);
    s.stamped_before_epoch = stamped_before_epoch_.load(std::memory_order_relaxed);
    std::array<std::uint64_t, bucket_count> counts{};
    for (std::size_t b = 0; b < bucket_count; ++b) {
      counts[b] = counts_[b].load(std::memory_order_relaxed);
      s.samples += counts[b];
    }
    if (s.samples == 0) return s;
    s.mean_us = static_cast<double>(sum_.load(std::memory_order_relaxed)) / static_cast<double>(s.samples);
    s.max_us = max_.load(std::memory_order_relaxed);
    // A bucket's upper bound can exceed the largest value recorded: no percentile says more than max.
    s.p50_us = std::min(percentile(counts, s.samples, 50), s.max_us);
    s.p99_us = std::min(percentile(counts, s.samples, 99), s.max_us);
    return s;
  }

 private:
  // Upper bound of the bucket holding the ceil(samples * pct / 100)-th smallest value.
  static std::uint64_t percentile(const std::array<std::uint64_t, bucket_count>& counts, std::uint64_t samples,
                                  std::uint64_t pct) noexcept {
    const std::uint64_t rank = (samples * pct + 99) / 100;
    std::uint64_t seen = 0;
    for (std::size_t b = 0; b < bucket_count; ++b) {
      seen += counts[b];
      if (seen >= rank && counts[b] != 0) return upper_bound(b);
    }
    return upper_bound(bucket_count - 1);
  }

  std::array<std::atomic<std::uint64_t>, bucket_count> counts_{};
  std::atomic<std::uint64_t> sum_{0};
  std::atomic<std::uint64_t> max_{0};
  std::atomic<std::uint64_t> stamped_ahead_{0};
  std::atomic<std::uint64_t> stamped_before_epoch_{0};
};

}  // namespace ringkernel::detail
