// Copyright RingKernel authors.
#include "diagnostics.h"

#include <cctype>
#include <cstdint>
#include <optional>

#include "spelling_suggestion.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Lex/Lexer.h"
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

void Diagnoser::error(clang::CharSourceRange token, llvm::StringRef message, llvm::StringRef fix,
                      llvm::StringRef replacement) {
  {
    clang::DiagnosticBuilder report = engine_.Report(token.getBegin(), errorId_);
    report << message << token;
    if (!replacement.empty()) report << clang::FixItHint::CreateReplacement(token, replacement);
  }
  // At the same place without ranges: clang's printer does not repeat the source line.
  if (!fix.empty()) engine_.Report(token.getBegin(), fixId_) << fix;
}

void Diagnoser::error(clang::SourceLocation where, clang::SourceRange highlighted,
                      llvm::StringRef message, llvm::StringRef fix) {
  engine_.Report(where, errorId_) << message << clang::CharSourceRange::getTokenRange(highlighted);
  if (!fix.empty()) engine_.Report(where, fixId_) << fix;
}

void Diagnoser::error(clang::SourceLocation where, llvm::StringRef message, llvm::StringRef fix,
                      const clang::FixItHint& insertion) {
  engine_.Report(where, errorId_) << message << insertion;
  if (!fix.empty()) engine_.Report(where, fixId_) << fix;
}

void Diagnoser::note(clang::SourceLocation where, llvm::StringRef message) {
  engine_.Report(where, noteId_) << message;
}

void Diagnoser::note(clang::SourceLocation where, llvm::StringRef message, const clang::FixItHint& edit) {
  engine_.Report(where, noteId_) << message << edit;
}

clang::SourceLocation fixItLocation(clang::SourceLocation loc, const clang::SourceManager& sm) {
  while (loc.isMacroID()) {
    if (!sm.isMacroArgExpansion(loc)) return {};  // in a macro's definition
    loc = sm.getImmediateSpellingLoc(loc);        // where the argument is written
  }
  if (loc.isInvalid() || sm.isWrittenInScratchSpace(loc) || sm.isWrittenInBuiltinFile(loc) ||
      sm.isWrittenInCommandLineFile(loc)) {
    return {};
  }
  return loc;
}

RecordingDiagnosticConsumer::RecordingDiagnosticConsumer(llvm::raw_ostream& out)
    : out_(out), options_(new clang::DiagnosticOptions()) {
  options_->ShowColors = out.has_colors();
  // As clang prints them (its driver's default): after #line, and <command line> for a -D macro; the
  // recorded locations are presumed ones too.
  options_->ShowPresumedLoc = true;
}

RecordingDiagnosticConsumer::~RecordingDiagnosticConsumer() = default;

// This consumer prints as clang's TextDiagnosticPrinter does (through the same TextDiagnostic),
// so that a diagnostic it rewrites can have ranges and fix-its of its own: a clang::Diagnostic
// takes them from the engine's diagnostic in flight only.
void RecordingDiagnosticConsumer::BeginSourceFile(const clang::LangOptions& langOpts,
                                                  const clang::Preprocessor* pp) {
  langOpts_ = &langOpts;
  printer_ = std::make_unique<clang::TextDiagnostic>(out_, langOpts, options_.get(), pp);
  placedFile_.clear();  // a note without a location here is no note of the last header's
}

void RecordingDiagnosticConsumer::EndSourceFile() {
  printer_.reset();
  langOpts_ = nullptr;
  placedFile_.clear();
}

void RecordingDiagnosticConsumer::finish() { out_.flush(); }

namespace {

/// A misspelt [[ringkernel::message]]: its namespace and name as written, and how many characters
/// after the attribute's start the name is written. `ownScope`: the namespace is ringkernel itself
/// (only the name is wrong); else a misspelling of it (`RingKernel::`, `ringkernl::`), with the
/// name message or a misspelling of that.
struct MisspeltAttribute {
  std::string scope;
  std::string name;
  unsigned offset = 0;
  bool ownScope = false;
};

/// For clang's "unknown attribute ignored" on an attribute spelt ringkernel::<name>, or spelt
/// <scope>::<name> where scope misspells ringkernel and name is message or misspells it, that
/// attribute; an empty name for anything else. Compilers cannot catch either typo: RingKernel::runtime
/// has them ignore every ringkernel:: attribute, and another namespace is just another tool's.
MisspeltAttribute misspeltOwnAttribute(const clang::Diagnostic& info) {
  if (info.getID() != clang::diag::warn_unknown_attribute_ignored || !info.hasSourceManager() ||
      !info.getLocation().isValid()) {
    return {};
  }
  const clang::SourceManager& sources = info.getSourceManager();
  bool invalid = false;
  const char* at = sources.getCharacterData(sources.getSpellingLoc(info.getLocation()), &invalid);
  if (invalid || at == nullptr) return {};
  const auto isNameChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  const llvm::StringRef whole(at);
  llvm::StringRef text = whole;
  const llvm::StringRef scope = text.take_while(isNameChar);
  const bool ownScope = scope == "ringkernel";
  if (scope.empty() || (!ownScope && !closestSpelling(scope, {"ringkernel"}))) return {};
  text = text.drop_front(scope.size()).ltrim(" \t");
  if (!text.consume_front("::")) return {};
  text = text.ltrim(" \t");
  const auto offset = static_cast<unsigned>(whole.size() - text.size());
  const llvm::StringRef name = text.take_while(isNameChar);
  if (!ownScope && name != "message" && !closestSpelling(name, {"message"})) return {};
  return {scope.str(), name.str(), offset, ownScope};
}

/// The fix-it that writes `message` over a likely typo of it (as the keys of the attribute get
/// one: spelling_suggestion.h), or `ringkernel::message` over a misspelt namespace and its name,
/// where clang allows an edit; else none.
std::vector<clang::FixItHint> attributeNameFix(const MisspeltAttribute& misspelt,
                                               const clang::Diagnostic& info) {
  const clang::SourceLocation at = fixItLocation(info.getLocation(), info.getSourceManager());
  if (at.isInvalid()) return {};
  const auto end = static_cast<int>(misspelt.offset + misspelt.name.size());
  if (!misspelt.ownScope) {
    return {clang::FixItHint::CreateReplacement(clang::CharSourceRange::getCharRange(at, at.getLocWithOffset(end)),
                                                "ringkernel::message")};
  }
  if (!closestSpelling(misspelt.name, {"message"})) return {};
  const clang::SourceLocation name = at.getLocWithOffset(static_cast<int>(misspelt.offset));
  return {clang::FixItHint::CreateReplacement(clang::CharSourceRange::getCharRange(name, at.getLocWithOffset(end)),
                                              "message")};
}

/// A range of characters of one file (Lexer::makeFileCharRange's result) as presumed positions;
/// nullopt if it maps to no file.
std::optional<RecordedRange> presumedRange(const clang::CharSourceRange& inFile, const clang::SourceManager& sources) {
  if (inFile.isInvalid()) return std::nullopt;
  const clang::PresumedLoc begin = sources.getPresumedLoc(inFile.getBegin());
  const clang::PresumedLoc end = sources.getPresumedLoc(inFile.getEnd());
  if (begin.isInvalid() || end.isInvalid()) return std::nullopt;
  return RecordedRange{begin.getLine(), begin.getColumn(), end.getLine(), end.getColumn()};
}

/// `range` as characters of one file: a range in a macro is taken at the macro's use (clang's
/// printer, too, underlines a range from a macro at its use); nullopt if it maps to no file.
std::optional<RecordedRange> recordedRange(const clang::CharSourceRange& range,
                                           const clang::SourceManager& sources,
                                           const clang::LangOptions& langOpts) {
  clang::CharSourceRange inFile = range;
  if (range.getBegin().isMacroID() || range.getEnd().isMacroID()) {
    inFile = clang::CharSourceRange::getTokenRange(sources.getExpansionRange(range.getBegin()).getBegin(),
                                                   sources.getExpansionRange(range.getEnd()).getEnd());
  }
  return presumedRange(clang::Lexer::makeFileCharRange(inFile, sources, langOpts), sources);
}

/// `fixIt` where clang's printer shows it, if it maps to a file (the printer leaves out one that
/// does not, such as one inside a macro's expansion).
std::optional<RecordedFixIt> recordedFixIt(const clang::FixItHint& fixIt, const clang::SourceManager& sources,
                                           const clang::LangOptions& langOpts) {
  const std::optional<RecordedRange> range =
      presumedRange(clang::Lexer::makeFileCharRange(fixIt.RemoveRange, sources, langOpts), sources);
  if (!range) return std::nullopt;
  return RecordedFixIt{*range, fixIt.CodeToInsert};
}

/// The header being parsed, for an error clang reports without a location (such as a UTF-16 byte
/// order mark in it), or a warning `atHeader`; empty for a diagnostic with a location, any other
/// one that is no error, "too many errors" (about the count, not a place) and one before a header
/// is open (command-line flags).
std::string mainFileOf(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info, bool atHeader) {
  const clang::DiagnosticsEngine::Level least =
      atHeader ? clang::DiagnosticsEngine::Warning : clang::DiagnosticsEngine::Error;
  if (level < least || info.getLocation().isValid() ||
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
  if (const MisspeltAttribute misspelt = misspeltOwnAttribute(info); !misspelt.name.empty()) {
    // An error instead of the warning, at the same place and with its range (the attribute). The
    // fix-it says it all; without one the note does, printed without repeating the source line.
    const std::vector<clang::FixItHint> fix = attributeNameFix(misspelt, info);
    const std::string written = misspelt.scope + "::" + misspelt.name;
    record(clang::DiagnosticsEngine::Error, info,
           misspelt.ownScope
               ? "unknown attribute '" + written +
                     "'; the only one is ringkernel::message, and compilers ignore every ringkernel:: attribute"
               : "unknown attribute '" + written +
                     "'; did you mean 'ringkernel::message'? (compilers ignore an attribute of an unknown "
                     "namespace: without the tool the message would silently not exist)",
           info.getRanges(), fix);
    if (fix.empty()) {
      record(clang::DiagnosticsEngine::Note, info,
             "fix: write [[ringkernel::message]] (or [[ringkernel::message(...)]])", {}, {});
    }
    return;
  }
  record(level, info);
  if (info.getID() == clang::diag::err_unsupported_bom && level >= clang::DiagnosticsEngine::Error) {
    record(clang::DiagnosticsEngine::Note, info,
           "fix: save the header as UTF-8 (with or without its byte order mark, EF BB BF)", {}, {});
  }
}

void RecordingDiagnosticConsumer::record(clang::DiagnosticsEngine::Level level,
                                         const clang::Diagnostic& info) {
  llvm::SmallString<256> text;
  info.FormatDiagnostic(text);
  record(level, info, text, info.getRanges(), info.getFixItHints());
}

void RecordingDiagnosticConsumer::record(clang::DiagnosticsEngine::Level level,
                                         const clang::Diagnostic& info, llvm::StringRef message,
                                         llvm::ArrayRef<clang::CharSourceRange> ranges,
                                         llvm::ArrayRef<clang::FixItHint> fixIts) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);  // counts errors and warnings

  RecordedDiagnostic record;
  record.level = level;
  record.message = message.str();
  const bool located = info.getLocation().isValid() && info.hasSourceManager();
  if (located) {
    placedFile_.clear();
    const clang::SourceManager& sources = info.getSourceManager();
    clang::PresumedLoc presumed = sources.getPresumedLoc(info.getLocation());
    if (presumed.isValid()) {
      record.file = presumed.getFilename();
      record.line = presumed.getLine();
      record.column = presumed.getColumn();
    }
    for (const clang::CharSourceRange& range : ranges) {
      std::optional<RecordedRange> recorded =
          langOpts_ != nullptr ? recordedRange(range, sources, *langOpts_) : std::nullopt;
      if (recorded) record.ranges.push_back(*recorded);
    }
    for (const clang::FixItHint& fixIt : langOpts_ != nullptr ? fixIts : llvm::ArrayRef<clang::FixItHint>()) {
      std::optional<RecordedFixIt> recorded = recordedFixIt(fixIt, sources, *langOpts_);
      if (recorded) record.fixIts.push_back(std::move(*recorded));
    }
  } else if (level != clang::DiagnosticsEngine::Note) {
    // Empty: printed without a location, as clang does.
    placedFile_ = mainFileOf(level, info, placingAtHeader_);
  }
  const std::uint64_t start = out_.tell();
  if (!placedFile_.empty() && !info.getLocation().isValid()) {
    // The location clang's printer would print before "error:" (it prints none here).
    if (options_->ShowColors) out_.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    out_ << placedFile_ << ":1:1: ";
    if (options_->ShowColors) out_.resetColor();
    record.file = placedFile_;
    record.line = 1;
    record.column = 1;
  }
  if (located && printer_ != nullptr) {
    printer_->emitDiagnostic(clang::FullSourceLoc(info.getLocation(), info.getSourceManager()), level,
                             message, ranges, fixIts);
  } else {
    // As clang's printer does for a diagnostic without a location (or outside a source file).
    clang::TextDiagnostic::printDiagnosticLevel(out_, level, options_->ShowColors);
    clang::TextDiagnostic::printDiagnosticMessage(out_, level == clang::DiagnosticsEngine::Note, message,
                                                  static_cast<unsigned>(out_.tell() - start),
                                                  options_->MessageLength, options_->ShowColors);
  }
  out_.flush();
  recorded_.push_back(std::move(record));
}

}  // namespace ringkernel::gen
