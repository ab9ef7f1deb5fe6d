// Copyright RingKernel authors.
// C++ spellings of constant values (enumerator values, default member initializers) that mean the
// same in host C++ and CUDA, e.g. 5u, -3LL, (-2147483647 - 1), 'a', 1.5f.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "model.h"

namespace ringkernel::gen {

/// Integer constant as a literal of the given scalar kind (Boolean, Character, integer kinds,
/// Byte). `value` is interpreted with its own signedness.
std::string integerLiteral(const llvm::APSInt& value, FieldKind kind);

/// The integer a constant of the given kind carries on the wire, as two's complement bits: signed
/// where signedOnTheWire(kind) (a Character is the signed char of its byte, also where plain char is
/// unsigned), Boolean 0 or 1, else unsigned.
std::uint64_t wireInteger(const llvm::APSInt& value, FieldKind kind);

/// Float32 / Float64 literal that reads back to the same value; nullopt for infinities and NaNs.
std::optional<std::string> floatLiteral(const llvm::APFloat& value, FieldKind kind);

}  // namespace ringkernel::gen
