// Copyright RingKernel authors.
// Clang-style diagnostics for the generator's own checks ("file:line:col: error: ..." followed by
// "note: fix: ..."), and a consumer that prints, counts and records every diagnostic of a run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class TextDiagnosticPrinter;
}

namespace ringkernel::gen {

/// Reports generator errors through a clang DiagnosticsEngine with custom diagnostic ids.
class Diagnoser {
 public:
  explicit Diagnoser(clang::DiagnosticsEngine& engine);

  /// "error: <message>" at `where`, then "note: fix: <fix>" at the same place unless fix is empty.
  void error(clang::SourceLocation where, llvm::StringRef message, llvm::StringRef fix = {});
  /// "note: <message>" attached to the previous error.
  void note(clang::SourceLocation where, llvm::StringRef message);

  clang::DiagnosticsEngine& engine() { return engine_; }

 private:
  clang::DiagnosticsEngine& engine_;
  unsigned errorId_;
  unsigned noteId_;
  unsigned fixId_;
};

/// One diagnostic as printed, kept for tests and for the error count.
struct RecordedDiagnostic {
  clang::DiagnosticsEngine::Level level = clang::DiagnosticsEngine::Error;
  std::string file;   // presumed file name; empty when the diagnostic has no location
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
};

/// Prints diagnostics like clang does (to `out`) and records them. Shared by every translation
/// unit of one run. An error clang reports without a location while a header is parsed (a UTF-16
/// byte order mark: the file cannot be read, so there is no place in it) is printed and recorded at
/// the header's line 1, column 1, and so are the notes that follow it.
class RecordingDiagnosticConsumer : public clang::DiagnosticConsumer {
 public:
  explicit RecordingDiagnosticConsumer(llvm::raw_ostream& out);
  ~RecordingDiagnosticConsumer() override;

  void BeginSourceFile(const clang::LangOptions& langOpts, const clang::Preprocessor* pp) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override;
  void finish() override;

  const std::vector<RecordedDiagnostic>& diagnostics() const { return recorded_; }

 private:
  void record(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info);

  llvm::raw_ostream& out_;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options_;
  std::unique_ptr<clang::TextDiagnosticPrinter> printer_;
  std::vector<RecordedDiagnostic> recorded_;
  std::string placedFile_;  // the header the last location-less error was placed in; else empty
};

}  // namespace ringkernel::gen
