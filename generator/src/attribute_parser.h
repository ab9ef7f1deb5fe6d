// Copyright RingKernel authors.
// Parses the arguments of [[ringkernel::message(key = value, ...)]] (DESIGN.md §3). Clang 19 skips
// the argument tokens of scoped plugin attributes, so they are lexed here from the source buffer.
#pragma once

#include "constant_lookup.h"
#include "diagnostics.h"
#include "model.h"

namespace clang {
class LangOptions;
class Preprocessor;
class SourceLocation;
class SourceManager;
}  // namespace clang

namespace ringkernel::gen {

/// `nameLoc` is the location of the attribute's `message` token. Lexes the balanced `( ... )` that
/// may follow it and fills `options` (keys: id, kernel, direction, priority, causal, format).
/// Every unknown key, bad value, duplicate key and syntax error is reported at its own
/// file:line:col through `diagnoser`. `preprocessor` (may be null) finds the macro whose body
/// spells the attribute, so that arguments taken from that macro's parameters are reported as such
/// (attribute_macro.h) instead of being read as the parameter names, and expands the object-like
/// macros that values of id, kernel and priority name (attribute_value_macro.h). Names of constants
/// as values of id and priority are looked up in `constants` (constant_lookup.h). Returns false if
/// anything was reported.
bool parseMessageAttributeArguments(clang::SourceLocation nameLoc, const clang::SourceManager& sm,
                                    const clang::LangOptions& langOpts,
                                    const clang::Preprocessor* preprocessor,
                                    const ConstantScope& constants, Diagnoser& diagnoser,
                                    MessageOptions& options);

}  // namespace ringkernel::gen
