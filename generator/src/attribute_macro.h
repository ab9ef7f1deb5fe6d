// Copyright RingKernel authors.
// [[ringkernel::message(...)]] spelled in the body of a function-like macro whose parameters supply
// the arguments (`#define RK(x) ringkernel::message(x)`, or `__VA_OPT__(...)` in a variadic one).
// attribute_parser.cpp reads the arguments as written in the source text (macros are not expanded
// there), and there the text is the macro's parameter names (or `__VA_OPT__`), not what the use
// passes: that shape is reported here as its own error.
#pragma once

#include "diagnostics.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang {
class LangOptions;
class Preprocessor;
class SourceLocation;
class SourceManager;
class Token;
}  // namespace clang

namespace ringkernel::gen {

/// `nameLoc`: the attribute's `message` token; `tokens`: the raw-lexed source tokens that would be
/// its arguments (the argument list, or the one token after the name when no '(' follows it). If
/// the name is spelled in the replacement list of a function-like macro and one of `tokens` is a
/// parameter of that macro (`__VA_ARGS__` included) or, in a variadic one, `__VA_OPT__`, reports an
/// error at the use with a note at that token in the definition and returns true; otherwise (also
/// without a preprocessor) reports nothing, false.
bool reportArgumentsFromMacroParameters(clang::SourceLocation nameLoc,
                                        llvm::ArrayRef<clang::Token> tokens,
                                        const clang::SourceManager& sm,
                                        const clang::LangOptions& langOpts,
                                        const clang::Preprocessor* preprocessor,
                                        Diagnoser& diagnoser);

}  // namespace ringkernel::gen
