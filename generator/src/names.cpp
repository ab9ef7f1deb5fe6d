// Copyright RingKernel authors.
#include "names.h"

#include <algorithm>
#include <array>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/PrettyPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Unicode.h"
#include "llvm/Support/raw_ostream.h"

namespace ringkernel::gen {

std::uint32_t fnv1a32(std::string_view text) {
  std::uint32_t hash = 2166136261u;
  for (char c : text) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 16777619u;
  }
  return hash;
}

std::string qualifiedName(const clang::NamedDecl& decl) {
  clang::PrintingPolicy policy(decl.getASTContext().getLangOpts());
  policy.SuppressInlineNamespace = false;
  policy.SuppressUnwrittenScope = false;
  std::string name;
  llvm::raw_string_ostream out(name);
  decl.printQualifiedName(out, policy);
  out.flush();
  if (name.starts_with("::")) name.erase(0, 2);
  return name;
}

const clang::TypedefNameDecl* typedefNaming(const clang::TagDecl& tag) {
  if (tag.getIdentifier() != nullptr) return nullptr;
  if (const clang::TypedefNameDecl* name = tag.getTypedefNameForAnonDecl()) return name;
  for (const clang::Decl* next = tag.getNextDeclInContext(); next != nullptr; next = next->getNextDeclInContext()) {
    const auto* alias = llvm::dyn_cast<clang::TypedefNameDecl>(next);
    if (alias == nullptr) return nullptr;
    const clang::TagDecl* named = alias->getUnderlyingType()->getAsTagDecl();
    if (named != nullptr && named->getCanonicalDecl() == tag.getCanonicalDecl()) return alias;
  }
  return nullptr;
}

std::string defaultKernelName(std::string_view typeName) {
  static constexpr std::array<std::string_view, 3> suffixes = {"Request", "Response", "Message"};
  for (std::string_view suffix : suffixes) {
    if (typeName.size() > suffix.size() && typeName.ends_with(suffix)) {
      return std::string(typeName.substr(0, typeName.size() - suffix.size()));
    }
  }
  return std::string(typeName);
}

namespace {

bool isKernelNameAscii(char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '-'; }

/// "U+00A0", "U+E0041": at least four hex digits (utohexstr's Width is exact: it cut U+E0041 to U+0041).
std::string codePointName(std::uint32_t codePoint) {
  const std::string digits = llvm::utohexstr(codePoint, /*LowerCase=*/false);
  return "U+" + std::string(digits.size() < 4 ? 4 - digits.size() : 0, '0') + digits;
}

/// A space separator (Unicode Zs) other than ' ': U+00A0 NO-BREAK SPACE, U+1680, U+2000-U+200A,
/// U+202F, U+205F, U+3000. Printable, but each looks like a plain space (or like nothing).
bool isNonAsciiSpace(std::uint32_t c) {
  return c == 0x00A0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000;
}

/// A printable code point that is not a format character yet shows as nothing or as a blank: the
/// default-ignorable ones outside Cf (U+034F COMBINING GRAPHEME JOINER, the Hangul fillers U+115F,
/// U+1160, U+3164, U+FFA0, U+17B4, U+17B5, the variation selectors U+180B-U+180D, U+180F,
/// U+FE00-U+FE0F, U+E0100-U+E01EF) and U+2800 BRAILLE PATTERN BLANK.
bool isBlankFiller(std::uint32_t c) {
  return c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180D) ||
         c == 0x180F || c == 0x2800 || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFFA0 ||
         (c >= 0xE0100 && c <= 0xE01EF);
}

/// Whether a kernel name may hold the code point `c` (decoded from valid UTF-8; ASCII included).
bool isVisibleCodePoint(std::uint32_t c) {
  return !llvm::sys::unicode::isFormatting(static_cast<int>(c)) &&
         llvm::sys::unicode::isPrintable(static_cast<int>(c)) && !isNonAsciiSpace(c) && !isBlankFiller(c);
}

/// Decodes one code point at `at` (advanced past it); false for bytes that are not valid UTF-8 (`at`
/// then moves one byte).
bool decode(const llvm::UTF8*& at, const llvm::UTF8* end, std::uint32_t& codePoint) {
  llvm::UTF32 decoded = 0;
  const llvm::UTF8* from = at;
  if (llvm::convertUTF8Sequence(&from, end, &decoded, llvm::strictConversion) != llvm::conversionOK) {
    ++at;
    return false;
  }
  at = from;
  codePoint = decoded;
  return true;
}

}  // namespace

std::string kernelNameProblem(std::string_view name) {
  if (name.empty()) return "it is empty";
  const auto* at = reinterpret_cast<const llvm::UTF8*>(name.data());
  const auto* end = at + name.size();
  while (at < end) {
    if (*at < 0x80) {
      const char c = static_cast<char>(*at++);
      if (isKernelNameAscii(c)) continue;
      return "it has " + (llvm::isPrint(c) && c != ' ' ? "'" + std::string(1, c) + "'" : codePointName(static_cast<unsigned char>(c))) +
             ", which is not a letter, a digit, '_', '.', ':' or '-'";
    }
    std::uint32_t codePoint = 0;
    if (!decode(at, end, codePoint)) return "it is not valid UTF-8";
    if (llvm::sys::unicode::isFormatting(static_cast<int>(codePoint))) {
      return "it has " + codePointName(codePoint) +
             ", an invisible format character (such as a bidirectional control or a zero-width character), "
             "which would hide what the name is";
    }
    if (isNonAsciiSpace(codePoint)) {
      return "it has " + codePointName(codePoint) +
             ", a space character (Unicode Zs, such as a no-break space) that looks like a plain space, "
             "which would hide what the name is";
    }
    if (isBlankFiller(codePoint)) {
      return "it has " + codePointName(codePoint) +
             ", an invisible character (a filler, a variation selector or a blank pattern) that shows as "
             "nothing or as a blank, which would hide what the name is";
    }
    if (!llvm::sys::unicode::isPrintable(static_cast<int>(codePoint))) {
      return "it has " + codePointName(codePoint) + ", which is not a printable character";
    }
  }
  return {};
}

bool isKernelName(std::string_view name) { return kernelNameProblem(name).empty(); }

std::string visibleKernelName(std::string_view name) {
  std::string shown;
  const auto* at = reinterpret_cast<const llvm::UTF8*>(name.data());
  const auto* end = at + name.size();
  while (at < end) {
    const llvm::UTF8* start = at;
    std::uint32_t codePoint = 0;
    if (!decode(at, end, codePoint)) {
      shown += "<" + llvm::utohexstr(*start, /*LowerCase=*/false, /*Width=*/2) + ">";
    } else if (codePoint >= 0x80 && !isVisibleCodePoint(codePoint)) {
      shown += "<" + codePointName(codePoint) + ">";
    } else {
      shown.append(reinterpret_cast<const char*>(start), static_cast<std::size_t>(at - start));
    }
  }
  return shown;
}

std::string kernelName(const MessageOptions& options, std::string_view typeName) {
  return options.kernel ? *options.kernel : defaultKernelName(typeName);
}

std::uint32_t typeId(const MessageOptions& options, std::string_view qualifiedName) {
  return options.id ? *options.id : fnv1a32(qualifiedName);
}

}  // namespace ringkernel::gen
