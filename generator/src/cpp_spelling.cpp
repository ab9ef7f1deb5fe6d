// Copyright RingKernel authors.
#include "cpp_spelling.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace ringkernel::gen {

std::string hexDigits(std::uint32_t value) {
  std::array<char, 9> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%08x", static_cast<unsigned>(value));
  return buffer.data();
}

std::string hexLiteral(std::uint32_t value) { return "0x" + hexDigits(value) + "u"; }

std::string cppStringLiteral(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '?': out += "\\?"; break;  // no trigraphs in any language mode
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          std::array<char, 5> escaped{};
          std::snprintf(escaped.data(), escaped.size(), "\\%03o", static_cast<unsigned char>(c));
          out += escaped.data();
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string macroFragment(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += std::isalnum(u) ? static_cast<char>(std::toupper(u)) : '_';
  }
  return out;
}

std::string qualifiedNameFragment(std::string_view qualifiedName) {
  std::string out;
  for (std::size_t i = 0; i < qualifiedName.size(); ++i) {
    const auto u = static_cast<unsigned char>(qualifiedName[i]);
    if (u < 0x80 && std::isalnum(u) != 0) {
      out += qualifiedName[i];
    } else if (u == '_') {
      out += "_0";
    } else if (u == ':' && i + 1 < qualifiedName.size() && qualifiedName[i + 1] == ':') {
      out += "_1";
      ++i;
    } else {
      std::array<char, 3> hex{};
      std::snprintf(hex.data(), hex.size(), "%02x", static_cast<unsigned>(u));
      out += "_x";
      out += hex.data();
    }
  }
  return out;
}

std::string cppIdentifier(std::string_view text) {
  static constexpr std::array<std::string_view, 92> kKeywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    const char mapped = (std::isalnum(u) != 0 && u < 0x80) || c == '_' ? c : '_';
    if (mapped == '_' && !out.empty() && out.back() == '_') continue;
    out += mapped;
  }
  if (!out.empty() && std::isdigit(static_cast<unsigned char>(out.front())) != 0) out.insert(0, "_");
  if (out.size() > 1 && out[0] == '_' && std::isupper(static_cast<unsigned char>(out[1])) != 0) {
    out.insert(0, "r");  // "_X..." is reserved in every scope
  }
  if (std::find(kKeywords.begin(), kKeywords.end(), out) != kKeywords.end()) out += '_';
  return out;
}

}  // namespace ringkernel::gen
