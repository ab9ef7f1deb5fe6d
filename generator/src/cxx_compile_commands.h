// Copyright RingKernel authors.
// Compile commands for headers that are parsed as C++ (-p): compile_commands.json has commands
// for sources only, and libTooling gives a header the command of the source nearest to it, which
// in a target with C++ and CUDA (or C) sources can be an nvcc or C command: clang then parses the
// header as CUDA and fails in CUDA's own headers. Here a header whose command is not a C++ one
// takes the command of the nearest C++ source instead, with the header as its input.
#pragma once

#include <string>
#include <vector>

#include "clang/Tooling/CompilationDatabase.h"

namespace ringkernel::gen {

/// Whether a compile command compiles C++ (not CUDA, HIP, C or Objective-C): by its `-x` language
/// if it gives one (the last); else not with a C standard (-std=c11) or for a source of another
/// language (.c, .cu, ...); else yes (a header's command without -x: ringkernel-gen adds -xc++).
/// An nvcc command never does.
bool isCxxCompileCommand(const clang::tooling::CompileCommand& command);

class CxxCompileCommands : public clang::tooling::CompilationDatabase {
 public:
  /// `base` (the database -p loaded, with its inference and argument adjusters) must outlive this.
  explicit CxxCompileCommands(const clang::tooling::CompilationDatabase& base) : base_(base) {}

  /// base's commands for `file`, where they compile C++; else the nearest C++ source's, with
  /// `file` in place of that source; else (no C++ source at all) base's unchanged.
  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef file) const override;
  std::vector<std::string> getAllFiles() const override { return base_.getAllFiles(); }
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override {
    return base_.getAllCompileCommands();
  }

  /// Empty when `file` gets a C++ command; else why not (for an error before the parse).
  std::string whyNoCxxCommand(llvm::StringRef file) const;

 private:
  /// The C++ source of base_ nearest to `file` (most leading path characters in common); empty if none.
  std::string nearestCxxSource(llvm::StringRef file) const;

  const clang::tooling::CompilationDatabase& base_;
};

}  // namespace ringkernel::gen
