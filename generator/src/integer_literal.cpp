// Copyright RingKernel authors.
#include "integer_literal.h"

#include <string>

#include "clang/Lex/Token.h"
#include "llvm/ADT/StringExtras.h"

namespace ringkernel::gen {

namespace {

/// An integer-suffix of C++23 (z is an extension before): u or U, alone or before or after one of
/// l, L, ll, LL, z, Z; not lL, uu, lul, lz.
bool isIntegerSuffix(llvm::StringRef suffix) {
  if (suffix.starts_with_insensitive("u")) {
    suffix = suffix.drop_front();
  } else if (suffix.ends_with_insensitive("u")) {
    suffix = suffix.drop_back();
  }
  return suffix.empty() || suffix == "l" || suffix == "L" || suffix == "ll" || suffix == "LL" ||
         suffix == "z" || suffix == "Z";
}

}  // namespace

std::optional<llvm::APInt> integerLiteralValue(const clang::Token& token) {
  if (!token.is(clang::tok::numeric_constant) || token.getLiteralData() == nullptr) return std::nullopt;
  const llvm::StringRef written(token.getLiteralData(), token.getLength());
  // Digits (with separators) between the prefix and the suffix; a separator stands between two
  // digits only (`1'000`, not `0x'1`, `1'u` or `1''0`).
  const bool prefixed = written.starts_with_insensitive("0x") || written.starts_with_insensitive("0b");
  const llvm::StringRef afterPrefix = written.drop_front(prefixed ? 2 : 0);
  const bool hex = written.starts_with_insensitive("0x");
  const std::size_t digitsEnd = std::min(afterPrefix.size(), afterPrefix.find_if([&](char c) {
    return !(hex ? llvm::isHexDigit(c) : llvm::isDigit(c)) && c != '\'';
  }));
  const llvm::StringRef withSeparators = afterPrefix.take_front(digitsEnd);
  if (!isIntegerSuffix(afterPrefix.drop_front(digitsEnd)) || withSeparators.starts_with("'") ||
      withSeparators.ends_with("'") || withSeparators.contains("''")) {
    return std::nullopt;
  }
  std::string digits = written.take_front(prefixed ? 2 : 0).str();
  for (char c : withSeparators) {
    if (c != '\'') digits.push_back(c);
  }
  llvm::StringRef spelling(digits);
  unsigned radix = 10;
  if (spelling.starts_with_insensitive("0x")) radix = 16;
  else if (spelling.starts_with_insensitive("0b")) radix = 2;
  else if (spelling.size() > 1 && spelling.front() == '0') radix = 8;
  llvm::StringRef body = radix == 16 || radix == 2 ? spelling.drop_front(2)
                         : radix == 8              ? spelling.drop_front()
                                                   : spelling;
  if (body.empty() && radix != 8) return std::nullopt;
  for (char c : body) {
    const unsigned digit = llvm::isDigit(c) ? static_cast<unsigned>(c - '0')
                           : llvm::isHexDigit(c) ? static_cast<unsigned>(llvm::hexDigitValue(c))
                                                 : radix;
    if (digit >= radix) return std::nullopt;
  }
  body = body.ltrim('0');
  // 64 bits need at most 64 binary, 22 octal, 20 decimal or 16 hexadecimal digits.
  const std::size_t maxDigits = radix == 2 ? 64 : radix == 8 ? 22 : radix == 10 ? 20 : 16;
  if (body.size() > maxDigits) return llvm::APInt::getOneBitSet(65, 64);
  llvm::APInt result(65, 0);
  if (!body.empty() && body.getAsInteger(radix, result)) return std::nullopt;
  return result.zextOrTrunc(65);
}

}  // namespace ringkernel::gen
