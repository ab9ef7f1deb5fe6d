// Copyright RingKernel authors.
// Response files among the compiler arguments (`-- @flags.rsp`): clang's driver reads them, but
// libTooling's FixedCompilationDatabase does not, and the header was parsed without their options
// (no -D, no -I: wrong layouts, or errors that the build does not have). The command line expands
// them first, as clang's driver does, so that their options count and are checked with the others
// (compile_jobs.h: an -E inside one is found).
#pragma once

#include <string>
#include <vector>

namespace ringkernel::gen {

/// Replaces each `@file` in `args` (compiler arguments, as after `--`) with the arguments of the
/// file, split as clang's driver splits them on Linux (llvm::cl::TokenizeGNUCommandLine: blanks and
/// line breaks separate, quotes and backslashes escape), nested `@file`s too (a relative name against
/// the current directory, as clang's). False, with `error` naming the file and why, when a response
/// file cannot be read (missing, a directory, one that includes itself): the arguments it holds
/// would be missing.
bool expandCompilerResponseFiles(std::vector<std::string>& args, std::string& error);

}  // namespace ringkernel::gen
