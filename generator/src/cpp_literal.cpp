// Copyright RingKernel authors.
#include "cpp_literal.h"

#include <cstdio>
#include <limits>


namespace ringkernel::gen {
namespace {

std::string characterLiteral(std::int64_t value) {
  const auto byte = static_cast<unsigned char>(value);
  if (byte == '\'' || byte == '\\') return std::string("'\\") + static_cast<char>(byte) + "'";
  if (byte >= 0x20 && byte < 0x7f) return std::string("'") + static_cast<char>(byte) + "'";
  static constexpr char hex[] = "0123456789abcdef";
  return std::string("'\\x") + hex[byte >> 4] + hex[byte & 0xf] + "'";
}

std::string signedLiteral(std::int64_t value, FieldKind kind) {
  const char* suffix = kind == FieldKind::Int64 ? "LL" : "";
  if (value == std::numeric_limits<std::int64_t>::min()) return "(-9223372036854775807LL - 1)";
  if (value == std::numeric_limits<std::int32_t>::min() && kind == FieldKind::Int32) {
    return "(-2147483647 - 1)";
  }
  return std::to_string(value) + suffix;
}

}  // namespace

std::string integerLiteral(const llvm::APSInt& value, FieldKind kind) {
  const std::int64_t asSigned = value.isSigned() ? value.getExtValue()
                                                 : static_cast<std::int64_t>(value.getZExtValue());
  const std::uint64_t asUnsigned = value.isSigned() ? static_cast<std::uint64_t>(value.getExtValue())
                                                    : value.getZExtValue();
  switch (kind) {
    case FieldKind::Boolean: return value.isZero() ? "false" : "true";
    case FieldKind::Character: return characterLiteral(asSigned);
    case FieldKind::Int8:
    case FieldKind::Int16:
    case FieldKind::Int32:
    case FieldKind::Int64: return signedLiteral(asSigned, kind);
    case FieldKind::UInt64: return std::to_string(asUnsigned) + "ull";
    case FieldKind::Byte: return "::std::byte{" + std::to_string(asUnsigned & 0xffu) + "}";  // a namespace std around the message must not capture it
    default: return std::to_string(asUnsigned) + "u";
  }
}

std::uint64_t wireInteger(const llvm::APSInt& value, FieldKind kind) {
  const std::uint64_t bits = value.isSigned() ? static_cast<std::uint64_t>(value.getExtValue()) : value.getZExtValue();
  switch (kind) {
    case FieldKind::Boolean: return value.isZero() ? 0u : 1u;
    case FieldKind::Character:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(bits & 0xffu)));
    default: return bits;
  }
}

std::optional<std::string> floatLiteral(const llvm::APFloat& value, FieldKind kind) {
  if (!value.isFinite()) return std::nullopt;
  const bool single = kind == FieldKind::Float32;
  llvm::APFloat converted = value;
  bool losesInfo = false;
  converted.convert(single ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  char text[64];
  if (single) {
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(converted.convertToFloat()));
  } else {
    std::snprintf(text, sizeof text, "%.17g", converted.convertToDouble());
  }
  std::string literal(text);
  if (literal.find_first_of(".e") == std::string::npos) literal += ".0";
  if (kind == FieldKind::Float32) literal += "f";
  return literal;
}

}  // namespace ringkernel::gen
