// Copyright RingKernel authors.
// The command line of ringkernel-gen (llvm::cl + clang's CommonOptionsParser):
//   ringkernel-gen [options] <header>... [-- <compiler args>]   or   -p <build-dir>
//   ringkernel-gen registry --name <name> --output-dir <dir> <a.rk.json>...
//   ringkernel-gen check <a.rk.json>...
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
class CommonOptionsParser;
}  // namespace clang::tooling

namespace ringkernel::gen {

class CxxCompileCommands;

enum class Mode { Generate, Registry, Check };

struct CommandLine {
  Mode mode = Mode::Generate;
  std::vector<std::string> inputs;  // headers (generate) or manifests (registry, check)
  std::string outputDir;
  std::string templateDir;
  bool removeStaleOutputs = false;  // when a run fails after the parse, delete what an earlier run wrote
  // generate only
  std::string depfile;
  std::string targetTriple;
  std::string stamp;
  // registry only
  std::string registryName;

  /// Compile flags for the headers (generate mode): the parser's, and with -p, C++ ones
  /// (cxx_compile_commands.h).
  clang::tooling::CompilationDatabase& compilations() const;

  std::shared_ptr<clang::tooling::CommonOptionsParser> parser;
  std::shared_ptr<CxxCompileCommands> cxxCompilations;  // -p only; over parser's database
};

/// Exit status for bad usage (unknown option, missing or empty --output-dir, no inputs, missing file).
inline constexpr int kUsageError = 2;

/// Exit status when an output stream (stdout, stderr) cannot be written: LLVM's, for a closed pipe.
inline constexpr int kIoError = 74;

/// Parses the command line. On bad usage prints the reason to stderr and returns false.
/// --help and --version print and exit(0) as llvm::cl does.
bool parseCommandLine(int argc, const char** argv, CommandLine& commandLine);

/// "ringkernel-gen <version> (clang <version>)".
std::string versionText();

}  // namespace ringkernel::gen
