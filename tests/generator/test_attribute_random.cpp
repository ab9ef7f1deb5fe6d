// Copyright RingKernel authors.
// Randomized robustness test of the [[ringkernel::message(...)]] argument parser through the
// in-memory front end: attribute_grammar.h generates headers from a token grammar with a fixed-seed
// PRNG, and every case must end in one of two ways. Accepted: no error, one message whose options
// are within their domains and, for every key the grammar gave a value of known meaning, equal to
// it (all of them for a case of known meaning only). Refused: at least one error, every error at a
// line and column inside the header, at least one inside the attribute (or the macro that spells
// it), and the error count equal to the errors printed. A case the grammar made invalid must be
// refused; one of known meaning must be accepted. Crashes fail the test process (the case is
// printed first with RINGKERNEL_ATTRIBUTE_VERBOSE=1); a case that runs longer than a minute aborts
// it with the case printed.
//   RINGKERNEL_ATTRIBUTE_SEED   the seed (default below; printed either way)
//   RINGKERNEL_ATTRIBUTE_CASES  the number of cases (default: RINGKERNEL_ATTRIBUTE_RANDOM_CASES)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "attribute_grammar.h"
#include "frontend_harness.h"
#include "names.h"

#ifndef RINGKERNEL_ATTRIBUTE_RANDOM_CASES
#define RINGKERNEL_ATTRIBUTE_RANDOM_CASES 1000
#endif

namespace ringkernel::gen::testing {
namespace {

std::uint64_t fromEnvironment(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 0) : fallback;
}

/// Aborts the process, with the case printed, when one case runs longer than `limit`.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds limit) : limit_(limit), thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void arm(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    what_ = what;
    ++generation_;
    armed_ = true;
    wake_.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = false;
    wake_.notify_all();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      if (!armed_) {
        wake_.wait(lock);
        continue;
      }
      const std::uint64_t generation = generation_;
      if (!wake_.wait_for(lock, limit_, [&] { return done_ || !armed_ || generation_ != generation; })) {
        std::cerr << "attribute case ran longer than " << limit_.count() << " s (a hang):\n" << what_ << std::endl;
        std::abort();
      }
    }
  }

  std::chrono::seconds limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string what_;
  std::uint64_t generation_ = 0;
  bool armed_ = false;
  bool done_ = false;
  std::thread thread_;
};

/// Byte offset of a 1-based line and column in `source`, or nullopt when it is not in it (the
/// column may be one past the end of its line: the end of the file or a line's break).
std::optional<std::size_t> offsetOf(const std::string& source, unsigned line, unsigned column) {
  if (line == 0 || column == 0) return std::nullopt;
  std::size_t start = 0;
  for (unsigned l = 1; l < line; ++l) {
    start = source.find('\n', start);
    if (start == std::string::npos) return std::nullopt;
    ++start;
  }
  const std::size_t end = std::min(source.find('\n', start), source.size());
  if (start + column - 1 > end) return std::nullopt;
  return start + column - 1;
}

bool isError(const RecordedDiagnostic& d) { return d.level >= clang::DiagnosticsEngine::Error; }

bool unknown(const AttributeCase& c, const char* key) {
  return std::find(c.unknownKeys.begin(), c.unknownKeys.end(), key) != c.unknownKeys.end();
}

/// The accepted options against their domains and against what the grammar meant.
::testing::AssertionResult checkAccepted(const AttributeCase& c, const FrontendRun& run) {
  if (c.mustFail) return ::testing::AssertionFailure() << "accepted a case the grammar made invalid";
  if (run.result.headers.size() != 1 || run.result.headers[0].messages.size() != 1) {
    return ::testing::AssertionFailure() << "no error, but not one header with one message";
  }
  const MessageModel& m = run.result.headers[0].messages[0];
  const MessageOptions& o = m.options;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  bool ok = true;
  const auto expect = [&](bool holds, const std::string& what) {
    if (!holds) failure << what << "\n";
    ok = ok && holds;
  };
  expect(!o.id || *o.id != 0, "id 0 accepted");
  expect(m.typeId != 0 && m.typeId == o.id.value_or(m.typeId), "type id is not the id option");
  expect(o.direction == Direction::Input || o.direction == Direction::Output ||
             o.direction == Direction::KernelToKernel || o.direction == Direction::Bidirectional,
         "direction out of its domain");
  expect(o.format == WireFormat::Array || o.format == WireFormat::Map, "format out of its domain");
  expect(!o.kernel || isKernelName(*o.kernel), "kernel '" + o.kernel.value_or("") + "' is no kernel name");
  expect(m.kernelId == fnv1a32(m.kernel), "kernel id is not the hash of the kernel");
  const IntendedOptions& want = c.intended;
  // A case of known meaning: every key as intended or at its default. Otherwise the keys whose
  // every piece had a known meaning.
  const auto known = [&](const char* key, bool given) { return (c.exact || given) && !unknown(c, key); };
  if (known("id", want.id.has_value())) {
    expect(o.id == want.id, "id " + std::to_string(o.id.value_or(0)) + ", meant " + std::to_string(want.id.value_or(0)));
  }
  if (known("priority", want.priority.has_value())) {
    expect(o.priority == want.priority.value_or(128),
           "priority " + std::to_string(o.priority) + ", meant " + std::to_string(want.priority.value_or(128)));
  }
  if (known("kernel", want.kernel.has_value())) {
    expect(o.kernel == want.kernel, "kernel '" + o.kernel.value_or("<none>") + "', meant '" + want.kernel.value_or("<none>") + "'");
  }
  if (known("direction", want.direction.has_value())) {
    expect(o.direction == want.direction.value_or(Direction::Bidirectional), "direction differs");
  }
  if (known("causal", want.causal.has_value())) expect(o.causal == want.causal.value_or(false), "causal differs");
  if (known("format", want.format.has_value())) {
    expect(o.format == want.format.value_or(WireFormat::Array), "format differs");
  }
  return ok ? ::testing::AssertionSuccess() : failure;
}

::testing::AssertionResult checkCase(const AttributeCase& c, const FrontendRun& run) {
  unsigned errors = 0;
  bool inRegion = false;
  for (const RecordedDiagnostic& d : run.result.diagnostics) {
    if (!isError(d)) continue;
    ++errors;
    const std::optional<std::size_t> at = d.file == kHeaderPath ? offsetOf(c.source, d.line, d.column) : std::nullopt;
    if (!at) {
      return ::testing::AssertionFailure() << "an error without a place in the header: '" << d.file << "':"
                                           << d.line << ":" << d.column << ": " << d.message;
    }
    inRegion = inRegion || (*at >= c.regionBegin && *at <= c.regionEnd);
  }
  if (errors != run.result.errorCount) {
    return ::testing::AssertionFailure() << run.result.errorCount << " errors counted, " << errors << " printed";
  }
  if (errors == 0) return checkAccepted(c, run);
  if (c.exact) return ::testing::AssertionFailure() << "refused a case of known meaning";
  if (!inRegion) return ::testing::AssertionFailure() << "no error inside the attribute";
  return ::testing::AssertionSuccess();
}

TEST(AttributeRandom, EveryGeneratedAttributeIsAcceptedAsMeantOrRefusedWithALocation) {
  const std::uint64_t seed = fromEnvironment("RINGKERNEL_ATTRIBUTE_SEED", 0x52494e474b45524eull);
  const std::uint64_t cases = fromEnvironment("RINGKERNEL_ATTRIBUTE_CASES", RINGKERNEL_ATTRIBUTE_RANDOM_CASES);
  const bool verbose = fromEnvironment("RINGKERNEL_ATTRIBUTE_VERBOSE", 0) != 0;
  std::cout << "attribute grammar: seed " << seed << ", " << cases
            << " cases (RINGKERNEL_ATTRIBUTE_SEED, RINGKERNEL_ATTRIBUTE_CASES)" << std::endl;
  RecordProperty("seed", std::to_string(seed));
  AttributeGrammar grammar(seed);
  Watchdog watchdog(std::chrono::seconds(60));
  std::uint64_t ran = 0, accepted = 0, exact = 0;
  unsigned failures = 0;
  for (std::uint64_t i = 0; i < cases && failures < 10; ++i, ++ran) {
    const AttributeCase c = grammar.next();
    const std::string shown = "case " + std::to_string(i) + " of seed " + std::to_string(seed) + ":\n" +
                              c.source.substr(c.regionBegin) + "\n";
    if (verbose) std::cout << shown << std::flush;
    watchdog.arm(shown);
    const FrontendRun run = runFrontendOn(c.source);
    watchdog.disarm();
    const ::testing::AssertionResult result = checkCase(c, run);
    if (!result) {
      ++failures;
      ADD_FAILURE() << shown << result.message() << "\nprinted:\n" << run.printed;
    }
    accepted += run.result.errorCount == 0 ? 1 : 0;
    exact += c.exact ? 1 : 0;
  }
  std::cout << "attribute grammar: " << accepted << " accepted (" << exact << " of known meaning), "
            << ran - accepted << " refused" << std::endl;
}

}  // namespace
}  // namespace ringkernel::gen::testing
