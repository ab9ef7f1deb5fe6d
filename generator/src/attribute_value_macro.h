// Copyright RingKernel authors.
// A value of [[ringkernel::message]] written as the name of an object-like macro (`id = MY_ID`,
// `kernel = MY_KERNEL`, `priority = MY_PRIORITY`). attribute_parser.cpp reads the arguments as
// written in the source text; for these keys a value that names a macro is replaced here by what the
// macro expands to where the attribute is, through further object-like macros, as long as that is
// one token (optionally in balanced parentheses) or a qualified name. The key's parser then checks
// that token or name as if it had been written there. Anything else (an expression, nothing, a function-like macro, a macro
// that refers back to itself) is reported as unusable: the generator does not evaluate expressions.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"
#include "diagnostics.h"

namespace clang {
class LangOptions;
class Preprocessor;
class SourceManager;
}  // namespace clang

namespace ringkernel::gen {

struct ValueMacroExpansion {
  static clang::Token emptyToken() {
    clang::Token token;
    token.startToken();
    return token;
  }
  enum class Kind {
    NotAMacro,  // the identifier names no macro where the attribute is (or there is no preprocessor)
    Token,      // the macros expand to the single raw-lexed `token`
    Unusable,   // anything else; `problem` says why
  };
  struct Step {
    std::string name;
    clang::SourceLocation definition;  // the macro's name in its #define (invalid for builtins)
  };
  Kind kind = Kind::NotAMacro;
  clang::Token token = emptyToken();  // Kind::Token: the token the value stands for
  /// Kind::Token from an expansion that is a qualified name (`a::b`, `::a`, tokens identifier and
  /// '::' only): its raw-lexed tokens (`token` is the first).
  std::vector<clang::Token> qualifiedName;
  std::vector<Step> chain;       // the macros expanded, outermost (the one written) first
  bool functionLike = false;     // Kind::Unusable: the written name is a function-like macro
  std::string problem;           // Kind::Unusable: e.g. "macro 'ID' expands to '1 + 2', ..."
  /// Kind::NotAMacro: the last #define of the name before the attribute, #undef'd before it;
  /// invalid if there is none.
  clang::SourceLocation undefinedDefinition;
  /// The joined text of tokens spelt across a backslash-newline (joinSplices), shared by the copies.
  std::shared_ptr<std::deque<std::string>> joined = std::make_shared<std::deque<std::string>>();
};

/// `name`: a raw identifier token written as the value of a key; `point`: where the preprocessor
/// expands the attribute (the attribute's own location in the file, or the expansion location of the
/// macro whose body spells it). Macros are looked up as defined at `point` (a later #undef or
/// redefinition does not count). `preprocessor` may be null: then the result is NotAMacro.
ValueMacroExpansion expandValueMacro(const clang::Token& name, clang::SourceLocation point,
                                     const clang::SourceManager& sm,
                                     const clang::LangOptions& langOpts,
                                     const clang::Preprocessor* preprocessor);

/// "note: expanded from macro 'X'" at the definition of every macro of `expansion.chain`.
void noteValueMacroChain(Diagnoser& diagnoser, const ValueMacroExpansion& expansion);

}  // namespace ringkernel::gen
