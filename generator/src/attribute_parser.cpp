// Copyright RingKernel authors.
#include "attribute_parser.h"

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "attribute_macro.h"
#include "attribute_value_macro.h"
#include "integer_literal.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

namespace ringkernel::gen {
namespace {

constexpr const char* kAttribute = "[[ringkernel::message]]";
constexpr const char* kValidKeys = "id, kernel, direction, priority, causal, format";

/// `text` in quotes for a diagnostic; a huge literal is shortened (its start shows which it is).
std::string quoted(llvm::StringRef text) {
  constexpr std::size_t kShown = 48;
  if (text.size() <= kShown) return "'" + text.str() + "'";
  return "'" + text.take_front(kShown).str() + "...' (" + std::to_string(text.size()) + " characters)";
}

/// A raw-lexed token as written (punctuators and other tokens by their spelling or kind name).
llvm::StringRef tokenText(const clang::Token& token) {
  if (token.is(clang::tok::raw_identifier)) return token.getRawIdentifier();
  if (token.isLiteral()) return llvm::StringRef(token.getLiteralData(), token.getLength());
  if (const char* punctuator = clang::tok::getPunctuatorSpelling(token.getKind())) return punctuator;
  return clang::tok::getTokenName(token.getKind());
}

/// The tokens between the parentheses, plus the location of the closing one.
struct ArgumentTokens {
  std::vector<clang::Token> tokens;
  clang::SourceLocation close;
};

/// What the values of id, kernel and priority need to see the macros they may name.
struct MacroContext {
  const clang::SourceManager& sm;
  const clang::LangOptions& langOpts;
  const clang::Preprocessor* preprocessor;  // may be null
  clang::SourceLocation point;              // where the preprocessor expanded the attribute
};

/// The value of id, kernel or priority: the token written, or the one the macro it names expands
/// to (attribute_value_macro.h).
struct Value {
  clang::Token token = ValueMacroExpansion::emptyToken();  // what is read
  clang::SourceLocation at;  // where the value is written
  std::string written;       // the name written, when the value is a name
  ValueMacroExpansion macro;
  bool fromMacro() const { return macro.kind == ValueMacroExpansion::Kind::Token; }
};

/// Per key: what a literal value is, and one for the fixes.
struct Literal {
  const char* expected;
  const char* example;
};
Literal literalFor(llvm::StringRef key) {
  if (key == "id") return {"an unsigned 32-bit integer literal", "0x4001"};
  if (key == "priority") return {"an integer literal from 0 to 255", "200"};
  return {"a string literal", "\"Add\""};
}

class ArgumentParser {
 public:
  ArgumentParser(const ArgumentTokens& input, const MacroContext& macros, Diagnoser& diagnoser,
                 MessageOptions& options)
      : tokens_(input.tokens), close_(input.close), macros_(macros), diagnoser_(diagnoser),
        options_(options) {}

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
      fail(current().getLocation(),
           "expected ',' or ')' after an option, found " + quoted(text(current())),
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

  bool fail(clang::SourceLocation where, const std::string& message, llvm::StringRef fix) {
    diagnoser_.error(where, message, fix);
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
      return fail(key.getLocation(), "unknown key " + quoted(name) + " in " + kAttribute,
                  std::string("valid keys are ") + kValidKeys);
    }
    auto [previous, inserted] = seen_.emplace(name.str(), key.getLocation());
    if (!inserted) {
      fail(key.getLocation(), "duplicate key " + quoted(name) + " in " + kAttribute,
           "give " + quoted(name) + " only once");
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
    const clang::Token value = current();
    ++position_;
    if (name == "id" || name == "kernel" || name == "priority") {
      Value literal;
      if (!resolve(name, value, literal)) return false;
      if (name == "id") return parseId(literal);
      if (name == "kernel") return parseKernel(literal);
      return parsePriority(literal);
    }
    if (name == "direction") return parseDirection(value);
    if (name == "causal") return parseCausal(value);
    return parseFormat(value);
  }

  /// The value of `key` as written, or what the object-like macro it names expands to; false
  /// (reported) when it names a macro whose expansion is no single token.
  bool resolve(llvm::StringRef key, const clang::Token& written, Value& value) {
    value.token = written;
    value.at = written.getLocation();
    if (!written.is(clang::tok::raw_identifier)) return true;
    value.written = text(written).str();
    value.macro = expandValueMacro(written, macros_.point, macros_.sm, macros_.langOpts,
                                   macros_.preprocessor);
    if (value.macro.kind == ValueMacroExpansion::Kind::NotAMacro) return true;
    if (value.fromMacro()) {
      value.token = value.macro.token;
      return true;
    }
    if (value.macro.functionLike && !atEnd() && current().is(clang::tok::l_paren)) {
      for (int depth = 0; !atEnd(); ++position_) {  // `ID(...)`: its arguments go with it
        depth += current().is(clang::tok::l_paren) ? 1 : current().is(clang::tok::r_paren) ? -1 : 0;
        if (depth == 0) break;
      }
      if (!atEnd()) ++position_;
    }
    const Literal literal = literalFor(key);
    fail(value.at,
         "bad value " + quoted(value.written) + " for '" + key.str() + "': " + value.macro.problem +
             "; only " + literal.expected + ", or an object-like macro that expands to a single one "
             "(optionally in parentheses), is accepted: ringkernel-gen does not evaluate expressions",
         "define the macro as a literal (#define " + value.written + " " + literal.example +
             ") or write the literal (" + key.str() + " = " + literal.example + ")");
    noteValueMacroChain(diagnoser_, value.macro);
    return false;
  }

  /// `value` quoted for an error: the name written and, from a macro, what it expands to.
  static std::string shown(const Value& value) {
    if (!value.fromMacro()) return quoted(text(value.token));
    return quoted(value.written) + " (expands to " + quoted(text(value.token)) + ")";
  }

  /// An error about `value` at the use, with notes at the macros it expanded from.
  bool failValue(const Value& value, const std::string& message, llvm::StringRef fix) {
    fail(value.at, message, fix);
    if (value.fromMacro()) noteValueMacroChain(diagnoser_, value.macro);
    return false;
  }

  /// An error for a value of `key` that is no literal of its kind. A name that is no macro gets
  /// its own wording and fix (constants and enumerators are not evaluated).
  bool failNotLiteral(const Value& value, llvm::StringRef key, const std::string& expected,
                      const std::string& fix) {
    const Literal literal = literalFor(key);
    if (!value.token.is(clang::tok::raw_identifier) || value.fromMacro()) {
      return failValue(value, "bad value " + shown(value) + " for '" + key.str() + "': expected " +
                                  expected, fix);
    }
    fail(value.at,
         "bad value " + quoted(value.written) + " for '" + key.str() + "': expected " + expected +
             ", or an object-like macro that expands to one; " + quoted(value.written) +
             " is no macro at this point, and ringkernel-gen reads the arguments as written in the "
             "source (constants and enumerators are not evaluated)",
         fix + "; or name an object-like macro defined as the literal before the attribute "
               "(#define MY_" + key.upper() + " " + literal.example + ")");
    if (value.macro.undefinedDefinition.isValid()) {
      diagnoser_.note(value.macro.undefinedDefinition,
                      quoted(value.written) + " is #undef'd before the attribute; this definition "
                      "is not in effect there");
    }
    return false;
  }

  bool parseId(const Value& value) {
    const char* fix = "write a non-zero integer up to 0xFFFFFFFF, e.g. id = 0x4001, or omit id to "
                      "use the FNV-1a hash of the qualified name";
    auto number = integerLiteralValue(value.token);
    if (!number) return failNotLiteral(value, "id", "an unsigned 32-bit integer literal", fix);
    if (number->getActiveBits() > 32) {
      return failValue(value, "bad value " + shown(value) + " for 'id': does not fit in 32 bits", fix);
    }
    if (number->isZero()) {
      return failValue(value, "bad value " + shown(value) + " for 'id': type id 0 is reserved", fix);
    }
    options_.id = static_cast<std::uint32_t>(number->getZExtValue());
    return true;
  }

  bool parsePriority(const Value& value) {
    const char* fix = "write an integer from 0 to 255 (default 128)";
    auto number = integerLiteralValue(value.token);
    if (!number) return failNotLiteral(value, "priority", "an integer from 0 to 255", fix);
    if (number->getActiveBits() > 8) {
      return failValue(value, "bad value " + shown(value) + " for 'priority': out of range 0-255", fix);
    }
    options_.priority = static_cast<std::uint8_t>(number->getZExtValue());
    return true;
  }

  bool parseKernel(const Value& value) {
    const char* fix = "write a non-empty string of letters, digits, '_', '.', ':' or '-', e.g. "
                      "kernel = \"Add\"";
    llvm::StringRef spelling = text(value.token);
    if (!value.token.is(clang::tok::string_literal) || !spelling.starts_with("\"")) {
      return failNotLiteral(value, "kernel", "a string literal", fix);
    }
    llvm::StringRef name = spelling.drop_front().drop_back();
    const bool valid = !name.empty() && llvm::all_of(name, [](char c) {
      return llvm::isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '-';
    });
    if (!valid) {
      return failValue(value, "bad value " + (value.fromMacro() ? shown(value) : spelling.str()) +
                                  " for 'kernel': not a valid kernel name", fix);
    }
    options_.kernel = name.str();
    return true;
  }

  bool parseDirection(const clang::Token& value) {
    static const std::map<std::string, Direction, std::less<>> values = {
        {"input", Direction::Input},
        {"output", Direction::Output},
        {"kernel_to_kernel", Direction::KernelToKernel},
        {"bidirectional", Direction::Bidirectional}};
    auto found = value.is(clang::tok::raw_identifier) ? values.find(text(value)) : values.end();
    if (found == values.end()) {
      return fail(value.getLocation(),
                  "bad value " + quoted(text(value)) + " for 'direction'",
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
    return fail(value.getLocation(), "bad value " + quoted(spelling) + " for 'format'",
                "write one of array, map");
  }

  bool parseCausal(const clang::Token& value) {
    const llvm::StringRef spelling = text(value);
    if (value.is(clang::tok::raw_identifier) && (spelling == "true" || spelling == "false")) {
      options_.causal = spelling == "true";
      return true;
    }
    return fail(value.getLocation(), "bad value " + quoted(spelling) + " for 'causal'",
                "write `causal` alone, or causal = true / causal = false");
  }

  const std::vector<clang::Token>& tokens_;
  clang::SourceLocation close_;
  const MacroContext& macros_;
  Diagnoser& diagnoser_;
  MessageOptions& options_;
  std::size_t position_ = 0;
  bool ok_ = true;
  std::map<std::string, clang::SourceLocation> seen_;
};

}  // namespace

bool parseMessageAttributeArguments(clang::SourceLocation nameLoc, const clang::SourceManager& sm,
                                    const clang::LangOptions& langOpts,
                                    const clang::Preprocessor* preprocessor, Diagnoser& diagnoser,
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
  lexer.LexFromRawLexer(token);
  if (!token.is(clang::tok::raw_identifier) || token.getRawIdentifier() != "message") {
    diagnoser.error(nameLoc, std::string("cannot find the name of ") + kAttribute +
                                 " in the source text",
                    "write the attribute literally as [[ringkernel::message(...)]]");
    return false;
  }
  lexer.LexFromRawLexer(token);
  // No argument list (all defaults): the attribute list goes on or ends.
  if (token.isOneOf(clang::tok::r_square, clang::tok::comma, clang::tok::ellipsis)) return true;
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
  ArgumentTokens arguments;
  int depth = 0;
  for (;;) {
    lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof)) {
      diagnoser.error(open, std::string("unterminated argument list of ") + kAttribute,
                      "close the argument list with ')'");
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
  const MacroContext macros{sm, langOpts, preprocessor, sm.getExpansionLoc(nameLoc)};
  return ArgumentParser(arguments, macros, diagnoser, options).parse();
}

}  // namespace ringkernel::gen
