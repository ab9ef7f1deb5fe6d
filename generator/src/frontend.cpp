// Copyright RingKernel authors.
#include "frontend.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "annotated_records.h"
#include "attribute_registration.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "generator_flags.h"
#include "model_builder.h"
#include "no_messages_warning.h"
#include "paths.h"
#include "unknown_options.h"

namespace ringkernel::gen {
namespace {

/// Builds the model while clang parses: when a record at namespace scope is complete, the messages
/// in it are built and handed to the listener (the backend renders them while the parse goes on).
/// The steps take the header's annotated records in declaration order; whatever they did not take
/// (everything after a record that is not complete yet, see completeNow) is built at the end, so the
/// model is the one a single pass after the parse builds.
class HeaderConsumer : public clang::SemaConsumer {
 public:
  HeaderConsumer(HeaderModel& model, ModelListener* listener, std::string header,
                 const clang::Preprocessor& preprocessor, NoMessagesWarning noMessages,
                 RecordingDiagnosticConsumer& diagnostics)
      : model_(model),
        listener_(listener),
        header_(std::move(header)),
        preprocessor_(preprocessor),
        noMessages_(noMessages),
        diagnostics_(diagnostics),
        errorsBefore_(diagnostics.getNumErrors()) {}

  void Initialize(clang::ASTContext& context) override {
    context_ = &context;
    diagnoser_.emplace(context.getDiagnostics());
    builder_.emplace(context, *diagnoser_, &preprocessor_, listener_, header_);
    builder_->setSema(sema_);
  }

  /// Sema looks up the constants that attribute values name (constant_lookup.h).
  void InitializeSema(clang::Sema& sema) override {
    sema_ = &sema;
    if (builder_) builder_->setSema(sema_);
  }
  void ForgetSema() override {
    sema_ = nullptr;
    if (builder_) builder_->setSema(nullptr);
  }

  void HandleTagDeclDefinition(clang::TagDecl* tag) override {
    const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(tag);
    if (!stepping_ || record == nullptr ||
        !record->getLexicalDeclContext()->getRedeclContext()->isFileContext()) {
      return;
    }
    std::vector<const clang::CXXRecordDecl*> annotated;
    collectAnnotatedRecords(record, context_->getSourceManager(), annotated);
    if (annotated.empty()) return;
    if (!completeNow(annotated, *context_)) {
      stepping_ = false;
      return;
    }
    taken_.insert(taken_.end(), annotated.begin(), annotated.end());
    builder_->addRoots(selectRoots(annotated, *diagnoser_));
  }

  /// A header without errors and without a message gets its warning (no_messages_warning.h). The
  /// consumer's count has the errors it made of clang's warnings (a misspelt attribute), too.
  void HandleTranslationUnit(clang::ASTContext& context) override {
    build(context);
    if (model_.messages.empty() && !context.getDiagnostics().hasErrorOccurred() &&
        diagnostics_.getNumErrors() == errorsBefore_) {
      noMessages_.report(context, diagnostics_, fileStem(header_));
    }
  }

 private:
  void build(clang::ASTContext& context) {
    model_.targetTriple = context.getTargetInfo().getTriple().str();
    if (context.getDiagnostics().hasFatalErrorOccurred()) return;
    builder_->handOver();  // the listener renders the last records while the rest is collected
    std::vector<const clang::CXXRecordDecl*> annotated;
    for (const clang::Decl* decl : context.getTranslationUnitDecl()->decls()) {
      collectAnnotatedRecords(decl, context.getSourceManager(), annotated);
    }
    if (taken_.size() <= annotated.size() &&
        std::equal(taken_.begin(), taken_.end(), annotated.begin())) {
      annotated.erase(annotated.begin(), annotated.begin() + static_cast<std::ptrdiff_t>(taken_.size()));
      builder_->addRoots(selectRoots(annotated, *diagnoser_));
      builder_->finish(model_);
      return;
    }
    // A record the steps could not see comes before one they took (an attribute on a forward
    // declaration or a local class: errors). Report the rest; without an error so far, rebuild.
    if (!context.getDiagnostics().hasErrorOccurred()) {
      if (listener_ != nullptr) listener_->discard(header_);
      builder_.reset();
      builder_.emplace(context, *diagnoser_, &preprocessor_);
      builder_->setSema(sema_);
      builder_->build(selectRoots(annotated, *diagnoser_), model_);
      return;
    }
    const std::set<const clang::CXXRecordDecl*> taken(taken_.begin(), taken_.end());
    std::vector<const clang::CXXRecordDecl*> rest;
    for (const clang::CXXRecordDecl* record : annotated) {
      if (taken.count(record) == 0) rest.push_back(record);
    }
    builder_->addRoots(selectRoots(rest, *diagnoser_));
    builder_->finish(model_);
  }

  HeaderModel& model_;
  ModelListener* listener_;
  std::string header_;
  const clang::Preprocessor& preprocessor_;  // finds the macros that spell attributes
  NoMessagesWarning noMessages_;
  RecordingDiagnosticConsumer& diagnostics_;  // the engine's client
  unsigned errorsBefore_;  // the consumer's count (this header's: runFrontend resets it) at its parse's start
  clang::ASTContext* context_ = nullptr;
  clang::Sema* sema_ = nullptr;
  std::optional<Diagnoser> diagnoser_;
  std::optional<ModelBuilder> builder_;
  bool stepping_ = true;
  std::vector<const clang::CXXRecordDecl*> taken_;  // annotated records the steps took, in order
};

struct RunState {
  RecordingDiagnosticConsumer* diagnostics = nullptr;
  ModelListener* listener = nullptr;
  std::map<std::string, HeaderModel> models;  // by absolute header path
  /// By absolute header path: the parse's -iquote, then -I directories (absolute, normalised).
  std::map<std::string, std::vector<std::string>> includeDirs;
  std::set<std::string> filesRead;
};

/// The directories a quoted include searches after the includer's own: -iquote ones, then -I ones
/// (system directories come after those, so a header found through them was found before).
std::vector<std::string> quotedSearchPath(clang::CompilerInstance& ci) {
  std::vector<std::string> dirs;
  for (clang::frontend::IncludeDirGroup group : {clang::frontend::Quoted, clang::frontend::Angled}) {
    for (const clang::HeaderSearchOptions::Entry& entry : ci.getHeaderSearchOpts().UserEntries) {
      if (entry.Group != group || entry.IsFramework) continue;
      llvm::SmallString<256> path(entry.Path);
      ci.getFileManager().makeAbsolutePath(path);
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      dirs.emplace_back(path.str());
    }
  }
  return dirs;
}

class HeaderAction : public clang::ASTFrontendAction {
 public:
  explicit HeaderAction(RunState& state) : state_(state) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef file) override {
    std::string header = absolutePath(file.str());
    state_.includeDirs[header] = quotedSearchPath(ci);
    HeaderModel& model = state_.models[header];
    return std::make_unique<HeaderConsumer>(model, state_.listener, std::move(header), ci.getPreprocessor(),
                                            NoMessagesWarning::fromWarningOptions(ci.getDiagnosticOpts().Warnings),
                                            *state_.diagnostics);
  }

  /// The generated files need C++20 (.rk.h stops with #error under an older standard): a header
  /// the compiler arguments make clang parse as C (-x c, a C -std) or as older C++ is refused here,
  /// at the header, rather than with misleading errors about the attribute or at the consumer's
  /// compile.
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    const clang::LangOptions& lang = ci.getLangOpts();
    if (lang.CPlusPlus20) return true;
    const std::string standard = lang.LangStd == clang::LangStandard::lang_unspecified
                                     ? std::string()
                                     : clang::LangStandard::getLangStandardForKind(lang.LangStd).getName();
    clang::DiagnosticsEngine& engine = ci.getDiagnostics();
    const std::string parsedAs = lang.CPlusPlus ? "C++ older than C++20 (" + (standard.empty() ? "?" : standard) + ")"
                                                : "C (" + (standard.empty() ? "-x c" : standard) + "), not C++";
    engine.Report(engine.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0"))
        << "the compiler arguments make clang parse this header as " + parsedAs +
               "; ringkernel-gen needs C++20 or later (the generated files are C++20)";
    engine.Report(engine.getCustomDiagID(clang::DiagnosticsEngine::Note, "fix: %0"))
        << std::string(lang.CPlusPlus ? "give -std=c++20 (or later), or no -std: ringkernel-gen then parses as "
                                        "C++20"
                                      : "remove the -x c or C -std from the compiler arguments: ringkernel-gen "
                                        "then parses the header as C++20");
    return false;
  }

  void EndSourceFileAction() override {
    clang::CompilerInstance& ci = getCompilerInstance();
    const clang::SourceManager& sm = ci.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      llvm::SmallString<256> path(it->first.getName());
      ci.getFileManager().makeAbsolutePath(path);
      llvm::SmallString<256> lexical(path);
      llvm::sys::path::remove_dots(lexical, /*remove_dot_dot=*/true);
      // "dir/.." through a symbolic link is not the link's parent (/lib -> usr/lib: clang finds
      // libstdc++ as /lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12): a name that does
      // not exist in a depfile makes Ninja rerun the rule on every build. Then the real path.
      llvm::SmallString<256> real;
      if (!ci.getVirtualFileSystem().exists(lexical) && !ci.getVirtualFileSystem().getRealPath(path, real)) {
        lexical = real;
      }
      state_.filesRead.insert(std::string(lexical.str()));
    }
  }

 private:
  RunState& state_;
};

class HeaderActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  HeaderActionFactory(RunState& state, bool disableFree) : state_(state), disableFree_(disableFree) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<HeaderAction>(state_);
  }

  /// libTooling turns clang's -disable-free off; a run that ends the process afterwards turns it on.
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer* diagnostics) override {
    invocation->getFrontendOpts().DisableFree = disableFree_;
    return FrontendActionFactory::runInvocation(std::move(invocation), files, std::move(pch), diagnostics);
  }

 private:
  RunState& state_;
  bool disableFree_;
};

}  // namespace

FrontendResult runFrontend(const FrontendRequest& request, llvm::raw_ostream& diagnosticStream) {
  registerMessageAttribute();
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      request.fileSystem ? request.fileSystem : llvm::vfs::getRealFileSystem();
  // Options clang's driver does not know (a g++ target's compile command) would fail the whole run;
  // they are dropped, and each is named once per run (every header of a target has the same ones).
  std::set<std::string> ignored;
  const clang::tooling::ArgumentsAdjuster dropUnknown =
      dropUnknownDriverOptions([&](const std::vector<std::string>& dropped) {
        std::vector<std::string> fresh;
        for (const std::string& option : dropped) {
          if (ignored.insert(option).second) fresh.push_back(option);
        }
        if (fresh.empty()) return;
        diagnosticStream << "ringkernel-gen: note: ignoring compiler option" << (fresh.size() == 1 ? "" : "s")
                         << " clang does not know: " << llvm::join(fresh, " ") << '\n';
      });
  RecordingDiagnosticConsumer diagnostics(diagnosticStream);
  RunState state;
  state.diagnostics = &diagnostics;
  state.listener = request.listener;
  HeaderActionFactory factory(state, request.leakAst);
  // One ClangTool per header: a tool given several files prints "[1/2] Processing file ..." for each
  // on stderr. Headers clang reported an error for (an unknown --target, a file it cannot read) get
  // no second error for having no model.
  std::set<std::string> reported;
  FrontendResult result;
  const auto pch = std::make_shared<clang::PCHContainerOperations>();
  for (const std::string& header : request.headers) {
    clang::tooling::ClangTool tool(*request.compilations, {header}, pch, fileSystem);
    tool.appendArgumentsAdjuster(dropUnknown);
    tool.appendArgumentsAdjuster(generatorFlags(request.targetTriple, request.resourceDir));
    tool.setDiagnosticConsumer(&diagnostics);
    tool.setPrintErrorMessage(false);
    // Clang prints the consumer's counts after each header ("1 warning generated."): this header's
    // alone, as clang does per file. clear() resets the counts only; the recorded list stays.
    diagnostics.clear();
    tool.run(&factory);
    result.errorCount += diagnostics.getNumErrors();  // the run's total
    if (diagnostics.getNumErrors() != 0) reported.insert(header);
  }

  for (const std::string& header : request.headers) {
    llvm::Expected<std::string> absolute = clang::tooling::getAbsolutePath(*fileSystem, header);
    const std::string path = absolute ? absolutePath(*absolute) : absolutePath(header);
    if (!absolute) llvm::consumeError(absolute.takeError());
    auto found = state.models.find(path);
    if (found == state.models.end()) {
      if (reported.count(header) == 0) {  // else clang said why
        diagnosticStream << "error: " << header << " was not parsed (no compile command for it?)\n";
        ++result.errorCount;
      }
      continue;
    }
    HeaderModel model = std::move(found->second);
    model.headerPath = path;
    model.stem = fileStem(path);
    model.includeSpelling =
        includeSpelling(path, request.outputDir, state.includeDirs[path], *fileSystem);
    result.headers.push_back(std::move(model));
  }
  result.filesRead.assign(state.filesRead.begin(), state.filesRead.end());
  result.diagnostics = diagnostics.diagnostics();
  return result;
}

}  // namespace ringkernel::gen
