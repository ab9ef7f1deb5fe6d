// Copyright RingKernel authors.
// Positions and notes for the tests of macro values in [[ringkernel::message]]
// (test_attribute_value_macros.cpp, test_attribute_value_macro_errors.cpp).
#pragma once

#include <string>

#include "frontend_harness.h"

namespace ringkernel::gen::testing {

/// Where the value `written` follows `key = ` in `source` (the use of a macro value).
inline Position valueAt(const std::string& source, const std::string& key, const std::string& written,
                        int occurrence = 1) {
  const std::string needle = key + " = " + written;
  Position position = positionOf(source, needle, occurrence);
  position.column += static_cast<unsigned>(key.size() + 3);
  return position;
}

/// Where `#define name` names the macro in `source`.
inline Position definitionOf(const std::string& source, const std::string& name, int occurrence = 1) {
  Position position = positionOf(source, "#define " + name, occurrence);
  position.column += 8;
  return position;
}

/// The run has a note in `file` at `where` whose text contains `fragment`.
inline ::testing::AssertionResult hasNoteIn(const FrontendRun& run, const std::string& file,
                                            Position where, const std::string& fragment) {
  for (const RecordedDiagnostic& d : run.result.diagnostics) {
    if (d.level == clang::DiagnosticsEngine::Note && d.file == file && d.line == where.line &&
        d.column == where.column && d.message.find(fragment) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "no note at " << file << ":" << where.line << ":"
                                       << where.column << " containing '" << fragment
                                       << "'\nprinted:\n" << run.printed;
}

inline ::testing::AssertionResult hasNote(const FrontendRun& run, Position where,
                                          const std::string& fragment) {
  return hasNoteIn(run, kHeaderPath, where, fragment);
}

/// "note: expanded from macro 'name'" at its #define in the header.
inline ::testing::AssertionResult notesExpansion(const FrontendRun& run, const std::string& source,
                                                 const std::string& name, int occurrence = 1) {
  return hasNote(run, definitionOf(source, name, occurrence), "expanded from macro '" + name + "'");
}

}  // namespace ringkernel::gen::testing
