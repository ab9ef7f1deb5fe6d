// Copyright RingKernel authors.
// The compiler arguments given after `--` (and from --compile-args-file) become libTooling's
// FixedCompilationDatabase only when clang's driver, given them with `-c` and a C++ source, builds a
// compile job. With an option such as -E, -M, --precompile, --analyze or --version it builds none,
// and CommonOptionsParser then printed "Running without flags." and parsed every header without any
// of the arguments: no -D, -I or -std, exit status 0 and wrong layouts. The functions here find such
// options, so the command line can drop them (saying so) and refuse what is left.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace ringkernel::gen {

/// For the compiler arguments of a run without -p (after `--`, then --compile-args-file's): when
/// FixedCompilationDatabase would not take them, removes what splitNonCompilingOptions drops from
/// `compileArgs`, with a note on `errors` as for options clang does not know
/// ("ringkernel-gen: note: ignoring compiler option that makes clang build no compile job: -E"). False,
/// with the error on `errors` (bad usage), when it still would not: the headers would be parsed
/// without any of the arguments. Cheap when the arguments are fine (one trial of the driver).
bool checkCompileArgs(std::vector<std::string>& compileArgs, llvm::raw_ostream& errors);

/// Whether FixedCompilationDatabase takes `args` (compiler arguments, as after `--`): false, with
/// clang's reason in `why`, when its driver builds no compile job with them (libTooling would then
/// run without any of them). Whatever the driver prints for such an option (--version, -help, to
/// stdout) is not shown.
bool fixedDatabaseTakes(const std::vector<std::string>& args, std::string& why);

struct SplitCompileArgs {
  std::vector<std::string> kept;     // in the order given
  std::vector<std::string> dropped;  // one entry per option, its separate value joined with ' '
  std::string language;              // the last -x option as given ("-x assembler"); "" when none
};

/// Splits `args` (as after `--`) into the options that on their own make clang's driver build no
/// compile job for a C++ source (-E, -M, -MM, --precompile, -fmodule-header, --analyze, -verify-pch,
/// --driver-mode=cpp, and those that only print: --version, -help, -print-*, -dumpversion, ...)
/// and the rest. Parsed with the driver's own option table (clang-cl's with --driver-mode=cl), and
/// each option is tried as the driver runs it, so every spelling and alias counts (--preprocess is
/// -E). Not dropped: -x (a language clang does not compile would have the header parsed as another
/// language than the one asked for), options clang does not know (unknown_options.h), inputs, and
/// an option with which the driver reports an error (clang reports it when the header is parsed).
SplitCompileArgs splitNonCompilingOptions(const std::vector<std::string>& args);

}  // namespace ringkernel::gen
