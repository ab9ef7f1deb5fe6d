// Copyright RingKernel authors.
// The warning for a header in which no [[ringkernel::message]] type is written (its outputs then
// declare nothing), reported through the header's clang DiagnosticsEngine so that the compiler
// arguments control it as they do clang's own warnings: -w silences it, -Werror makes it an error,
// and it has a flag of its own, -W[no-][error=]ringkernel-no-messages.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class ASTContext;
}

namespace ringkernel::gen {

class RecordingDiagnosticConsumer;

/// The warning's flag, as -W<name>, -Wno-<name>, -Werror=<name> and -Wno-error=<name> take it.
inline constexpr const char* kNoMessagesFlag = "ringkernel-no-messages";

/// What the -W options of one compile command (clang's DiagnosticOptions::Warnings, each without
/// its -W, in order) make of the warning. Clang 19 has no warning groups for a tool's own (custom)
/// diagnostics, and does not apply -w or -Werror to them, so this applies the options as clang's
/// ProcessWarningOptions does to its own warnings of a group that is on by default:
///   -W<name>            turns it on (it stays an error after -Werror=<name>);
///   -Wno-<name>         turns it off, and so does -Wno-everything (a later -W<name> turns it on);
///   -Werror=<name>      turns it on, as an error;
///   -Wno-error=<name>   keeps it a warning under -Werror, and makes an earlier -Werror=<name>'s
///                       error a warning again;
///   -Werror, -Wno-error (the engine's getWarningsAsErrors) make it an error, or not;
///   -w                  (the engine's getIgnoreAllWarnings) silences it, whatever else is given.
struct NoMessagesWarning {
  enum class Severity { Ignored, Warning, Error };
  Severity severity = Severity::Warning;
  bool noWarningAsError = false;  // -Wno-error=<name> was given

  static NoMessagesWarning fromWarningOptions(const std::vector<std::string>& warnings);

  /// The level it is reported at under `engine`'s -w / -Werror; Ignored: not reported.
  clang::DiagnosticsEngine::Level level(const clang::DiagnosticsEngine& engine) const;

  /// Reports, through `context`'s engine, "warning: no [[ringkernel::message]] type in this header; its
  /// <stem>.rk.h declares no message [-Wringkernel-no-messages]" and its fix note at the header's
  /// line 1, column 1 (the header being parsed, which `consumer`, the engine's client, places them
  /// at; no source line shown). Under -Werror it is an error ("[-Werror,-W...]"), which fails the
  /// run as any error in the input does; under -w nothing is reported. When headers it includes
  /// declare messages (an umbrella header), the fix says to list those headers instead, and a note
  /// at the first message of each names it and the header.
  void report(const clang::ASTContext& context, RecordingDiagnosticConsumer& consumer,
              llvm::StringRef stem) const;
};

}  // namespace ringkernel::gen
