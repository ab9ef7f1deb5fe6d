// Copyright RingKernel authors.
// Clang-style diagnostics for the generator's own checks ("file:line:col: error: ..." followed by
// "note: fix: ..."), and a consumer that prints, counts and records every diagnostic of a run,
// with their fix-its.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class SourceManager;
class TextDiagnostic;
}  // namespace clang

namespace ringkernel::gen {

/// Reports generator errors through a clang DiagnosticsEngine with custom diagnostic ids.
class Diagnoser {
 public:
  explicit Diagnoser(clang::DiagnosticsEngine& engine);

  /// "error: <message>" at `where`, then "note: fix: <fix>" at the same place unless fix is empty.
  void error(clang::SourceLocation where, llvm::StringRef message, llvm::StringRef fix = {});
  /// The same for the wrong text `token` (characters in a file: a raw-lexed token's, or a value's
  /// tokens through its last), which the caret underlines whole; with a `replacement`, clang's
  /// fix-it that writes it over the text (printed under the caret; pass one only where
  /// fixItLocation allows an edit). The note, which should then say more than the fix-it, is
  /// printed without repeating the source line.
  void error(clang::CharSourceRange token, llvm::StringRef message, llvm::StringRef fix,
             llvm::StringRef replacement = {});
  /// The same at `where` (the caret), underlining the tokens of `highlighted` (such as a
  /// declaration's type and declarator around the caret at its name).
  void error(clang::SourceLocation where, clang::SourceRange highlighted, llvm::StringRef message,
             llvm::StringRef fix);
  /// "error: <message>" at `where` with clang's fix-it `insertion` (text written before
  /// `insertion.RemoveRange`'s start: pass one only where fixItLocation allows an edit), then the
  /// note as above.
  void error(clang::SourceLocation where, llvm::StringRef message, llvm::StringRef fix,
             const clang::FixItHint& insertion);
  /// "note: <message>" attached to the previous error.
  void note(clang::SourceLocation where, llvm::StringRef message);
  /// The same with clang's fix-it `edit` (printed under the note's source line).
  void note(clang::SourceLocation where, llvm::StringRef message, const clang::FixItHint& edit);

  clang::DiagnosticsEngine& engine() { return engine_; }

 private:
  clang::DiagnosticsEngine& engine_;
  unsigned errorId_;
  unsigned noteId_;
  unsigned fixId_;
};

/// Where a fix-it may edit the text `loc` stands for, by clang's rules for macros (those of
/// Lexer::makeFileCharRange): `loc` itself in a file, and for a token of a macro argument the place
/// the argument is written; invalid inside a macro's definition (shared by all its uses) and in
/// text no file holds (token pasting, -D).
clang::SourceLocation fixItLocation(clang::SourceLocation loc, const clang::SourceManager& sm);

/// A range the caret line underlines, as recorded: the characters from line:column up to
/// endLine:endColumn (exclusive; presumed locations, as printed).
struct RecordedRange {
  unsigned line = 0;
  unsigned column = 0;
  unsigned endLine = 0;
  unsigned endColumn = 0;
};

/// A fix-it as recorded: replace the characters of its range by `text`, as clang's
/// -fdiagnostics-parseable-fixits spells it.
struct RecordedFixIt : RecordedRange {
  std::string text;
};

/// One diagnostic as printed, kept for tests and for the error count.
struct RecordedDiagnostic {
  clang::DiagnosticsEngine::Level level = clang::DiagnosticsEngine::Error;
  std::string file;   // presumed file name; empty when the diagnostic has no location
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
  std::vector<RecordedRange> ranges;  // those that map to a file (as the printer shows them)
  std::vector<RecordedFixIt> fixIts;
};

/// Prints diagnostics like clang does (to `out`) and records them. Shared by every translation
/// unit of one run; the run clears its counts (clear(): the counts only, not what was recorded)
/// before each header, for clang's "N warnings generated." after it. An error clang reports
/// without a location while a header is parsed (a UTF-16 byte order mark: the file cannot be read,
/// so there is no place in it) is printed and recorded at the header's line 1, column 1, and so are
/// the notes that follow it in that header (BeginSourceFile and EndSourceFile end the placing).
class RecordingDiagnosticConsumer : public clang::DiagnosticConsumer {
 public:
  explicit RecordingDiagnosticConsumer(llvm::raw_ostream& out);
  ~RecordingDiagnosticConsumer() override;

  void BeginSourceFile(const clang::LangOptions& langOpts, const clang::Preprocessor* pp) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override;
  void finish() override;

  const std::vector<RecordedDiagnostic>& diagnostics() const { return recorded_; }

  /// While on, a warning reported without a location while a header is parsed is placed at the
  /// header's line 1, column 1 too (with the notes after it): the generator's diagnostics about a
  /// header as a whole, with no source line shown (no_messages_warning.h).
  void setPlacingAtHeader(bool on) { placingAtHeader_ = on; }

 private:
  /// Counts, prints (as clang's TextDiagnosticPrinter does) and records one diagnostic; `info`
  /// gives the location, `message`, `ranges` and `fixIts` the rest.
  void record(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info,
              llvm::StringRef message, llvm::ArrayRef<clang::CharSourceRange> ranges,
              llvm::ArrayRef<clang::FixItHint> fixIts);
  void record(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info);

  llvm::raw_ostream& out_;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options_;
  const clang::LangOptions* langOpts_ = nullptr;  // of the source file being parsed
  std::unique_ptr<clang::TextDiagnostic> printer_;  // while a source file is parsed
  std::vector<RecordedDiagnostic> recorded_;
  std::string placedFile_;  // the header the last location-less error was placed in (this source file); else empty
  bool placingAtHeader_ = false;
};

}  // namespace ringkernel::gen
