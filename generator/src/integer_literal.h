// Copyright RingKernel authors.
// The value of a C++ integer literal as written in [[ringkernel::message]] (the attribute's
// arguments are raw-lexed from the source, attribute_parser.cpp).
#pragma once

#include <optional>

#include "llvm/ADT/APInt.h"

namespace clang {
class Token;
}

namespace ringkernel::gen {

/// A raw-lexed numeric_constant as an integer literal (decimal, hex, octal, binary, digit
/// separators, u/l/z suffixes), as a 65-bit value; nullopt for any other token or spelling. A value
/// with more than 64 significant bits is returned as 2^64 (every caller only needs to know that it
/// is too large), so that a huge literal costs linear time.
std::optional<llvm::APInt> integerLiteralValue(const clang::Token& token);

}  // namespace ringkernel::gen
