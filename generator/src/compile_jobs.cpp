// Copyright RingKernel authors.
#include "compile_jobs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <utility>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Action.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Options.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

namespace ringkernel::gen {
namespace {

namespace driver = clang::driver;

/// While it lives, standard output and standard error go to /dev/null: clang's driver prints what
/// --version, -help or -print-resource-dir ask for to stdout, and -v's version and installation to
/// stderr, while it builds a compilation; these trial builds must not repeat that.
class OutputSilenced {
 public:
  OutputSilenced() {
    flushAll();
    // Saved above the standard descriptors, so that none takes another's place. A closed stream
    // (`>&-`) is not saved: /dev/null then opens on its descriptor, and closing it at the end
    // closes that stream again.
    for (int fd : {STDOUT_FILENO, STDERR_FILENO}) saved_[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    null_ = open("/dev/null", O_WRONLY | O_CLOEXEC);
    for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
      if (saved_[fd] >= 0 && null_ >= 0 && null_ != fd) dup2(null_, fd);
    }
  }
  ~OutputSilenced() {
    flushAll();
    for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
      if (saved_[fd] < 0) continue;
      dup2(saved_[fd], fd);
      close(saved_[fd]);
    }
    if (null_ >= 0) close(null_);
  }
  OutputSilenced(const OutputSilenced&) = delete;
  OutputSilenced& operator=(const OutputSilenced&) = delete;

 private:
  static void flushAll() {
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(stdout);
    std::fflush(stderr);
  }
  int saved_[3] = {-1, -1, -1};
  int null_ = -1;
};

/// Whether `action` is, or is built from, a compile or precompile action: the jobs whose inputs
/// FixedCompilationDatabase takes as the sources (stripPositionalArgs in CompilationDatabase.cpp).
bool compiles(const driver::Action& action) {
  if (action.getKind() == driver::Action::CompileJobClass || action.getKind() == driver::Action::PrecompileJobClass) {
    return true;
  }
  for (const driver::Action* input : action.getInputs()) {
    if (compiles(*input)) return true;
  }
  return false;
}

/// Whether the driver, given `options` with `-c` and a C++ source, builds a compile job. True also
/// when it reports an error: such an option is clang's to report when the header is parsed.
bool buildsCompileJob(const std::vector<const char*>& options) {
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagnosticOptions(new clang::DiagnosticOptions());
  clang::DiagnosticsEngine diagnostics(llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs>(new clang::DiagnosticIDs()),
                                       &*diagnosticOptions, new clang::IgnoringDiagConsumer(),
                                       /*ShouldOwnClient=*/true);
  driver::Driver clangDriver("", llvm::sys::getDefaultTargetTriple(), diagnostics);
  clangDriver.setCheckInputsExist(false);
  std::vector<const char*> argv{"clang-tool"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("-c");
  argv.push_back("placeholder.cpp");
  std::unique_ptr<driver::Compilation> compilation;
  {
    const OutputSilenced silenced;
    compilation.reset(clangDriver.BuildCompilation(argv));
  }
  if (!compilation || diagnostics.hasErrorOccurred()) return true;
  for (const driver::Command& job : compilation->getJobs()) {
    switch (job.getSource().getKind()) {
      case driver::Action::AssembleJobClass:
      case driver::Action::BackendJobClass:
      case driver::Action::CompileJobClass:
      case driver::Action::PrecompileJobClass:
        if (compiles(job.getSource())) return true;
        break;
      default: break;
    }
  }
  return false;
}

std::string joined(const std::vector<const char*>& args, std::size_t begin, std::size_t end) {
  std::string text;
  for (std::size_t i = begin; i < end; ++i) text += (i == begin ? "" : " ") + std::string(args[i]);
  return text;
}

}  // namespace

bool fixedDatabaseTakes(const std::vector<std::string>& args, std::string& why) {
  std::vector<const char*> argv{"ringkernel-gen", "--"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  int argc = static_cast<int>(argv.size());
  const OutputSilenced silenced;
  return clang::tooling::FixedCompilationDatabase::loadFromCommandLine(argc, argv.data(), why) != nullptr;
}

SplitCompileArgs splitNonCompilingOptions(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  // FixedCompilationDatabase puts its own program name first, which is not cl-like: clang-cl's
  // options only with --driver-mode=cl, as the driver decides.
  const bool clMode = driver::IsClangCL(driver::getDriverMode("clang-tool", argv));
  const llvm::opt::Visibility visibility(clMode ? driver::options::CLOption : driver::options::ClangOption);
  unsigned missingIndex = 0;
  unsigned missingCount = 0;
  const llvm::opt::InputArgList parsed =
      driver::getDriverOptTable().ParseArgs(argv, missingIndex, missingCount, visibility);
  // Each parsed option spans the arguments up to the next one's (its separate values among them).
  std::vector<const llvm::opt::Arg*> options(parsed.begin(), parsed.end());
  // clang-cl's options are tried in its mode; a --driver-mode (cpp: a preprocessor) on its own.
  std::vector<const char*> mode;
  if (clMode) mode.push_back("--driver-mode=cl");
  SplitCompileArgs split;
  std::vector<bool> drop(argv.size(), false);
  for (std::size_t k = 0; k < options.size(); ++k) {
    const llvm::opt::Arg& option = *options[k];
    const std::size_t begin = option.getIndex();
    const std::size_t end = k + 1 < options.size() ? options[k + 1]->getIndex() : argv.size();
    const llvm::opt::Option kind = option.getOption();
    if (kind.matches(driver::options::OPT_x)) split.language = joined(argv, begin, end);
    if (kind.matches(driver::options::OPT_INPUT) || kind.matches(driver::options::OPT_UNKNOWN) ||
        kind.matches(driver::options::OPT_x) || kind.matches(driver::options::OPT__DASH_DASH)) {
      continue;
    }
    std::vector<const char*> tried =
        kind.matches(driver::options::OPT_driver_mode) ? std::vector<const char*>{} : mode;
    tried.insert(tried.end(), argv.begin() + begin, argv.begin() + end);
    if (buildsCompileJob(tried)) continue;
    split.dropped.push_back(joined(argv, begin, end));
    for (std::size_t i = begin; i < end; ++i) drop[i] = true;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!drop[i]) split.kept.push_back(args[i]);
  }
  return split;
}

bool checkCompileArgs(std::vector<std::string>& compileArgs, llvm::raw_ostream& errors) {
  std::string why;
  if (fixedDatabaseTakes(compileArgs, why)) return true;
  SplitCompileArgs split = splitNonCompilingOptions(compileArgs);
  if (!split.dropped.empty()) {
    errors << "ringkernel-gen: note: ignoring compiler option"
           << (split.dropped.size() == 1 ? " that makes" : "s that make")
           << " clang build no compile job: " << llvm::join(split.dropped, " ") << "\n";
  }
  compileArgs = std::move(split.kept);
  if (why.clear(); fixedDatabaseTakes(compileArgs, why)) return true;
  // clang's reason: its diagnostics, one a line, then "warning: no compile jobs found".
  llvm::SmallVector<llvm::StringRef, 4> lines;
  llvm::StringRef(why).split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::vector<std::string> reasons;
  for (llvm::StringRef line : lines) {
    line = line.trim();
    line.consume_front("warning: ");
    if (!line.empty()) reasons.push_back(line.str());
  }
  errors << "ringkernel-gen: error: with the compiler arguments clang's driver builds no compile job ("
         << (split.language.empty() ? llvm::join(reasons, "; ")
                                    : split.language + " names a language it does not compile")
         << "), and the headers would be parsed without any of the arguments\n";
  return false;
}

}  // namespace ringkernel::gen
