// Copyright RingKernel authors.
// classifyFieldType and scalarKind: a field's arrays, built-in scalars, enums, pointers and the other
// types that are not records; records (structs, unions, standard library types) and std::atomic in
// field_type_records.cpp.
#include "field_types.h"

#include "clang/AST/ASTContext.h"
#include "field_type_records.h"

namespace ringkernel::gen {

namespace field_type_detail {

std::string spell(clang::QualType type, const clang::ASTContext& context) {
  return "'" + type.getAsString(context.getPrintingPolicy()) + "'";
}

FieldType rejected(std::string reason, std::string fix) {
  FieldType result;
  result.rejection = std::move(reason);
  result.fix = std::move(fix);
  return result;
}

}  // namespace field_type_detail

namespace {

using field_type_detail::classifyRecord;
using field_type_detail::rejectAtomic;
using field_type_detail::rejected;
using field_type_detail::spell;

FieldKind integerKind(unsigned bits, bool isSigned) {
  switch (bits) {
    case 8: return isSigned ? FieldKind::Int8 : FieldKind::UInt8;
    case 16: return isSigned ? FieldKind::Int16 : FieldKind::UInt16;
    case 32: return isSigned ? FieldKind::Int32 : FieldKind::UInt32;
    default: return isSigned ? FieldKind::Int64 : FieldKind::UInt64;
  }
}

FieldType rejectBuiltin(const clang::BuiltinType& builtin, clang::QualType type,
                        const clang::ASTContext& context) {
  switch (builtin.getKind()) {
    case clang::BuiltinType::LongDouble:
      return rejected("has type 'long double', whose size and format differ between host "
                      "compilers and CUDA",
                      "use double");
    case clang::BuiltinType::Int128:
    case clang::BuiltinType::UInt128:
      return rejected("has a 128-bit integer type " + spell(type, context) +
                          ", which CUDA and MessagePack do not support portably",
                      "split it into two std::uint64_t fields (high and low)");
    case clang::BuiltinType::WChar_S:
    case clang::BuiltinType::WChar_U:
      return rejected("has type 'wchar_t', whose size differs between platforms (2 bytes on "
                      "Windows, 4 on Linux)",
                      "use char16_t or char32_t");
    case clang::BuiltinType::Half:
    case clang::BuiltinType::Float16:
    case clang::BuiltinType::BFloat16:
      return rejected("has a half-precision type " + spell(type, context) +
                          ", which MessagePack cannot carry",
                      "use float");
    case clang::BuiltinType::Float128:
    case clang::BuiltinType::Ibm128:
      return rejected("has a 128-bit floating-point type " + spell(type, context) +
                          ", which CUDA does not support",
                      "use double");
    case clang::BuiltinType::NullPtr:
      return rejected("has type 'std::nullptr_t', a pointer", "remove the field");
    default:
      return rejected("has type " + spell(type, context) + ", which is not supported in messages",
                      "use bool, char, a fixed-width integer, float, double, an enum, a fixed-size "
                      "array or a nested [[ringkernel::message]] struct");
  }
}
}  // namespace

std::string FieldType::fixFor(llvm::StringRef fieldName) const {
  if (fixType.empty()) return fix;
  return fix + fixType + " " + fieldName.str() + fixDeclarator;
}

bool scalarKind(clang::QualType type, const clang::ASTContext& context, FieldKind& kind) {
  const auto* builtin = llvm::dyn_cast<clang::BuiltinType>(type.getCanonicalType().getTypePtr());
  if (builtin == nullptr) return false;
  switch (builtin->getKind()) {
    case clang::BuiltinType::Bool: kind = FieldKind::Boolean; return true;
    case clang::BuiltinType::Char_S:
    case clang::BuiltinType::Char_U: kind = FieldKind::Character; return true;
    case clang::BuiltinType::SChar: kind = FieldKind::Int8; return true;
    case clang::BuiltinType::UChar: kind = FieldKind::UInt8; return true;
    case clang::BuiltinType::Char8: kind = FieldKind::Char8; return true;
    case clang::BuiltinType::Char16: kind = FieldKind::UInt16; return true;
    case clang::BuiltinType::Char32: kind = FieldKind::UInt32; return true;
    case clang::BuiltinType::Short:
    case clang::BuiltinType::Int:
    case clang::BuiltinType::Long:
    case clang::BuiltinType::LongLong:
    case clang::BuiltinType::UShort:
    case clang::BuiltinType::UInt:
    case clang::BuiltinType::ULong:
    case clang::BuiltinType::ULongLong:
      kind = integerKind(static_cast<unsigned>(context.getTypeSize(type)),
                         builtin->isSignedInteger());
      return true;
    case clang::BuiltinType::Float: kind = FieldKind::Float32; return true;
    case clang::BuiltinType::Double: kind = FieldKind::Float64; return true;
    default: return false;
  }
}

FieldType classifyFieldType(clang::QualType written, const clang::ASTContext& context) {
  clang::QualType type = written.getCanonicalType();
  std::vector<std::uint64_t> extents;
  while (const clang::ArrayType* array = context.getAsArrayType(type)) {
    const auto* constant = llvm::dyn_cast<clang::ConstantArrayType>(array);
    if (constant == nullptr) {
      return rejected("is an array without a fixed size " + spell(written, context),
                      "give the array a constant size, e.g. values[16]");
    }
    if (constant->getZExtSize() == 0) {
      return rejected("is a zero-length array " + spell(written, context),
                      "give the array at least one element or remove the field");
    }
    extents.push_back(constant->getZExtSize());
    type = constant->getElementType().getCanonicalType();
  }
  const clang::QualType element = type.getUnqualifiedType();
  FieldType result;
  if (element->isPointerType() || element->isMemberPointerType() ||
      element->isBlockPointerType() || element->isObjCObjectPointerType()) {
    return rejected("has pointer type " + spell(written, context) +
                        "; a pointer is meaningless on another device or host",
                    "store the pointed-to data in the message (a fixed-size array or a nested "
                    "message) or an index into a table the receiver knows");
  }
  if (element->isReferenceType()) {
    return rejected("is a reference " + spell(written, context) +
                        "; a reference is meaningless on another device or host",
                    "store the value itself");
  }
  if (const auto* builtin = llvm::dyn_cast<clang::BuiltinType>(element.getTypePtr())) {
    if (!scalarKind(element, context, result.kind)) return rejectBuiltin(*builtin, written, context);
    result.underlying = result.kind;
  } else if (const auto* enumType = llvm::dyn_cast<clang::EnumType>(element.getTypePtr())) {
    const clang::EnumDecl* decl = enumType->getDecl();
    if (decl->getName() == "byte" && decl->isInStdNamespace()) {
      result.kind = result.underlying = FieldKind::Byte;
    } else {
      result.kind = FieldKind::Enumeration;
      if (!scalarKind(decl->getIntegerType(), context, result.underlying)) {
        return rejected("has enum type " + spell(written, context) + " whose underlying type " +
                            spell(decl->getIntegerType(), context) + " is not supported",
                        "give the enum a fixed-width underlying type, e.g. enum class E : "
                        "std::int32_t");
      }
      result.enumeration = decl;
    }
  } else if (const auto* recordType = llvm::dyn_cast<clang::RecordType>(element.getTypePtr())) {
    result = classifyRecord(*recordType, written, extents, context);
    if (!result.ok()) return result;
  } else if (element->isBitIntType()) {
    return rejected("has type " + spell(written, context) + ", a _BitInt",
                    "use a fixed-width integer type such as std::int64_t");
  } else if (element->isAnyComplexType()) {
    return rejected("has complex type " + spell(written, context),
                    "use two float or double fields (real and imaginary)");
  } else if (element->isVectorType()) {
    return rejected("has vector type " + spell(written, context),
                    "use a fixed-size array, e.g. float values[4]");
  } else if (const auto* atomic = element->getAs<clang::AtomicType>()) {
    return rejectAtomic(written, atomic->getValueType(), extents, context);
  } else {
    return rejected("has type " + spell(written, context) + ", which is not supported in messages",
                    "use bool, char, a fixed-width integer, float, double, an enum, a fixed-size "
                    "array or a nested [[ringkernel::message]] struct");
  }
  result.extents = std::move(extents);
  result.element = element;
  return result;
}

}  // namespace ringkernel::gen
