// Copyright RingKernel authors.
// ringkernel-gen: parse the headers, check them, render everything in memory, and write only when
// the whole run had no error. Exit status: 0 success (also with warnings, such as a header without
// a message: reported during its parse, no_messages_warning.h), 1 the run failed (input errors, a
// warning that -Werror made one among them, an output that could not be rendered or written, or a
// --depfile or --stamp that is a file the parse read: found only after the parse), 2 bad usage.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "build_integration.h"
#include "emit.h"
#include "frontend.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include "options.h"
#include "paths.h"
#include "prerender.h"
#include "resource_dir.h"
#include "side_file_paths.h"

namespace {

using namespace ringkernel::gen;

constexpr int kSuccess = 0;
constexpr int kInputError = 1;

int usageError(const std::string& message) {
  llvm::errs() << "ringkernel-gen: error: " << message << '\n';
  return kUsageError;
}

/// Every input must be an existing regular file.
bool checkInputs(const std::vector<std::string>& inputs, std::string& error) {
  for (const std::string& input : inputs) {
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(input, status) || !llvm::sys::fs::exists(status)) {
      error = "no such file: " + input;
      return false;
    }
    if (!llvm::sys::fs::is_regular_file(status)) {
      error = input + (llvm::sys::fs::is_directory(status) ? " is a directory" : " is not a regular file") +
              "; the inputs must be files";
      return false;
    }
  }
  return true;
}

/// The generated files are named after the header's stem and include it by a quoted path: a header
/// name that gives no stem, or a path that a quoted #include cannot spell ('"', a line break or
/// another control character; a backslash, which clang's driver takes for a separator), is refused.
bool checkHeaderName(const std::string& input, std::string& error) {
  if (fileStem(input).empty()) {
    error = input + ": the file name has no stem to name the generated files after (<stem>.rk.h)";
    return false;
  }
  if (!quotedIncludeCanSpell(absolutePath(input))) {
    error = "the path of " + input + " has a character a quoted #include cannot spell (a '\"', '\\' "
            "or a control character); rename the file or its directory";
    return false;
  }
  return true;
}

/// After a failed run: deletes what an earlier successful run wrote for these headers, so nothing
/// stale outlives the error (the stamp goes too, so the next build reruns the tool, unless
/// `keepStamp`: a stamp that is a file the parse read is not the tool's). Only regular files go: a
/// directory in the way of an output (one cause of the failure) is not the tool's.
void removeStaleOutputs(const CommandLine& commandLine, const std::string& outputDir, bool keepStamp) {
  std::vector<std::string> stale;
  for (const std::string& input : commandLine.inputs) {
    for (const std::string_view suffix : kOutputSuffixes) {
      stale.push_back(outputDir + "/" + fileStem(input) + std::string(suffix));
    }
  }
  if (!commandLine.stamp.empty() && !keepStamp) stale.push_back(commandLine.stamp);
  for (const std::string& path : stale) {
    if (!llvm::sys::fs::is_regular_file(path)) continue;
    if (std::error_code ec = llvm::sys::fs::remove(path)) {
      llvm::errs() << "ringkernel-gen: warning: cannot remove stale " << path << ": " << ec.message()
                   << '\n';
    } else {
      llvm::errs() << "ringkernel-gen: removed stale " << path << '\n';
    }
  }
}

int runGenerate(const CommandLine& commandLine, const char* argv0) {
  std::string error;
  if (!checkInputs(commandLine.inputs, error)) return usageError(error);
  std::map<std::string, std::string> stems;  // stem -> the input that has it
  for (const std::string& input : commandLine.inputs) {
    if (!checkHeaderName(input, error)) return usageError(error);
    const auto [earlier, added] = stems.emplace(fileStem(input), input);
    if (!added && llvm::sys::fs::equivalent(earlier->second, input)) {
      return usageError(input + " is given twice" +
                        (earlier->second == input ? std::string() : " (also as " + earlier->second + ")") +
                        "; give each header once");
    }
    if (!added) {
      return usageError("two inputs have the stem '" + fileStem(input) +
                        "' and would write the same files; run the generator once per output "
                        "directory for each of them");
    }
  }
  if (llvm::sys::fs::exists(commandLine.outputDir) && !llvm::sys::fs::is_directory(commandLine.outputDir)) {
    return usageError("--output-dir " + commandLine.outputDir + " is not a directory");
  }
  const std::string templateDir = findTemplateDir(commandLine.templateDir, argv0, error);
  if (templateDir.empty()) return usageError(error);
  const std::string resourceDir = findClangResourceDir(error);
  if (resourceDir.empty()) return usageError(error);

  FrontendRequest request;
  request.headers = commandLine.inputs;
  request.compilations = &commandLine.compilations();
  request.targetTriple = commandLine.targetTriple;
  request.outputDir = absolutePath(commandLine.outputDir);
  request.resourceDir = resourceDir;
  request.leakAst = true;  // the process ends after this run
  // The per-message parts of the outputs render on a second thread while clang parses. A template
  // that does not load is reported after the parse, as before (the input's errors come first).
  const std::optional<TemplateSet> templates = loadHeaderTemplates(templateDir, error);
  std::optional<Prerenderer> prerenderer;
  if (templates) {
    prerenderer.emplace(*templates);
    request.listener = &*prerenderer;
  }
  const FrontendResult parsed = runFrontend(request, llvm::errs());
  if (prerenderer) prerenderer->finish();
  // Every failure from here on (errors in the input, a template that does not load or render, an
  // output, the depfile or the stamp that cannot be written) leaves no stale outputs when asked to.
  // A --depfile or --stamp that is a file the parse read (a header an input includes) would be
  // written over it; only the parse knows those files. Refused first, and such a stamp stays.
  const std::string readClash = sideFileReadClash(commandLine.depfile, commandLine.stamp, parsed.filesRead);
  const auto failed = [&](const std::string& line) {
    llvm::errs() << line << '\n';
    if (commandLine.removeStaleOutputs) removeStaleOutputs(commandLine, request.outputDir, !readClash.empty());
    return kInputError;
  };
  const auto inputError = [&](const std::string& message) { return failed("ringkernel-gen: error: " + message); };
  // A model the templates cannot reproduce is reported at the type, clang-style
  // ("file:line:col: error: ..."): printed as it is, without the tool's own prefix.
  const auto renderError = [&](const std::string& message) {
    const bool located = llvm::Regex("^[^\n]+:[0-9]+:[0-9]+: error: ").match(message);
    return located ? failed(message) : inputError(message);
  };
  if (!readClash.empty()) return inputError(readClash + "; nothing was written");
  if (parsed.errorCount != 0) {
    return failed("ringkernel-gen: nothing was written (" + std::to_string(parsed.errorCount) +
                  (parsed.errorCount == 1 ? " error" : " errors") + " in the input)");
  }

  std::vector<OutputFile> outputs;
  for (const HeaderModel& header : parsed.headers) {
    Prerendered ahead = prerenderer ? prerenderer->take(header.headerPath) : Prerendered{};
    const bool rendered = templates ? renderHeader(header, request.outputDir, *templates, outputs, error, &ahead)
                                    : renderHeader(header, request.outputDir, templateDir, outputs, error);
    if (!rendered) return renderError(error);
  }
  // The depfile and the stamp are written after the outputs: whatever can be checked about them is
  // checked first, so that a bad path fails the run before any output is written.
  for (const std::string* path : {&commandLine.depfile, &commandLine.stamp}) {
    if (!path->empty() && !prepareFilePath(*path, error)) return inputError(error);
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(request.outputDir, /*IgnoreExisting=*/true,
                                                                     llvm::sys::fs::all_all)) {
    return inputError("cannot create " + request.outputDir + ": " + ec.message());
  }
  if (!writeOutputs(outputs, error)) return inputError(error);

  if (!commandLine.depfile.empty()) {
    // Build systems key the rule on the stamp when there is one (it is the rule's output).
    std::vector<std::string> targets;
    if (!commandLine.stamp.empty()) {
      targets.push_back(absolutePath(commandLine.stamp));
    } else {
      for (const OutputFile& output : outputs) targets.push_back(absolutePath(output.path));
    }
    if (!writeFileIfChanged(commandLine.depfile, depfileText(targets, parsed.filesRead), error)) {
      return inputError(error);
    }
  }
  if (!commandLine.stamp.empty() && !touchFile(commandLine.stamp, error)) return inputError(error);
  return kSuccess;
}

int runRegistryCommand(const CommandLine& commandLine, const char* argv0) {
  std::string error;
  if (!checkInputs(commandLine.inputs, error)) return usageError(error);
  const std::string templateDir = findTemplateDir(commandLine.templateDir, argv0, error);
  if (templateDir.empty()) return usageError(error);
  return runRegistry(commandLine.registryName, commandLine.outputDir, commandLine.inputs,
                     templateDir, commandLine.removeStaleOutputs);
}

int runCheckCommand(const CommandLine& commandLine) {
  std::string error;
  if (!checkInputs(commandLine.inputs, error)) return usageError(error);
  return runCheck(commandLine.inputs);
}

/// --help or --version (any of LLVM's spellings) before the compiler arguments: they need no
/// working directory.
bool asksForHelpOrVersion(int argc, const char** argv) {
  for (int i = 1; i < argc; ++i) {
    const llvm::StringRef arg(argv[i]);
    if (arg == "--") return false;
    const llvm::StringRef name = arg.ltrim('-');
    if (arg.starts_with("-") && (name.starts_with("help") || name == "version")) return true;
  }
  return false;
}

}  // namespace

int main(int argc, const char** argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Relative paths (inputs, -p, --output-dir, clang's own) resolve against it; without this check a
  // deleted working directory made clang's file system abort with "LLVM ERROR: out of memory".
  if (llvm::SmallString<256> cwd; !asksForHelpOrVersion(argc, argv)) {
    if (const std::error_code ec = llvm::sys::fs::current_path(cwd)) {
      return usageError("cannot determine the current working directory (" + ec.message() +
                        "); it may have been deleted: run ringkernel-gen from a directory that exists");
    }
  }
  CommandLine commandLine;
  if (!parseCommandLine(argc, argv, commandLine)) return kUsageError;
  switch (commandLine.mode) {
    case Mode::Registry: return runRegistryCommand(commandLine, argv[0]);
    case Mode::Check: return runCheckCommand(commandLine);
    case Mode::Generate: break;
  }
  return runGenerate(commandLine, argv[0]);
}
