// Copyright RingKernel authors.
#include "unknown_options.h"

#include <utility>

#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"

namespace ringkernel::gen {

std::vector<std::size_t> unknownDriverOptions(const clang::tooling::CommandLineArguments& command) {
  if (command.size() < 2) return {};
  std::vector<const char*> argv;
  argv.reserve(command.size());
  for (const std::string& arg : command) argv.push_back(arg.c_str());
  // The driver parses everything but the program name, with the options of its mode: clang-cl's
  // for a cl-like name or --driver-mode=cl, the gcc-like ones otherwise (Driver::ParseArgStrings).
  const llvm::ArrayRef<const char*> args = llvm::ArrayRef(argv).drop_front();
  const bool clMode = clang::driver::IsClangCL(clang::driver::getDriverMode(argv.front(), args));
  const llvm::opt::Visibility visibility(clMode ? clang::driver::options::CLOption
                                                : clang::driver::options::ClangOption);
  // A missing value (`-I` last) is the driver's to report; what could be parsed is all there.
  unsigned missingIndex = 0;
  unsigned missingCount = 0;
  const llvm::opt::InputArgList parsed =
      clang::driver::getDriverOptTable().ParseArgs(args, missingIndex, missingCount, visibility);
  std::vector<std::size_t> unknown;
  for (const llvm::opt::Arg* arg : parsed.filtered(clang::driver::options::OPT_UNKNOWN)) {
    unknown.push_back(arg->getIndex() + 1);  // + 1: the program name was not parsed
  }
  return unknown;
}

clang::tooling::ArgumentsAdjuster dropUnknownDriverOptions(DroppedOptionsReporter report) {
  return [report = std::move(report)](const clang::tooling::CommandLineArguments& command,
                                      llvm::StringRef) {
    const std::vector<std::size_t> unknown = unknownDriverOptions(command);
    if (unknown.empty()) return command;
    clang::tooling::CommandLineArguments kept;
    std::vector<std::string> dropped;
    auto next = unknown.begin();  // ascending, like the arguments
    for (std::size_t i = 0; i < command.size(); ++i) {
      if (next != unknown.end() && *next == i) {
        dropped.push_back(command[i]);
        ++next;
      } else {
        kept.push_back(command[i]);
      }
    }
    if (report) report(dropped);
    return kept;
  };
}

}  // namespace ringkernel::gen
