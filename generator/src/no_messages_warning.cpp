// Copyright RingKernel authors.
#include "no_messages_warning.h"

#include <map>
#include <vector>

#include "attribute_registration.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "diagnostics.h"
#include "llvm/Support/Path.h"

namespace ringkernel::gen {
namespace {

/// The message definitions of one header that the parsed header includes (directly or not).
struct IncludedMessages {
  const clang::CXXRecordDecl* first = nullptr;
  unsigned count = 0;
};

/// Appends the annotated definitions in `context` (namespaces, linkage specifications and
/// messages) that are not in the main file, by file, in the order their first one appears.
void collectIncluded(const clang::DeclContext& context, const clang::SourceManager& sm,
                     std::map<clang::FileID, IncludedMessages>& byFile, std::vector<clang::FileID>& order) {
  for (const clang::Decl* decl : context.decls()) {
    if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl>(decl)) {
      collectIncluded(*llvm::cast<clang::DeclContext>(decl), sm, byFile, order);
      continue;
    }
    const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl);
    if (record == nullptr || !record->isThisDeclarationADefinition() || ownMessageAnnotation(*record) == nullptr) {
      continue;
    }
    const clang::SourceLocation where = sm.getExpansionLoc(record->getLocation());
    if (!sm.isInMainFile(where)) {
      IncludedMessages& messages = byFile[sm.getFileID(where)];
      if (messages.count++ == 0) {
        messages.first = record;
        order.push_back(sm.getFileID(where));
      }
    }
    collectIncluded(*record, sm, byFile, order);
  }
}

}  // namespace

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

void NoMessagesWarning::report(const clang::ASTContext& context, RecordingDiagnosticConsumer& consumer,
                               llvm::StringRef stem) const {
  clang::DiagnosticsEngine& engine = context.getDiagnostics();
  const clang::DiagnosticsEngine::Level reported = level(engine);
  if (reported == clang::DiagnosticsEngine::Ignored) return;
  const clang::SourceManager& sm = context.getSourceManager();
  std::map<clang::FileID, IncludedMessages> byFile;
  std::vector<clang::FileID> order;
  collectIncluded(*context.getTranslationUnitDecl(), sm, byFile, order);
  // Named as clang names a warning's option (an error made of a warning: "[-Werror,-W<name>]").
  const std::string option = std::string(reported == clang::DiagnosticsEngine::Error ? "[-Werror,-W" : "[-W") +
                             kNoMessagesFlag + "]";
  // Without a location: the consumer places both at the header's 1:1, without its first line.
  consumer.setPlacingAtHeader(true);
  engine.Report(engine.getCustomDiagID(reported, "no [[ringkernel::message]] type in this header; its "
                                                 "%0.rk.h declares no message %1"))
      << stem << option;
  const unsigned fix = engine.getCustomDiagID(clang::DiagnosticsEngine::Note, "fix: %0");
  if (order.empty()) {
    engine.Report(fix) << "annotate each message struct (struct [[ringkernel::message]] Name { ... };), or stop "
                          "listing this header";
    consumer.setPlacingAtHeader(false);
    return;
  }
  engine.Report(fix) << "the messages are declared in headers this one includes (below), and a header's messages "
                        "are generated only from that header itself: list those headers (in HEADERS of "
                        "ringkernel_generate_messages(), or as inputs of ringkernel-gen) instead of this one";
  consumer.setPlacingAtHeader(false);
  const unsigned declared = engine.getCustomDiagID(
      clang::DiagnosticsEngine::Note, "%0 is a message of '%1' (%2 message%s2 there), which this header includes");
  for (const clang::FileID file : order) {
    const IncludedMessages& messages = byFile.at(file);
    const std::string name = llvm::sys::path::filename(sm.getFilename(sm.getLocForStartOfFile(file))).str();
    engine.Report(messages.first->getLocation(), declared)
        << ("'" + messages.first->getQualifiedNameAsString() + "'") << name << messages.count;
  }
}

}  // namespace ringkernel::gen
