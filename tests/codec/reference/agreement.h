// Copyright RingKernel authors.
// The differential check of the codec tests (test_differential.cpp, test_many_fields.cpp):
// structured valid and invalid encodings of a message (encoding_variants.h) and every prefix of a
// plain encoding must give the same result from ringkernel::decode and the reference decoder
// (differential.h).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "codec_test_support.h"
#include "reference/differential.h"
#include "reference/encoding_variants.h"

namespace codec_test::agreement {

struct tally {
  std::size_t accepted = 0;
  std::size_t rejected = 0;
  std::vector<std::string> disagreements;
};

template <class T>
void check(const codec_variants::bytes& wire, tally& t) {
  const std::string report = codec_reference::disagreement<T>(wire.data(), wire.size());
  if (!report.empty()) t.disagreements.push_back(report);
  T m{};
  const bool ok = ringkernel::decode(wire.data(), wire.size(), m).status == ringkernel::codec_status::ok;
  ++(ok ? t.accepted : t.rejected);
}

/// Every variant, and the prefixes of the plain encoding (truncated, except the whole): all of them
/// up to 1 KiB, then every 4099th and the last 64 (Huge's 200 KiB would take minutes).
template <class T>
tally check_all() {
  tally t;
  for (const codec_variants::bytes& wire : codec_variants::message_variants<T>()) check<T>(wire, t);
  const codec_variants::bytes whole = codec_variants::plain<T>();
  for (std::size_t n = 0; n <= whole.size(); ++n) {
    if (n < 1024 || whole.size() - n <= 64 || n % 4099 == 0) {
      check<T>(codec_variants::bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n)), t);
    }
  }
  return t;
}

template <class T>
void expect_agreement(std::size_t min_accepted, std::size_t min_rejected) {
  const tally t = check_all<T>();
  std::string first;
  for (std::size_t i = 0; i < t.disagreements.size() && i < 5; ++i) first += t.disagreements[i] + "\n";
  EXPECT_TRUE(t.disagreements.empty()) << t.disagreements.size() << " disagreements, the first:\n" << first;
  // The variants must exercise both outcomes, or agreement would prove little.
  EXPECT_GE(t.accepted, min_accepted);
  EXPECT_GE(t.rejected, min_rejected);
}

}  // namespace codec_test::agreement
