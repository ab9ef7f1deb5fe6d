// Copyright RingKernel authors.
#include "attribute_value.h"

#include <algorithm>
#include <optional>

#include "attribute_value_macro.h"
#include "clang/AST/Decl.h"
#include "clang/Lex/Lexer.h"
#include "integer_literal.h"
#include "names.h"
#include "llvm/ADT/StringExtras.h"

namespace ringkernel::gen {
namespace {

llvm::StringRef text(const clang::Token& token) { return rawTokenText(token); }

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

/// The value as read: the token written, or the one the macro it names expands to; for a name
/// (written or expanded to) that is no macro, what it names.
struct Value {
  clang::Token token = ValueMacroExpansion::emptyToken();  // what is read (a name: its first token)
  clang::CharSourceRange range;  // the value's tokens as written, which errors underline
  std::string written;           // the value as written, when it is a name
  ValueMacroExpansion macro;
  std::optional<ConstantName> name;  // the value is a name of a constant (or of nothing)
  ConstantValue constant;            // what `name` names
  bool fromMacro() const { return macro.kind == ValueMacroExpansion::Kind::Token; }
};

/// `[::] identifier (:: identifier)*` from tokens[position], a negative number (`- literal`, an
/// error the caller reports as one value), or the single token there.
std::vector<clang::Token> writtenTokens(const std::vector<clang::Token>& tokens, std::size_t& position) {
  const auto nameAt = [&](std::size_t i) {
    return i < tokens.size() && tokens[i].is(clang::tok::raw_identifier);
  };
  std::vector<clang::Token> result;
  if (tokens[position].is(clang::tok::minus) && position + 1 < tokens.size() &&
      tokens[position + 1].is(clang::tok::numeric_constant)) {
    result = {tokens[position], tokens[position + 1]};
    position += 2;
    return result;
  }
  if (tokens[position].is(clang::tok::coloncolon) && nameAt(position + 1)) {
    result.push_back(tokens[position++]);
  }
  result.push_back(tokens[position++]);
  if (!result.back().is(clang::tok::raw_identifier)) return result;
  while (position < tokens.size() && tokens[position].is(clang::tok::coloncolon) && nameAt(position + 1)) {
    result.push_back(tokens[position++]);
    result.push_back(tokens[position++]);
  }
  return result;
}

std::optional<ConstantName> nameOf(const std::vector<clang::Token>& tokens) {
  if (tokens.empty() || !tokens.back().is(clang::tok::raw_identifier)) return std::nullopt;
  ConstantName name;
  name.global = tokens.front().is(clang::tok::coloncolon);
  for (const clang::Token& token : tokens) {
    if (token.is(clang::tok::raw_identifier)) name.parts.push_back(token.getRawIdentifier().str());
  }
  return name;
}

class ValueReader {
 public:
  ValueReader(llvm::StringRef key, const std::vector<clang::Token>& tokens, std::size_t& position,
              const ValueContext& context, Diagnoser& diagnoser)
      : key_(key), tokens_(tokens), position_(position), context_(context), diagnoser_(diagnoser) {}

  bool read(MessageOptions& options) {
    Value value;
    if (!resolve(value)) return false;
    if (key_ == "id") return readId(value, options);
    if (key_ == "priority") return readPriority(value, options);
    return readKernel(value, options);
  }

 private:
  bool fail(clang::CharSourceRange written, const std::string& message, llvm::StringRef fix) {
    diagnoser_.error(written, message, fix);
    return false;
  }

  /// What the value is: a literal, a macro's expansion, or a name looked up (id and priority);
  /// false (reported) when it names a macro whose expansion is no single token or name.
  bool resolve(Value& value) {
    const std::vector<clang::Token> written = writtenTokens(tokens_, position_);
    value.token = written.front();
    value.range = clang::CharSourceRange::getCharRange(written.front().getLocation(),
                                                       tokenEnd(written.back(), context_.sm, context_.langOpts));
    for (const clang::Token& token : written) value.written += text(token).str();
    if (written.size() == 1 && written.front().is(clang::tok::raw_identifier)) {
      value.macro = expandValueMacro(written.front(), context_.point, context_.sm, context_.langOpts,
                                     context_.preprocessor);
      if (value.macro.kind == ValueMacroExpansion::Kind::Unusable) return failUnusable(value);
      if (value.fromMacro()) {
        value.token = value.macro.token;
        value.name = value.macro.qualifiedName.empty() ? nameOf({value.token})
                                                       : nameOf(value.macro.qualifiedName);
      } else {
        value.name = nameOf(written);
      }
    } else {
      value.name = nameOf(written);
    }
    if (isExpression(written)) return failExpression(value);
    if (value.name && key_ != "kernel") {
      value.constant = evaluateNamedConstant(*value.name, context_.constants, context_.point);
    }
    return true;
  }

  /// Tokens between the value read and the next ',' make it an expression (`1 + 2`, `(5)`, `f(3)`,
  /// `-kBase`). A name or literal after a name or literal is left to the parser: a missing ','.
  bool isExpression(const std::vector<clang::Token>& written) const {
    if (position_ >= tokens_.size() || tokens_[position_].is(clang::tok::comma)) return false;
    const auto word = [](const clang::Token& token) {
      return token.is(clang::tok::raw_identifier) || token.isLiteral();
    };
    return !word(tokens_[position_]) || !word(written.back());
  }

  /// The whole expression, to the next ',' outside parentheses, is the bad value.
  bool failExpression(Value& value) {
    for (int depth = 0; position_ < tokens_.size(); ++position_) {
      const clang::Token& token = tokens_[position_];
      if (depth == 0 && token.is(clang::tok::comma)) break;
      depth += token.is(clang::tok::l_paren) ? 1 : token.is(clang::tok::r_paren) ? -1 : 0;
    }
    value.range.setEnd(tokenEnd(tokens_[position_ - 1], context_.sm, context_.langOpts));
    const std::string written =
        clang::Lexer::getSourceText(value.range, context_.sm, context_.langOpts).str();
    const Literal literal = literalFor(key_);
    const std::string accepted =
        key_ == "kernel" ? "a plain string literal, or an object-like macro that expands to one"
                         : std::string(literal.expected) + ", the name of an enumerator or of a constexpr "
                           "constant, or an object-like macro that expands to one of these";
    return fail(value.range,
                "bad value " + quoted(written.empty() ? value.written : written) + " for '" + key_.str() +
                    "': ringkernel-gen does not evaluate expressions; a value is " + accepted,
                key_ == "kernel" ? std::string("write the string literal (kernel = ") + literal.example + ")"
                                 : "write the value as a literal (" + key_.str() + " = " + literal.example +
                                       "), or declare a constexpr constant with the expression and name it");
  }

  bool failUnusable(const Value& value) {
    clang::CharSourceRange written = value.range;
    if (value.macro.functionLike && position_ < tokens_.size() &&
        tokens_[position_].is(clang::tok::l_paren)) {
      for (int depth = 0; position_ < tokens_.size(); ++position_) {  // `ID(...)`: its arguments go with it
        const clang::Token& token = tokens_[position_];
        depth += token.is(clang::tok::l_paren) ? 1 : token.is(clang::tok::r_paren) ? -1 : 0;
        if (depth == 0) break;
      }
      if (position_ < tokens_.size()) ++position_;
      written.setEnd(tokenEnd(tokens_[position_ - 1], context_.sm, context_.langOpts));  // through `ID(...)`'s ')' 
    }
    const Literal literal = literalFor(key_);
    const std::string accepted =
        key_ == "kernel" ? std::string(literal.expected) + ", or an object-like macro that expands to a single one"
                         : std::string(literal.expected) + ", the name of an enumerator or integral constant, "
                           "or an object-like macro that expands to a single one of these";
    fail(written,
         "bad value " + quoted(value.written) + " for '" + key_.str() + "': " + value.macro.problem +
             "; only " + accepted + " (optionally in parentheses), is accepted: ringkernel-gen does "
             "not evaluate expressions",
         "define the macro as a literal (#define " + value.written + " " + literal.example +
             ") or write the literal (" + key_.str() + " = " + literal.example + ")");
    noteValueMacroChain(diagnoser_, value.macro);
    return false;
  }

  /// `value` quoted for an error: as written and, from a macro or a constant, what it stands for.
  static std::string shown(const Value& value) {
    if (!value.fromMacro() && !value.name) return quoted(value.written);
    std::string details;
    if (value.fromMacro()) {
      details = "expands to " + quoted(value.name ? value.name->spelled() : text(value.token).str());
    }
    if (value.constant.found) {
      details += (details.empty() ? "= " : ", = ") + llvm::toString(value.constant.value, 10);
    }
    return quoted(value.written) + (details.empty() ? "" : " (" + details + ")");
  }

  /// An error about `value` at the use, with notes at the declaration it names and the macros it
  /// expanded from.
  bool failValue(const Value& value, const std::string& message, llvm::StringRef fix) {
    fail(value.range, message, fix);
    for (const ConstantValue::Note& note : value.constant.notes) diagnoser_.note(note.at, note.text);
    if (value.constant.found) {
      diagnoser_.note(value.constant.declaration->getLocation(),
                      quoted(value.name->spelled()) + " declared here");
    }
    if (value.fromMacro()) noteValueMacroChain(diagnoser_, value.macro);
    if (value.macro.undefinedDefinition.isValid()) {
      diagnoser_.note(value.macro.undefinedDefinition,
                      quoted(value.written) + " is #undef'd before the attribute; this definition "
                      "is not in effect there");
    }
    return false;
  }

  /// A name that names no usable constant (id, priority), or any name (kernel). `fix`: the key's.
  bool failName(const Value& value, const std::string& fix) {
    const Literal literal = literalFor(key_);
    const bool noMacro = !value.fromMacro() && value.macro.kind == ValueMacroExpansion::Kind::NotAMacro &&
                         value.name->parts.size() == 1 && !value.name->global &&
                         (key_ == "kernel" || value.constant.missing);
    const std::string macroFix = noMacro ? "; or name an object-like macro defined as the literal before "
                                           "the attribute (#define MY_" + key_.upper() + " " +
                                           literal.example + ")"
                                         : "";
    if (key_ == "kernel") {
      return failValue(value,
                       "bad value " + shown(value) + " for 'kernel': expected " + literal.expected +
                           ", or an object-like macro that expands to one; " +
                           (noMacro ? quoted(value.written) + " is no macro at this point, and " : "") +
                           "ringkernel-gen does not evaluate constants for 'kernel' (only id and "
                           "priority may name constants)",
                       fix + macroFix);
    }
    return failValue(value, "bad value " + shown(value) + " for '" + key_.str() + "': " +
                                value.constant.problem +
                                (noMacro ? ", and " + quoted(value.written) + " is no macro at this point" : ""),
                     value.constant.fix + "; or " + fix + macroFix);
  }

  /// The integer a value of id or priority stands for, or nullopt (reported) when it is none or
  /// negative.
  std::optional<llvm::APInt> integer(const Value& value, const std::string& expected, const char* fix) {
    if (value.name && !value.constant.found) {
      failName(value, fix);
      return std::nullopt;
    }
    if (value.constant.found) {
      if (value.constant.value.isNegative()) {
        failValue(value, "bad value " + shown(value) + " for '" + key_.str() + "': negative", fix);
        return std::nullopt;
      }
      return value.constant.value.zext(std::max(value.constant.value.getBitWidth(), 65u));
    }
    if (value.token.is(clang::tok::minus) && value.written.size() > 1) {
      failValue(value, "bad value " + shown(value) + " for '" + key_.str() + "': negative", fix);
      return std::nullopt;
    }
    auto number = integerLiteralValue(value.token);
    if (!number) {
      failValue(value, "bad value " + shown(value) + " for '" + key_.str() + "': expected " + expected, fix);
    }
    return number;
  }

  bool readId(const Value& value, MessageOptions& options) {
    const char* fix = "write a non-zero integer up to 0xFFFFFFFF, e.g. id = 0x4001, or omit id to "
                      "use the FNV-1a hash of the qualified name";
    auto number = integer(value, "an unsigned 32-bit integer literal", fix);
    if (!number) return false;
    if (number->getActiveBits() > 32) {
      return failValue(value, "bad value " + shown(value) + " for 'id': does not fit in 32 bits", fix);
    }
    if (number->isZero()) {
      return failValue(value, "bad value " + shown(value) + " for 'id': type id 0 is reserved", fix);
    }
    options.id = static_cast<std::uint32_t>(number->getZExtValue());
    return true;
  }

  bool readPriority(const Value& value, MessageOptions& options) {
    const char* fix = "write an integer from 0 to 255 (default 128)";
    auto number = integer(value, "an integer from 0 to 255", fix);
    if (!number) return false;
    if (number->getActiveBits() > 8) {
      return failValue(value, "bad value " + shown(value) + " for 'priority': out of range 0-255", fix);
    }
    options.priority = static_cast<std::uint8_t>(number->getZExtValue());
    return true;
  }

  bool readKernel(const Value& value, MessageOptions& options) {
    const std::string fix = "write a non-empty string of " + std::string(kKernelNameRule) + ", e.g. kernel = \"Add\"";
    if (value.name) return failName(value, fix);
    llvm::StringRef spelling = text(value.token);
    if (clang::tok::isStringLiteral(value.token.getKind()) && !spelling.starts_with("\"")) {
      return failValue(value, "bad value " + shown(value) + " for 'kernel': expected a plain string literal "
                                  "(\"...\"), without an encoding prefix (u8, u, U, L) or R\"(...)\"", fix);
    }
    if (!value.token.is(clang::tok::string_literal) || !spelling.starts_with("\"")) {
      return failValue(value, "bad value " + shown(value) + " for 'kernel': expected a string literal", fix);
    }
    llvm::StringRef name = spelling.drop_front().drop_back();
    if (const std::string problem = kernelNameProblem(name); !problem.empty()) {
      return failValue(value, "bad value " + (value.fromMacro() ? shown(value) : "\"" + visibleKernelName(name) + "\"") +
                                  " for 'kernel': not a valid kernel name: " + problem, fix);
    }
    options.kernel = name.str();
    return true;
  }

  llvm::StringRef key_;
  const std::vector<clang::Token>& tokens_;
  std::size_t& position_;
  const ValueContext& context_;
  Diagnoser& diagnoser_;
};

}  // namespace

std::string quoted(llvm::StringRef text) {
  constexpr std::size_t kShown = 48;
  if (text.size() <= kShown) return "'" + text.str() + "'";
  return "'" + text.take_front(kShown).str() + "...' (" + std::to_string(text.size()) + " characters)";
}

llvm::StringRef rawTokenText(const clang::Token& token) {
  if (token.is(clang::tok::raw_identifier)) return token.getRawIdentifier();
  if (token.isLiteral()) return llvm::StringRef(token.getLiteralData(), token.getLength());
  if (const char* punctuator = clang::tok::getPunctuatorSpelling(token.getKind())) return punctuator;
  return clang::tok::getTokenName(token.getKind());
}

void joinSplices(clang::Token& token, const clang::SourceManager& sm, const clang::LangOptions& langOpts,
                 std::deque<std::string>& storage) {
  if (!token.needsCleaning() || !(token.is(clang::tok::raw_identifier) || token.isLiteral())) return;
  storage.push_back(clang::Lexer::getSpelling(token, sm, langOpts));
  const std::string& joined = storage.back();
  if (token.is(clang::tok::raw_identifier)) {
    token.setRawIdentifierData(joined.data());
  } else {
    token.setLiteralData(joined.data());
  }
  token.setLength(static_cast<unsigned>(joined.size()));
}

clang::SourceLocation tokenEnd(const clang::Token& token, const clang::SourceManager& sm,
                               const clang::LangOptions& langOpts) {
  if (!token.needsCleaning()) return token.getEndLoc();
  return token.getLocation().getLocWithOffset(
      static_cast<int>(clang::Lexer::MeasureTokenLength(token.getLocation(), sm, langOpts)));
}

bool readMessageValue(llvm::StringRef key, const std::vector<clang::Token>& tokens,
                      std::size_t& position, const ValueContext& context, Diagnoser& diagnoser,
                      MessageOptions& options) {
  return ValueReader(key, tokens, position, context, diagnoser).read(options);
}

}  // namespace ringkernel::gen
