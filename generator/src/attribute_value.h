// Copyright RingKernel authors.
// The value of id, kernel or priority in [[ringkernel::message]] (attribute_parser.cpp reads the
// rest of the arguments): a literal; an object-like macro that expands to one
// (attribute_value_macro.h); for id and priority also the name of an enumerator or an integral
// constant, written directly (`kId`, `a::b::C`, `::a::C`) or as what a macro expands to, which
// clang looks up and evaluates (constant_lookup.h). Checks the value for its key and reports every
// problem at the use, with notes at the macros and the declaration it came through.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"
#include "constant_lookup.h"
#include "diagnostics.h"
#include "model.h"

namespace clang {
class LangOptions;
class Preprocessor;
class SourceManager;
}  // namespace clang

namespace ringkernel::gen {

/// `text` in quotes for a diagnostic; a huge literal is shortened (its start shows which it is).
std::string quoted(llvm::StringRef text);

/// A raw-lexed token as written (punctuators and other tokens by their spelling or kind name).
llvm::StringRef rawTokenText(const clang::Token& token);

/// Raw lexing keeps a backslash-newline in the token it precedes or splits (`(\<newline>priority`,
/// `inp\<newline>ut`); C++ joins the lines first. Such an identifier or literal is given its joined
/// text, kept in `storage` (stable: a deque does not move its elements); its NeedsCleaning flag
/// stays, so that tokenEnd() measures its extent in the file again.
void joinSplices(clang::Token& token, const clang::SourceManager& sm, const clang::LangOptions& langOpts,
                 std::deque<std::string>& storage);

/// Where the characters of raw-lexed `token` end. A token spelt across a backslash-newline (in it,
/// or right before it) is read by its joined text, as C++ reads it (attribute_parser.cpp keeps that
/// text and leaves the token's NeedsCleaning flag set); its extent in the file is measured again.
clang::SourceLocation tokenEnd(const clang::Token& token, const clang::SourceManager& sm,
                               const clang::LangOptions& langOpts);

/// What reading the values needs besides the tokens.
struct ValueContext {
  const clang::SourceManager& sm;
  const clang::LangOptions& langOpts;
  const clang::Preprocessor* preprocessor;  // may be null: names are then never macros
  clang::SourceLocation point;              // where the preprocessor expanded the attribute
  ConstantScope constants;                  // where names of constants are looked up
};

/// Reads the value of `key` (id, kernel or priority) that starts at tokens[position] (which
/// exists) into `options`; `position` ends after the value. Returns false if it reported an error.
bool readMessageValue(llvm::StringRef key, const std::vector<clang::Token>& tokens,
                      std::size_t& position, const ValueContext& context, Diagnoser& diagnoser,
                      MessageOptions& options);

}  // namespace ringkernel::gen
