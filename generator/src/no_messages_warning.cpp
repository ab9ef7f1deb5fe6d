// Copyright RingKernel authors.
#include "no_messages_warning.h"

#include "diagnostics.h"

namespace ringkernel::gen {

NoMessagesWarning NoMessagesWarning::fromWarningOptions(const std::vector<std::string>& warnings) {
  NoMessagesWarning warning;
  for (const std::string& option : warnings) {
    const llvm::StringRef name(option);
    if (name == kNoMessagesFlag) {
      if (warning.severity != Severity::Error) warning.severity = Severity::Warning;
    } else if (name == std::string("no-") + kNoMessagesFlag || name == "no-everything") {
      warning.severity = Severity::Ignored;
    } else if (name == std::string("error=") + kNoMessagesFlag) {
      warning.severity = Severity::Error;
    } else if (name == std::string("no-error=") + kNoMessagesFlag) {
      if (warning.severity == Severity::Error) warning.severity = Severity::Warning;
      warning.noWarningAsError = true;
    }
  }
  return warning;
}

clang::DiagnosticsEngine::Level NoMessagesWarning::level(const clang::DiagnosticsEngine& engine) const {
  if (engine.getIgnoreAllWarnings() || severity == Severity::Ignored) return clang::DiagnosticsEngine::Ignored;
  if (severity == Severity::Error || (engine.getWarningsAsErrors() && !noWarningAsError)) {
    return clang::DiagnosticsEngine::Error;
  }
  return clang::DiagnosticsEngine::Warning;
}

void NoMessagesWarning::report(clang::DiagnosticsEngine& engine, RecordingDiagnosticConsumer& consumer,
                               llvm::StringRef stem) const {
  const clang::DiagnosticsEngine::Level reported = level(engine);
  if (reported == clang::DiagnosticsEngine::Ignored) return;
  // Named as clang names a warning's option (an error made of a warning: "[-Werror,-W<name>]").
  const std::string option = std::string(reported == clang::DiagnosticsEngine::Error ? "[-Werror,-W" : "[-W") +
                             kNoMessagesFlag + "]";
  // Without a location: the consumer places both at the header's 1:1, without its first line.
  consumer.setPlacingAtHeader(true);
  engine.Report(engine.getCustomDiagID(reported, "no [[ringkernel::message]] type in this header; its "
                                                 "%0.rk.h declares no message %1"))
      << stem << option;
  engine.Report(engine.getCustomDiagID(clang::DiagnosticsEngine::Note, "fix: %0"))
      << "annotate each message struct (struct [[ringkernel::message]] Name { ... };), or stop listing this "
         "header";
  consumer.setPlacingAtHeader(false);
}

}  // namespace ringkernel::gen
