// Copyright RingKernel authors.
#include "attribute_parser.h"

#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attribute_macro.h"
#include "attribute_value.h"
#include "spelling_suggestion.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

namespace ringkernel::gen {
namespace {

constexpr const char* kAttribute = "[[ringkernel::message]]";
constexpr const char* kValidKeys = "id, kernel, direction, priority, causal, format";

llvm::StringRef tokenText(const clang::Token& token) { return rawTokenText(token); }

/// The tokens between the parentheses, plus the location of the closing one.
struct ArgumentTokens {
  std::vector<clang::Token> tokens;
  clang::SourceLocation close;
  std::deque<std::string> joined;  // the text of the tokens spelt across a backslash-newline
};

class ArgumentParser {
 public:
  /// `editable`: whether fix-its may edit the tokens (not when a macro's definition holds them).
  ArgumentParser(const ArgumentTokens& input, const ValueContext& values, bool editable,
                 Diagnoser& diagnoser, MessageOptions& options)
      : tokens_(input.tokens), close_(input.close), values_(values), editable_(editable),
        diagnoser_(diagnoser), options_(options) {}

  bool parse() {
    while (!atEnd()) {
      if (!parseEntry()) skipToNextEntry();
      if (atEnd()) break;
      if (current().is(clang::tok::comma)) {
        ++position_;
        if (atEnd()) fail(close_, "expected an option after ',' in " + std::string(kAttribute),
                          "remove the trailing ','");
        continue;
      }
      fail(current(), "expected ',' or ')' after an option, found " + quoted(text(current())),
           "separate options with ','");
      skipToNextEntry();
      if (!atEnd()) ++position_;
    }
    return ok_;
  }

 private:
  bool atEnd() const { return position_ >= tokens_.size(); }
  const clang::Token& current() const { return tokens_[position_]; }
  clang::SourceLocation here() const { return atEnd() ? close_ : current().getLocation(); }

  static llvm::StringRef text(const clang::Token& token) { return tokenText(token); }
  clang::SourceLocation end(const clang::Token& token) const { return tokenEnd(token, values_.sm, values_.langOpts); }

  bool fail(clang::SourceLocation where, const std::string& message, llvm::StringRef fix) {
    diagnoser_.error(where, message, fix);
    ok_ = false;
    return false;
  }

  /// An error that underlines `token`.
  bool fail(const clang::Token& token, const std::string& message, llvm::StringRef fix) {
    diagnoser_.error(clang::CharSourceRange::getCharRange(token.getLocation(), end(token)),
                     message, fix);
    ok_ = false;
    return false;
  }

  /// An error about `token`, a word that is none of `words`: when it is a likely typo of one,
  /// the message ends "; did you mean 'x'?" and a fix-it writes x over the token.
  bool failWord(const clang::Token& token, const std::string& message,
                llvm::ArrayRef<llvm::StringRef> words, llvm::StringRef fix) {
    const std::optional<std::string> meant = token.is(clang::tok::raw_identifier)
                                                 ? closestSpelling(token.getRawIdentifier(), words)
                                                 : std::nullopt;
    if (!meant) return fail(token, message, fix);
    diagnoser_.error(clang::CharSourceRange::getCharRange(token.getLocation(), end(token)),
                     message + "; did you mean " + quoted(*meant) + "?", fix, editable_ ? *meant : "");
    ok_ = false;
    return false;
  }

  void skipToNextEntry() {
    while (!atEnd() && !current().is(clang::tok::comma)) ++position_;
  }

  bool parseEntry() {
    if (!current().is(clang::tok::raw_identifier)) {
      return fail(here(), "expected an option name in " + std::string(kAttribute) + ", found " +
                              quoted(text(current())),
                  std::string("use one of: ") + kValidKeys);
    }
    const clang::Token key = current();
    const llvm::StringRef name = key.getRawIdentifier();
    ++position_;
    static const std::vector<llvm::StringRef> known = {"id",       "kernel", "direction",
                                                       "priority", "causal", "format"};
    if (llvm::find(known, name) == known.end()) {
      return failWord(key, "unknown key " + quoted(name) + " in " + kAttribute, known,
                      std::string("valid keys are ") + kValidKeys);
    }
    auto [previous, inserted] = seen_.emplace(name.str(), key.getLocation());
    if (!inserted) {
      fail(key, "duplicate key " + quoted(name) + " in " + kAttribute, "give " + quoted(name) + " only once");
      diagnoser_.note(previous->second, quoted(name) + " was first given here");
      return false;
    }
    if (name == "causal" && (atEnd() || !current().is(clang::tok::equal))) {
      options_.causal = true;
      return true;
    }
    if (atEnd() || !current().is(clang::tok::equal)) {
      return fail(here(), "expected '=' after " + quoted(name) + " in " + kAttribute,
                  "write " + name.str() + " = <value>");
    }
    ++position_;
    if (atEnd() || current().is(clang::tok::comma)) {
      return fail(here(), "expected a value for " + quoted(name) + " in " + kAttribute,
                  "write " + name.str() + " = <value>");
    }
    if (name == "id" || name == "kernel" || name == "priority") {
      if (readMessageValue(name, tokens_, position_, values_, diagnoser_, options_)) return true;
      ok_ = false;
      return false;
    }
    const clang::Token value = current();
    ++position_;
    if (name == "direction") return parseDirection(value);
    if (name == "causal") return parseCausal(value);
    return parseFormat(value);
  }

  bool parseDirection(const clang::Token& value) {
    static const std::map<std::string, Direction, std::less<>> values = {
        {"input", Direction::Input},
        {"output", Direction::Output},
        {"kernel_to_kernel", Direction::KernelToKernel},
        {"bidirectional", Direction::Bidirectional}};
    auto found = value.is(clang::tok::raw_identifier) ? values.find(text(value)) : values.end();
    if (found == values.end()) {
      static const std::vector<llvm::StringRef> names = {"input", "output", "kernel_to_kernel", "bidirectional"};
      return failWord(value, "bad value " + quoted(text(value)) + " for 'direction'", names,
                      "write one of input, output, kernel_to_kernel, bidirectional");
    }
    options_.direction = found->second;
    return true;
  }

  bool parseFormat(const clang::Token& value) {
    const llvm::StringRef spelling = text(value);
    if (value.is(clang::tok::raw_identifier) && (spelling == "array" || spelling == "map")) {
      options_.format = spelling == "map" ? WireFormat::Map : WireFormat::Array;
      return true;
    }
    return failWord(value, "bad value " + quoted(spelling) + " for 'format'", {"array", "map"},
                    "write one of array, map");
  }

  bool parseCausal(const clang::Token& value) {
    const llvm::StringRef spelling = text(value);
    if (value.is(clang::tok::raw_identifier) && (spelling == "true" || spelling == "false")) {
      options_.causal = spelling == "true";
      return true;
    }
    return failWord(value, "bad value " + quoted(spelling) + " for 'causal'", {"true", "false"},
                    "write `causal` alone, or causal = true / causal = false");
  }

  const std::vector<clang::Token>& tokens_;
  clang::SourceLocation close_;
  const ValueContext& values_;
  bool editable_;
  Diagnoser& diagnoser_;
  MessageOptions& options_;
  std::size_t position_ = 0;
  bool ok_ = true;
  std::map<std::string, clang::SourceLocation> seen_;
};

/// A preprocessor directive (`#ifdef`, `#if`, `#define`, ...) in the attribute, `where` ("inside the
/// arguments of [[ringkernel::message]]"), `hash` its '#': the attribute is read as written, so the
/// tool cannot take one branch of an #if there.
void reportDirective(const clang::Token& hash, const std::string& where, clang::Lexer& lexer,
                     const clang::SourceManager& sm, const clang::LangOptions& langOpts, Diagnoser& diagnoser) {
  clang::Token name;
  lexer.LexFromRawLexer(name);
  const bool named = name.is(clang::tok::raw_identifier) && !name.isAtStartOfLine();
  const std::string directive = named ? "#" + name.getRawIdentifier().str() : "#";
  const clang::SourceLocation end = named ? tokenEnd(name, sm, langOpts) : tokenEnd(hash, sm, langOpts);
  diagnoser.error(clang::CharSourceRange::getCharRange(hash.getLocation(), end),
                  "preprocessor directive '" + directive + "' " + where +
                      ": ringkernel-gen reads the attribute as written, so directives there are not supported",
                  "put the whole attribute in a macro defined under the condition: #ifdef FAST / #define "
                  "MSG_ATTR [[ringkernel::message(priority = 200)]] / #else / #define MSG_ATTR "
                  "[[ringkernel::message(priority = 10)]] / #endif, then struct MSG_ATTR Name { ... };");
}

}  // namespace

bool parseMessageAttributeArguments(clang::SourceLocation nameLoc, const clang::SourceManager& sm,
                                    const clang::LangOptions& langOpts,
                                    const clang::Preprocessor* preprocessor,
                                    const ConstantScope& constants, Diagnoser& diagnoser,
                                    MessageOptions& options) {
  const clang::SourceLocation spelling = sm.getSpellingLoc(nameLoc);
  const auto [file, offset] = sm.getDecomposedLoc(spelling);
  bool invalid = false;
  const llvm::StringRef buffer = sm.getBufferData(file, &invalid);
  if (invalid || offset >= buffer.size()) {
    diagnoser.error(nameLoc, std::string("cannot read the source of ") + kAttribute);
    return false;
  }
  clang::Lexer lexer(sm.getLocForStartOfFile(file), langOpts, buffer.begin(),
                     buffer.begin() + offset, buffer.end());
  clang::Token token;
  ArgumentTokens arguments;
  lexer.LexFromRawLexer(token);
  joinSplices(token, sm, langOpts, arguments.joined);
  if (!token.is(clang::tok::raw_identifier) || token.getRawIdentifier() != "message") {
    diagnoser.error(nameLoc, std::string("cannot find the name of ") + kAttribute +
                                 " in the source text",
                    "write the attribute literally as [[ringkernel::message(...)]]");
    return false;
  }
  lexer.LexFromRawLexer(token);
  // No argument list (all defaults): the attribute list goes on or ends.
  if (token.isOneOf(clang::tok::r_square, clang::tok::comma, clang::tok::ellipsis)) return true;
  // A directive between the name and '(' (an #if choosing the arguments) is valid C++ too.
  if (token.is(clang::tok::hash) && token.isAtStartOfLine()) {
    reportDirective(token, std::string("between the name of ") + kAttribute + " and its '('", lexer, sm, langOpts,
                    diagnoser);
    return false;
  }
  if (!token.is(clang::tok::l_paren)) {
    if (reportArgumentsFromMacroParameters(nameLoc, token, sm, langOpts, preprocessor, diagnoser)) {
      return false;
    }
    // The arguments, if any, are not in the text after the name: a macro supplies the name or the
    // arguments. Reading on elsewhere would silently drop options, so this is an error.
    const bool macroEnds = nameLoc.isMacroID() && (token.isAtStartOfLine() || token.is(clang::tok::eof));
    diagnoser.error(nameLoc,
                    macroEnds ? std::string("the macro that spells ") + kAttribute +
                                    " ends after its name, so ringkernel-gen cannot read its arguments"
                              : std::string("expected '(' or ']]' after the name of ") + kAttribute +
                                    " in the source text, found " + quoted(token.is(clang::tok::eof) ? "end of file" : tokenText(token)) +
                                    "; ringkernel-gen reads the arguments as written (macros are not expanded there)",
                    "write [[ringkernel::message(...)]] literally, or put the whole attribute with its "
                    "arguments in one macro");
    return false;
  }

  const clang::SourceLocation open = token.getLocation();
  int depth = 0;
  for (;;) {
    lexer.LexFromRawLexer(token);
    joinSplices(token, sm, langOpts, arguments.joined);
    if (token.is(clang::tok::eof)) {
      diagnoser.error(open, std::string("unterminated argument list of ") + kAttribute,
                      "close the argument list with ')'");
      return false;
    }
    if (token.is(clang::tok::hash) && token.isAtStartOfLine()) {
      reportDirective(token, std::string("inside the arguments of ") + kAttribute, lexer, sm, langOpts, diagnoser);
      return false;
    }
    if (token.is(clang::tok::l_paren)) ++depth;
    if (token.is(clang::tok::r_paren) && depth-- == 0) break;
    arguments.tokens.push_back(token);
  }
  arguments.close = token.getLocation();
  if (reportArgumentsFromMacroParameters(nameLoc, arguments.tokens, sm, langOpts, preprocessor,
                                         diagnoser)) {
    return false;  // the tokens are the macro's parameter names, not the options of the use
  }
  const ValueContext values{sm, langOpts, preprocessor, sm.getExpansionLoc(nameLoc), constants};
  // The tokens were lexed where the attribute is spelled: a fix-it may edit them unless that is a
  // macro's definition.
  const bool editable = fixItLocation(nameLoc, sm).isValid();
  return ArgumentParser(arguments, values, editable, diagnoser, options).parse();
}

}  // namespace ringkernel::gen
