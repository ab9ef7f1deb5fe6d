// Copyright RingKernel authors.
#include "attribute_value_macro.h"

#include <algorithm>

#include "attribute_value.h"  // quoted
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

namespace ringkernel::gen {
namespace {

/// Object-like macros expanding to further macros are followed this deep at most.
constexpr std::size_t kMaxDepth = 32;

/// The definition of `name` in effect at `point` (what Preprocessor::getMacroDefinitionAtLoc finds,
/// through the const history), or null when it is no macro there.
const clang::MacroInfo* macroAt(llvm::StringRef name, clang::SourceLocation point,
                                const clang::SourceManager& sm, const clang::Preprocessor& pp) {
  const clang::IdentifierInfo* identifier = pp.getIdentifierInfo(name);
  if (identifier == nullptr || !identifier->hadMacroDefinition()) return nullptr;
  const clang::MacroDirective* history = pp.getLocalMacroDirectiveHistory(identifier);
  if (history == nullptr) return nullptr;
  const clang::MacroDirective::DefInfo definition = history->findDirectiveAtLoc(point, sm);
  return definition ? definition.getMacroInfo() : nullptr;
}

/// The last #define of `name` before `point` when it is #undef'd before `point` (invalid if none).
/// Definitions after `point` are not looked at: the model may be built before the parse sees them.
clang::SourceLocation undefinedBefore(llvm::StringRef name, clang::SourceLocation point,
                                      const clang::SourceManager& sm, const clang::Preprocessor& pp) {
  const clang::IdentifierInfo* identifier = pp.getIdentifierInfo(name);
  if (identifier == nullptr || !identifier->hadMacroDefinition()) return {};
  for (const clang::MacroDirective* directive = pp.getLocalMacroDirectiveHistory(identifier);
       directive != nullptr; directive = directive->getPrevious()) {
    const auto* definition = llvm::dyn_cast<clang::DefMacroDirective>(directive);
    if (definition != nullptr && definition->getLocation().isValid() &&
        sm.isBeforeInTranslationUnit(definition->getLocation(), point)) {
      return definition->getInfo()->getDefinitionLoc();
    }
  }
  return {};
}

/// The replacement list as written, tokens separated where the definition separates them.
std::string spelled(llvm::ArrayRef<clang::Token> tokens, const clang::SourceManager& sm,
                    const clang::LangOptions& langOpts) {
  std::string text;
  for (const clang::Token& token : tokens) {
    if (!text.empty() && token.hasLeadingSpace()) text += ' ';
    text += clang::Lexer::getSpelling(token, sm, langOpts);
  }
  return text;
}

/// `tokens` without balanced parentheses that enclose all of them: `((1))` -> `1`.
llvm::ArrayRef<clang::Token> withoutParentheses(llvm::ArrayRef<clang::Token> tokens) {
  while (tokens.size() >= 2 && tokens.front().is(clang::tok::l_paren) &&
         tokens.back().is(clang::tok::r_paren)) {
    int depth = 0;
    bool enclosesAll = true;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
      if (tokens[i].is(clang::tok::l_paren)) ++depth;
      if (tokens[i].is(clang::tok::r_paren) && --depth == 0) {
        enclosesAll = false;  // the first '(' closes before the last token: `(a)(b)`
        break;
      }
    }
    if (!enclosesAll) break;
    tokens = tokens.drop_front().drop_back();
  }
  return tokens;
}

/// "macro 'A'" or, past the first, "macro 'A' (through 'B', 'C')": the macro written and the ones
/// it led to.
std::string macroPath(const std::vector<ValueMacroExpansion::Step>& chain) {
  std::string text = "macro '" + chain.front().name + "'";
  for (std::size_t i = 1; i < chain.size(); ++i) {
    text += (i == 1 ? " (through '" : ", '") + chain[i].name + "'";
  }
  return chain.size() > 1 ? text + ")" : text;
}

/// `a::b`, `::a`, `::a::b`: identifiers and '::' alternating, more than one token.
bool isQualifiedName(llvm::ArrayRef<clang::Token> tokens) {
  if (tokens.size() < 2 || tokens.back().isNot(clang::tok::identifier)) return false;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const bool nameHere = (tokens.size() - i) % 2 == 1;  // counted from the last, a name
    if (tokens[i].isNot(nameHere ? clang::tok::identifier : clang::tok::coloncolon)) return false;
  }
  return true;
}

ValueMacroExpansion unusable(ValueMacroExpansion& result, std::string problem) {
  result.kind = ValueMacroExpansion::Kind::Unusable;
  result.problem = std::move(problem);
  return result;
}

}  // namespace

ValueMacroExpansion expandValueMacro(const clang::Token& name, clang::SourceLocation point,
                                     const clang::SourceManager& sm,
                                     const clang::LangOptions& langOpts,
                                     const clang::Preprocessor* preprocessor) {
  ValueMacroExpansion result;
  if (preprocessor == nullptr || !name.is(clang::tok::raw_identifier)) return result;
  std::string current = name.getRawIdentifier().str();
  for (;;) {
    const clang::MacroInfo* info = macroAt(current, point, sm, *preprocessor);
    if (info == nullptr) {
      if (!result.chain.empty()) break;  // the last expansion is a name that is no macro
      result.undefinedDefinition = undefinedBefore(current, point, sm, *preprocessor);
      return result;
    }
    const bool seen = std::any_of(result.chain.begin(), result.chain.end(),
                                  [&](const ValueMacroExpansion::Step& step) { return step.name == current; });
    if (seen) {
      std::string cycle;
      for (const ValueMacroExpansion::Step& step : result.chain) cycle += step.name + " -> ";
      return unusable(result, "macro '" + result.chain.front().name + "' expands to itself (" +
                                  cycle + current + ")");
    }
    result.chain.push_back({current, info->getDefinitionLoc()});
    if (result.chain.size() > kMaxDepth) {
      return unusable(result, "macro '" + result.chain.front().name + "' nests more than " +
                                             std::to_string(kMaxDepth) + " macros");
    }
    // The written name, or the one it leads to: "'F'" / "macro 'ID' expands to 'F', ".
    const std::string which = result.chain.size() == 1
                                  ? "'" + current + "' is"
                                  : "macro '" + result.chain.front().name + "' expands to '" +
                                        current + "', which is";
    if (info->isBuiltinMacro()) {
      return unusable(result, which + " a builtin macro, whose value ringkernel-gen does not know");
    }
    if (info->isFunctionLike()) {
      result.functionLike = result.chain.size() == 1;
      return unusable(result, which + " a function-like macro");
    }
    const llvm::ArrayRef<clang::Token> body = info->tokens();
    const llvm::ArrayRef<clang::Token> inner = withoutParentheses(body);
    if (isQualifiedName(inner)) {
      for (const clang::Token& token : inner) {
        clang::Token raw;
        if (clang::Lexer::getRawToken(sm.getSpellingLoc(token.getLocation()), raw, sm, langOpts)) {
          return unusable(result, "the expansion of " + macroPath(result.chain) +
                                      " cannot be read from the source text");
        }
        joinSplices(raw, sm, langOpts, *result.joined);
        result.qualifiedName.push_back(raw);
      }
      result.kind = ValueMacroExpansion::Kind::Token;
      result.token = result.qualifiedName.front();
      return result;
    }
    if (inner.size() != 1) {
      const std::string expansion = spelled(body, sm, langOpts);
      return unusable(result,
                      macroPath(result.chain) + (body.empty() ? " expands to nothing"
                                                              : " expands to " + quoted(expansion) +
                                                                    ", which is not a single literal or name"));
    }
    clang::Token raw;
    if (clang::Lexer::getRawToken(sm.getSpellingLoc(inner.front().getLocation()), raw, sm, langOpts)) {
      return unusable(result, "the expansion of " + macroPath(result.chain) +
                                             " cannot be read from the source text");
    }
    joinSplices(raw, sm, langOpts, *result.joined);
    if (!raw.is(clang::tok::raw_identifier)) {
      result.kind = ValueMacroExpansion::Kind::Token;
      result.token = raw;
      return result;
    }
    current = raw.getRawIdentifier().str();  // another name: a macro again, or the final token
    result.token = raw;
  }
  result.kind = ValueMacroExpansion::Kind::Token;
  return result;
}

void noteValueMacroChain(Diagnoser& diagnoser, const ValueMacroExpansion& expansion) {
  for (const ValueMacroExpansion::Step& step : expansion.chain) {
    if (step.definition.isValid()) diagnoser.note(step.definition, "expanded from macro '" + step.name + "'");
  }
}

}  // namespace ringkernel::gen
