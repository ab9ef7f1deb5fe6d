// Copyright RingKernel authors.
#include "attribute_macro.h"

#include <string>

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"

namespace ringkernel::gen {
namespace {

struct SpellingMacro {
  const clang::MacroInfo* info = nullptr;
  llvm::StringRef name;
};

/// The macro whose replacement list spells the token at `loc` (where the parser reads it), found
/// through the expansion that copied it from there; none when the token is written outside every
/// macro body (in the file, or in a macro argument at a use).
SpellingMacro macroSpelling(clang::SourceLocation loc, const clang::SourceManager& sm,
                            const clang::LangOptions& langOpts, const clang::Preprocessor& pp) {
  const clang::SourceLocation spelling = sm.getSpellingLoc(loc);
  while (loc.isMacroID()) {
    const clang::SrcMgr::ExpansionInfo& expansion =
        sm.getSLocEntry(sm.getFileID(loc)).getExpansion();
    const clang::SourceLocation written = sm.getImmediateSpellingLoc(loc);
    if (expansion.isMacroArgExpansion()) {
      loc = written;  // an argument of a use: it was written where the argument came from
      continue;
    }
    // A body token: written in the definition (anything else, e.g. a pasted token, is left alone).
    if (written != spelling) return {};
    const llvm::StringRef name = clang::Lexer::getImmediateMacroName(loc, sm, langOpts);
    const clang::IdentifierInfo* identifier = pp.getIdentifierInfo(name);
    for (const clang::MacroDirective* directive = pp.getLocalMacroDirectiveHistory(identifier);
         directive != nullptr; directive = directive->getPrevious()) {
      const auto* definition = llvm::dyn_cast<clang::DefMacroDirective>(directive);
      if (definition == nullptr) continue;
      const clang::MacroInfo* info = definition->getInfo();
      if (sm.isPointWithin(spelling, info->getDefinitionLoc(), info->getDefinitionEndLoc())) {
        return {info, name};
      }
    }
    return {};
  }
  return {};
}

/// Reports the arguments of the attribute at `nameLoc` as taken from macro `name` (`where` says
/// how), with the fix, and `note` at the token in the definition that makes them so.
void reportFromMacro(Diagnoser& diagnoser, clang::SourceLocation nameLoc, const std::string& name,
                     const std::string& where, clang::SourceLocation noteLoc,
                     const std::string& note) {
  diagnoser.error(nameLoc,
                  "the arguments of [[ringkernel::message]] are read as written in the definition "
                  "of macro '" + name + "', where " + where + " (macros are not expanded there), "
                  "so the arguments given to '" + name + "' cannot be read",
                  "write the attribute with its arguments literally, "
                  "[[ringkernel::message(key = value, ...)]], or put the whole attribute with "
                  "literal arguments in one macro, e.g. "
                  "#define PING_MESSAGE [[ringkernel::message(id = 8)]]");
  diagnoser.note(noteLoc, note);
}

}  // namespace

bool reportArgumentsFromMacroParameters(clang::SourceLocation nameLoc,
                                        llvm::ArrayRef<clang::Token> tokens,
                                        const clang::SourceManager& sm,
                                        const clang::LangOptions& langOpts,
                                        const clang::Preprocessor* preprocessor,
                                        Diagnoser& diagnoser) {
  if (preprocessor == nullptr || !nameLoc.isMacroID()) return false;
  const SpellingMacro macro = macroSpelling(nameLoc, sm, langOpts, *preprocessor);
  if (macro.info == nullptr || !macro.info->isFunctionLike()) return false;
  const std::string name = macro.name.str();
  for (const clang::Token& token : tokens) {
    if (!token.is(clang::tok::raw_identifier)) continue;
    const llvm::StringRef identifier = token.getRawIdentifier();
    // `__VA_OPT__(...)` is no parameter, but whether its text is there depends on the use.
    if (macro.info->isVariadic() && identifier == "__VA_OPT__") {
      reportFromMacro(diagnoser, nameLoc, name,
                      "they depend on the variadic arguments through '__VA_OPT__'",
                      token.getLocation(),
                      "'__VA_OPT__' in macro '" + name +
                          "' depends on the variadic arguments of each use");
      return true;
    }
    for (const clang::IdentifierInfo* parameter : macro.info->params()) {
      if (parameter->getName() != identifier) continue;
      const std::string param = parameter->getName().str();
      reportFromMacro(diagnoser, nameLoc, name, "they come from its parameter '" + param + "'",
                      token.getLocation(),
                      "'" + param + "' is a parameter of macro '" + name + "'");
      return true;
    }
  }
  return false;
}

}  // namespace ringkernel::gen
