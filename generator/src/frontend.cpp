// Copyright RingKernel authors.
#include "frontend.h"

#include <algorithm>
#include <map>
#include <set>

#include "attribute_registration.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "model_builder.h"
#include "paths.h"

namespace ringkernel::gen {
namespace {

/// Every written record of the main file that carries its own [[ringkernel::message]], in
/// declaration order, including template patterns, specialisations and local classes (the
/// validator reports those). Implicit instantiations are skipped.
void collectAnnotatedRecords(const clang::DeclContext& context, const clang::SourceManager& sm,
                             std::vector<const clang::CXXRecordDecl*>& records) {
  for (const clang::Decl* decl : context.decls()) {
    if (const auto* pattern = llvm::dyn_cast<clang::ClassTemplateDecl>(decl)) {
      decl = pattern->getTemplatedDecl();
    }
    if (!llvm::isa<clang::NamespaceDecl>(decl) && !llvm::isa<clang::LinkageSpecDecl>(decl) &&
        !sm.isInMainFile(sm.getExpansionLoc(decl->getLocation()))) {
      continue;
    }
    if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl)) {
      if (record->getTemplateSpecializationKind() == clang::TSK_ImplicitInstantiation) continue;
      if (ownMessageAnnotation(*record) != nullptr) records.push_back(record);
    }
    if (const auto* inner = llvm::dyn_cast<clang::DeclContext>(decl)) {
      collectAnnotatedRecords(*inner, sm, records);
    }
  }
}

/// Where the attribute sits: the `ringkernel` token of [[ringkernel::message]].
clang::SourceLocation attributeLoc(const clang::AnnotateAttr& attr) { return attr.getLocation(); }

class HeaderConsumer : public clang::ASTConsumer {
 public:
  explicit HeaderConsumer(HeaderModel& model) : model_(model) {}

  void HandleTranslationUnit(clang::ASTContext& context) override {
    model_.targetTriple = context.getTargetInfo().getTriple().str();
    if (context.getDiagnostics().hasFatalErrorOccurred()) return;
    Diagnoser diagnoser(context.getDiagnostics());
    std::vector<const clang::CXXRecordDecl*> annotated;
    collectAnnotatedRecords(*context.getTranslationUnitDecl(), context.getSourceManager(),
                            annotated);
    std::vector<const clang::CXXRecordDecl*> roots;
    for (const clang::CXXRecordDecl* record : annotated) {
      const std::string name = "'" + record->getNameAsString() + "'";
      const auto annotations = ownMessageAnnotations(*record);
      if (annotations.size() > 1) {
        diagnoser.error(attributeLoc(*annotations[1]),
                        "[[ringkernel::message]] is given more than once on " + name,
                        "keep one attribute and put all options in it");
        continue;
      }
      if (!record->isThisDeclarationADefinition()) {
        diagnoser.error(attributeLoc(*annotations.front()),
                        "[[ringkernel::message]] is on a declaration of " + name +
                            " that is not its definition",
                        "put the attribute on the definition: struct [[ringkernel::message]] " +
                            record->getNameAsString() + " { ... };");
        continue;
      }
      roots.push_back(record);
    }
    ModelBuilder(context, diagnoser).build(roots, model_);
  }

 private:
  HeaderModel& model_;
};

struct RunState {
  std::map<std::string, HeaderModel> models;  // by absolute header path
  std::set<std::string> filesRead;
};

class HeaderAction : public clang::ASTFrontendAction {
 public:
  explicit HeaderAction(RunState& state) : state_(state) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef file) override {
    HeaderModel& model = state_.models[absolutePath(file.str())];
    return std::make_unique<HeaderConsumer>(model);
  }

  void EndSourceFileAction() override {
    clang::CompilerInstance& ci = getCompilerInstance();
    const clang::SourceManager& sm = ci.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      llvm::SmallString<256> path(it->first.getName());
      ci.getFileManager().makeAbsolutePath(path);
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      state_.filesRead.insert(std::string(path.str()));
    }
  }

 private:
  RunState& state_;
};

class HeaderActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  explicit HeaderActionFactory(RunState& state) : state_(state) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<HeaderAction>(state_);
  }

 private:
  RunState& state_;
};

/// -xc++ (first) and -std=c++20 unless given, plus the generator's own flags. Those go before a
/// `--` that ends the options (interpolated compile commands have one before the file name), else
/// at the end, so --target given to ringkernel-gen wins over the compile command's.
clang::tooling::ArgumentsAdjuster generatorFlags(const FrontendRequest& request) {
  return [target = request.targetTriple, resourceDir = request.resourceDir](
             const clang::tooling::CommandLineArguments& args, llvm::StringRef) {
    if (args.empty()) return args;
    const auto optionsEnd = std::find(args.begin(), args.end(), "--");
    auto given = [&](llvm::StringRef prefix) {
      return std::any_of(args.begin(), optionsEnd, [&](const std::string& arg) {
        return llvm::StringRef(arg).starts_with(prefix);
      });
    };
    clang::tooling::CommandLineArguments added;
    const bool language = given("-x");
    if (!language) added.push_back("-Wno-pragma-once-outside-header");
    if (!given("-std=") && !given("--std")) added.push_back("-std=c++20");
    added.push_back("-DRINGKERNEL_GENERATOR=1");
    if (!target.empty()) added.push_back("--target=" + target);
    if (!resourceDir.empty() && !given("-resource-dir")) {
      added.push_back("-resource-dir=" + resourceDir);
    }
    // The language must precede the input file, which ends a command without `--`.
    clang::tooling::CommandLineArguments result{args.front()};
    if (!language) result.push_back("-xc++");
    result.insert(result.end(), args.begin() + 1, optionsEnd);
    result.insert(result.end(), added.begin(), added.end());
    result.insert(result.end(), optionsEnd, args.end());
    return result;
  };
}

}  // namespace

FrontendResult runFrontend(const FrontendRequest& request, llvm::raw_ostream& diagnosticStream) {
  registerMessageAttribute();
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      request.fileSystem ? request.fileSystem : llvm::vfs::getRealFileSystem();
  clang::tooling::ClangTool tool(*request.compilations, request.headers,
                                 std::make_shared<clang::PCHContainerOperations>(), fileSystem);
  tool.appendArgumentsAdjuster(generatorFlags(request));
  RecordingDiagnosticConsumer diagnostics(diagnosticStream);
  tool.setDiagnosticConsumer(&diagnostics);
  tool.setPrintErrorMessage(false);

  RunState state;
  HeaderActionFactory factory(state);
  tool.run(&factory);

  FrontendResult result;
  result.errorCount = diagnostics.getNumErrors();
  for (const std::string& header : request.headers) {
    llvm::Expected<std::string> absolute = clang::tooling::getAbsolutePath(*fileSystem, header);
    const std::string path = absolute ? absolutePath(*absolute) : absolutePath(header);
    if (!absolute) llvm::consumeError(absolute.takeError());
    auto found = state.models.find(path);
    if (found == state.models.end()) {
      diagnosticStream << "error: " << header << " was not parsed (no compile command for it?)\n";
      ++result.errorCount;
      continue;
    }
    HeaderModel model = std::move(found->second);
    model.headerPath = path;
    model.stem = fileStem(path);
    model.includeSpelling = includeSpelling(path, request.outputDir);
    result.headers.push_back(std::move(model));
  }
  result.filesRead.assign(state.filesRead.begin(), state.filesRead.end());
  result.diagnostics = diagnostics.diagnostics();
  return result;
}

}  // namespace ringkernel::gen
