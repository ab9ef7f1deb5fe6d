// Copyright RingKernel authors.
// ringkernel-gen: parse the headers, check them, render everything in memory, and write only when
// the whole run had no error. Exit status: 0 success, 1 input errors, 2 bad usage.
#include <set>
#include <string>
#include <vector>

#include "build_integration.h"
#include "emit.h"
#include "frontend.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"
#include "options.h"
#include "paths.h"
#include "resource_dir.h"

namespace {

using namespace ringkernel::gen;

constexpr int kSuccess = 0;
constexpr int kInputError = 1;

int usageError(const std::string& message) {
  llvm::errs() << "ringkernel-gen: error: " << message << '\n';
  return kUsageError;
}

int inputError(const std::string& message) {
  llvm::errs() << "ringkernel-gen: error: " << message << '\n';
  return kInputError;
}

/// Every input must be an existing file.
bool checkInputs(const std::vector<std::string>& inputs, std::string& error) {
  for (const std::string& input : inputs) {
    if (!llvm::sys::fs::is_regular_file(input)) {
      error = "no such file: " + input;
      return false;
    }
  }
  return true;
}

int runGenerate(const CommandLine& commandLine, const char* argv0) {
  std::string error;
  if (!checkInputs(commandLine.inputs, error)) return usageError(error);
  std::set<std::string> stems;
  for (const std::string& input : commandLine.inputs) {
    if (!stems.insert(fileStem(input)).second) {
      return usageError("two inputs have the stem '" + fileStem(input) +
                        "' and would write the same files; run the generator once per output "
                        "directory for each of them");
    }
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
  const FrontendResult parsed = runFrontend(request, llvm::errs());
  if (parsed.errorCount != 0) {
    llvm::errs() << "ringkernel-gen: nothing was written (" << parsed.errorCount
                 << (parsed.errorCount == 1 ? " error" : " errors") << " in the input)\n";
    return kInputError;
  }

  std::vector<OutputFile> outputs;
  for (const HeaderModel& header : parsed.headers) {
    if (!renderHeader(header, request.outputDir, templateDir, outputs, error)) {
      return inputError(error);
    }
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(request.outputDir)) {
    return inputError("cannot create " + request.outputDir + ": " + ec.message());
  }
  if (!writeOutputs(outputs, error)) return inputError(error);

  if (!commandLine.depfile.empty()) {
    std::vector<std::string> targets;
    for (const OutputFile& output : outputs) targets.push_back(absolutePath(output.path));
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
                     templateDir);
}

}  // namespace

int main(int argc, const char** argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  CommandLine commandLine;
  if (!parseCommandLine(argc, argv, commandLine)) return kUsageError;
  return commandLine.mode == Mode::Registry ? runRegistryCommand(commandLine, argv[0])
                                            : runGenerate(commandLine, argv[0]);
}
