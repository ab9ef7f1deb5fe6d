// Copyright RingKernel authors.
#include "integer_literal.h"

#include <string>

#include "clang/Lex/Token.h"
#include "llvm/ADT/StringExtras.h"

namespace ringkernel::gen {

std::optional<llvm::APInt> integerLiteralValue(const clang::Token& token) {
  if (!token.is(clang::tok::numeric_constant) || token.getLiteralData() == nullptr) return std::nullopt;
  std::string digits;
  for (char c : llvm::StringRef(token.getLiteralData(), token.getLength())) {
    if (c != '\'') digits.push_back(c);
  }
  llvm::StringRef spelling(digits);
  while (!spelling.empty() && (spelling.back() == 'u' || spelling.back() == 'U' ||
                               spelling.back() == 'l' || spelling.back() == 'L' ||
                               spelling.back() == 'z' || spelling.back() == 'Z')) {
    spelling = spelling.drop_back();
  }
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
