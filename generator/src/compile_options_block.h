// Copyright RingKernel authors.
// The compile options of a CMake target in a --compile-args-file (docs/cmake.md): the CMake function
// writes the target's whole COMPILE_OPTIONS list (evaluated for C++, with the INTERFACE_COMPILE_OPTIONS
// of what it links), one element a line, between two marker lines, because a generator expression
// cannot pair `-isystem;<dir>` or split "SHELL:-D NAME". ringkernel-gen builds from them the arguments
// the compiler gets, as CMake builds the compile's command line, and keeps, in order, those that
// change what the parse sees: -D, -U, -I, -isystem, -iquote, -idirafter, -include and -imacros, with
// the value attached or as the next argument. The others (-f..., -m..., -W..., -std=..., -Xclang ...)
// do not reach the parse, as before: they are the compiler's (warnings, code generation), or options
// clang may not know.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ringkernel::gen {

/// The line that opens the block, followed by the target's name; the line that closes it.
inline constexpr std::string_view kCompileOptionsBegin = "--ringkernel-gen-compile-options-begin=";
inline constexpr std::string_view kCompileOptionsEnd = "--ringkernel-gen-compile-options-end";

/// `text` split into arguments as CMake splits a `SHELL:` compile option (separate_arguments
/// UNIX_COMMAND, KWSys's parser): blanks separate outside quotes, '...' and "..." quote (each opens
/// an argument, so '' is an empty one), a backslash takes the next character as it is, inside quotes
/// too (no \n or \t escapes); an unclosed quote runs to the end.
std::vector<std::string> splitCMakeShellOption(std::string_view text);

/// The arguments the compiler gets from the elements of a target's COMPILE_OPTIONS, as CMake makes
/// them: each element once, where it first occurs (CMake's de-duplication, which splits
/// `-isystem;/a;-isystem;/b` into `-isystem /a /b` for the compiler too), and a `SHELL:` element
/// split (splitCMakeShellOption) after that.
std::vector<std::string> compilerArgumentsOfCompileOptions(const std::vector<std::string>& elements);

/// Appends to `selected`, in order, the arguments among `args` (compiler arguments, response files
/// expanded) that matter to the parse: -D, -U, -I, -isystem, -iquote, -idirafter, -include and
/// -imacros (and their aliases, --define-macro ...), each with its value, attached or the next
/// argument, spelled as given. Arguments pair as clang's driver pairs them: `-isystem -Ifoo` is the
/// directory "-Ifoo", `-Xclang -DX` and `-o -DX` define nothing. False, with that option in
/// `valueless`, when one of them is the last argument and has no value.
bool selectParseOptions(const std::vector<std::string>& args, std::vector<std::string>& selected,
                        std::string& valueless);

/// Replaces the block of compile options in `lines` (the lines of a --compile-args-file; none: no
/// change) with the options selectParseOptions keeps of the arguments compilerArgumentsOfCompileOptions
/// makes of its elements, response files (`@file`, against the current directory) expanded. False,
/// with `error`, for a block without its closing line, a response file that cannot be read, and an
/// option that is last without its value (the compiler would take what the build tool writes next on
/// its command line, such as -o, for it).
bool expandCompileOptionsBlock(std::vector<std::string>& lines, std::string& error);

}  // namespace ringkernel::gen
