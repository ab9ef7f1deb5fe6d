// Copyright RingKernel authors.
// Runs the ringkernel-gen frontend on in-memory headers (an llvm::vfs::InMemoryFileSystem over the
// real file system, so <cstdint> and clang's builtin headers still resolve) and offers lookups and
// diagnostic assertions for the tests.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "frontend.h"
#include "model.h"

namespace ringkernel::gen::testing {

/// Where the in-memory header lives; extra files go next to it.
inline constexpr const char* kTestDir = "/ringkernel-test";
inline constexpr const char* kHeaderPath = "/ringkernel-test/messages.h";
inline constexpr const char* kOutputDir = "/ringkernel-test/out";

struct FrontendRun {
  FrontendResult result;
  std::string printed;  // diagnostics as clang printed them

  const HeaderModel& header() const;
  /// The message with this qualified name; fails the test (and throws) when missing.
  const MessageModel& message(const std::string& qualifiedName) const;
  const FieldModel& field(const std::string& message, const std::string& field) const;
  const EnumModel& enumeration(const std::string& qualifiedName) const;
};

/// Parses `source` as kHeaderPath for `target` (empty: host). `extraFiles` maps absolute paths
/// to contents; `compilerArgs` are the flags after `--` (e.g. "-I/ringkernel-test").
FrontendRun runFrontendOn(const std::string& source, const std::string& target = "x86_64-linux-gnu",
                          const std::map<std::string, std::string>& extraFiles = {},
                          const std::vector<std::string>& compilerArgs = {});

/// Succeeds if the run reported an error at kHeaderPath:line:column whose text contains every
/// fragment of `message`, followed by a "fix: ..." note containing `fix` (skipped when empty).
::testing::AssertionResult hasError(const FrontendRun& run, unsigned line, unsigned column,
                                    const std::vector<std::string>& message,
                                    const std::string& fix = "");

/// 1-based line and column of the `occurrence`-th (1-based) appearance of `needle` in `source`,
/// so tests name the offending token instead of counting columns by hand.
struct Position {
  unsigned line = 0;
  unsigned column = 0;
};
Position positionOf(const std::string& source, const std::string& needle, int occurrence = 1);

::testing::AssertionResult hasError(const FrontendRun& run, Position where,
                                    const std::vector<std::string>& message,
                                    const std::string& fix = "");

/// The first error of the run whose text contains `fragment`, or null.
const RecordedDiagnostic* findError(const FrontendRun& run, const std::string& fragment);

/// Of the notes right after `error` (one of run's diagnostics), the first whose text contains
/// `fragment`, or null.
const RecordedDiagnostic* findNoteAfter(const FrontendRun& run, const RecordedDiagnostic& error,
                                        const std::string& fragment);

/// Number of errors the run reported.
unsigned errorCount(const FrontendRun& run);

}  // namespace ringkernel::gen::testing
