// Copyright RingKernel authors.
#include "diagnostics.h"

#include <cctype>

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/SmallString.h"

namespace ringkernel::gen {

Diagnoser::Diagnoser(clang::DiagnosticsEngine& engine)
    : engine_(engine),
      errorId_(engine.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")),
      noteId_(engine.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0")),
      fixId_(engine.getCustomDiagID(clang::DiagnosticsEngine::Note, "fix: %0")) {}

void Diagnoser::error(clang::SourceLocation where, llvm::StringRef message, llvm::StringRef fix) {
  engine_.Report(where, errorId_) << message;
  if (!fix.empty()) engine_.Report(where, fixId_) << fix;
}

void Diagnoser::note(clang::SourceLocation where, llvm::StringRef message) {
  engine_.Report(where, noteId_) << message;
}

RecordingDiagnosticConsumer::RecordingDiagnosticConsumer(llvm::raw_ostream& out)
    : out_(out),
      options_(new clang::DiagnosticOptions()),
      printer_(std::make_unique<clang::TextDiagnosticPrinter>(out, options_.get())) {
  options_->ShowColors = out.has_colors();
  // As clang prints them (its driver's default): after #line, and <command line> for a -D macro; the
  // recorded locations are presumed ones too.
  options_->ShowPresumedLoc = true;
}

RecordingDiagnosticConsumer::~RecordingDiagnosticConsumer() = default;

void RecordingDiagnosticConsumer::BeginSourceFile(const clang::LangOptions& langOpts,
                                                  const clang::Preprocessor* pp) {
  printer_->BeginSourceFile(langOpts, pp);
}

void RecordingDiagnosticConsumer::EndSourceFile() { printer_->EndSourceFile(); }

void RecordingDiagnosticConsumer::finish() { printer_->finish(); }

namespace {

/// For clang's "unknown attribute ignored" on an attribute spelt ringkernel::<name>, that name (a
/// misspelt [[ringkernel::message]]); empty for anything else. Compilers cannot catch the typo:
/// RingKernel::runtime has them ignore every ringkernel:: attribute.
std::string misspeltOwnAttribute(const clang::Diagnostic& info) {
  if (info.getID() != clang::diag::warn_unknown_attribute_ignored || !info.hasSourceManager() ||
      !info.getLocation().isValid()) {
    return {};
  }
  const clang::SourceManager& sources = info.getSourceManager();
  bool invalid = false;
  const char* at = sources.getCharacterData(sources.getSpellingLoc(info.getLocation()), &invalid);
  if (invalid || at == nullptr) return {};
  llvm::StringRef text(at);
  if (!text.consume_front("ringkernel")) return {};
  text = text.ltrim(" \t");
  if (!text.consume_front("::")) return {};
  text = text.ltrim(" \t");
  return text.take_while([](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }).str();
}

/// The header being parsed, for an error clang reports without a location (such as a UTF-16 byte
/// order mark in it); empty for a diagnostic with a location, one that is no error, "too many
/// errors" (about the count, not a place) and one before a header is open (command-line flags).
std::string mainFileOf(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) {
  if (level < clang::DiagnosticsEngine::Error || info.getLocation().isValid() ||
      !info.hasSourceManager() || info.getID() == clang::diag::fatal_too_many_errors) {
    return {};
  }
  const clang::SourceManager& sources = info.getSourceManager();
  if (sources.getMainFileID().isInvalid()) return {};
  const clang::OptionalFileEntryRef file = sources.getFileEntryRefForID(sources.getMainFileID());
  return file ? file->getName().str() : std::string();
}

}  // namespace

void RecordingDiagnosticConsumer::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                                   const clang::Diagnostic& info) {
  if (const std::string name = misspeltOwnAttribute(info); !name.empty()) {
    // An error instead of the warning, at the same place (the engine's current diagnostic).
    record(clang::DiagnosticsEngine::Error,
           clang::Diagnostic(info.getDiags(), "unknown attribute 'ringkernel::" + name +
                                                  "'; the only one is ringkernel::message, and "
                                                  "compilers ignore every ringkernel:: attribute"));
    record(clang::DiagnosticsEngine::Note,
           clang::Diagnostic(info.getDiags(), "fix: write [[ringkernel::message]] (or "
                                              "[[ringkernel::message(...)]])"));
    return;
  }
  record(level, info);
  if (info.getID() == clang::diag::err_unsupported_bom && level >= clang::DiagnosticsEngine::Error) {
    record(clang::DiagnosticsEngine::Note,
           clang::Diagnostic(info.getDiags(), "fix: save the header as UTF-8 (with or without "
                                              "its byte order mark, EF BB BF)"));
  }
}

void RecordingDiagnosticConsumer::record(clang::DiagnosticsEngine::Level level,
                                         const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);  // counts errors and warnings

  RecordedDiagnostic record;
  record.level = level;
  llvm::SmallString<256> text;
  info.FormatDiagnostic(text);
  record.message = text.str().str();
  if (info.getLocation().isValid() && info.hasSourceManager()) {
    placedFile_.clear();
    clang::PresumedLoc presumed = info.getSourceManager().getPresumedLoc(info.getLocation());
    if (presumed.isValid()) {
      record.file = presumed.getFilename();
      record.line = presumed.getLine();
      record.column = presumed.getColumn();
    }
  } else if (level != clang::DiagnosticsEngine::Note) {
    placedFile_ = mainFileOf(level, info);  // empty: printed without a location, as clang does
  }
  if (!placedFile_.empty() && !info.getLocation().isValid()) {
    // The location clang's printer would print before "error:" (it prints none here).
    if (options_->ShowColors) out_.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    out_ << placedFile_ << ":1:1: ";
    if (options_->ShowColors) out_.resetColor();
    record.file = placedFile_;
    record.line = 1;
    record.column = 1;
  }
  printer_->HandleDiagnostic(level, info);
  recorded_.push_back(std::move(record));
}

}  // namespace ringkernel::gen
