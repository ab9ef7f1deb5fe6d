// Copyright RingKernel authors.
// The record types of a field (field_type_records.h): a [[ringkernel::message]] struct is accepted;
// unions, standard library types, atomics, class template instances and structs that are not
// messages are rejected, with a fix that redeclares the field where one fits (a built-in array for
// std::array, the plain type for an atomic, an array of a foreign struct's fields).
#include "field_type_records.h"

#include <algorithm>
#include <map>

#include "attribute_registration.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include "names.h"

namespace ringkernel::gen::field_type_detail {
namespace {

/// Fix for a standard library type, by its unqualified name (std::array and atomics: arrayFix,
/// rejectAtomic).
std::string libraryFix(llvm::StringRef name) {
  static const std::map<std::string, std::string, std::less<>> fixes = {
      {"basic_string", "use a fixed-size char array, e.g. char name[64]"},
      {"basic_string_view", "use a fixed-size char array, e.g. char name[64]"},
      {"array", "use a built-in array of a supported element type, e.g. std::int32_t values[4]"},
      {"pair", "use a nested [[ringkernel::message]] struct with two fields"},
      {"tuple", "use a nested [[ringkernel::message]] struct with one field per element"},
      {"complex", "use two float or double fields (real and imaginary)"},
      {"optional", "use the value plus a bool has_value field"},
  };
  auto found = fixes.find(name);
  if (found != fixes.end()) return found->second;
  return "use a fixed-size array (e.g. T items[N] plus a std::uint32_t count field)";
}

/// How a fix spells the supported type `type` (without arrays): signed and unsigned char and the
/// builtin integers by their width on the target (int -> std::int32_t), the others as printed.
/// Empty when a field of this type would be rejected too.
std::string plainSpelling(clang::QualType type, const clang::ASTContext& context) {
  if (!classifyFieldType(type, context).ok()) return {};
  const clang::QualType element = type.getCanonicalType().getUnqualifiedType();
  const auto* builtin = llvm::dyn_cast<clang::BuiltinType>(element.getTypePtr());
  if (builtin != nullptr) {
    switch (builtin->getKind()) {
      case clang::BuiltinType::SChar:
      case clang::BuiltinType::UChar:
      case clang::BuiltinType::Short:
      case clang::BuiltinType::Int:
      case clang::BuiltinType::Long:
      case clang::BuiltinType::LongLong:
      case clang::BuiltinType::UShort:
      case clang::BuiltinType::UInt:
      case clang::BuiltinType::ULong:
      case clang::BuiltinType::ULongLong:
        return std::string("std::") + (builtin->isSignedInteger() ? "int" : "uint") +
               std::to_string(context.getTypeSize(element)) + "_t";
      default: break;
    }
  }
  return element.getAsString(context.getPrintingPolicy());
}

std::string declaratorOf(const std::vector<std::uint64_t>& extents) {
  std::string text;
  for (const std::uint64_t extent : extents) text += "[" + std::to_string(extent) + "]";
  return text;
}

/// How a fix spells `element`, the element type of a built-in array of `extents` that replaces a
/// field (a std::array, a foreign struct's fields): a plain char in an array would be a
/// NUL-terminated string on the wire ({char r, g, b} with r = 0 would lose g and b), so there it is
/// the integer of char's signedness on the target (std::int8_t or std::uint8_t); the others as
/// plainSpelling.
std::string arrayElementSpelling(clang::QualType element, const std::vector<std::uint64_t>& extents,
                                 const clang::ASTContext& context) {
  const auto* builtin = llvm::dyn_cast<clang::BuiltinType>(element.getCanonicalType().getTypePtr());
  const bool plainChar = builtin != nullptr && (builtin->getKind() == clang::BuiltinType::Char_S ||
                                                builtin->getKind() == clang::BuiltinType::Char_U);
  if (plainChar && !extents.empty()) {
    return builtin->getKind() == clang::BuiltinType::Char_S ? "std::int8_t" : "std::uint8_t";
  }
  return plainSpelling(element, context);
}

/// The fix for a std::array field (itself maybe an array of `outer` extents): the built-in array of
/// its element type and extents, std::array<std::array<float, 3>, 2> v -> float v[2][3] (of
/// std::int8_t or std::uint8_t for char: arrayElementSpelling). `result`
/// (the rejection with a general fix) is kept as it is when there is no such array.
FieldType arrayFix(FieldType result, const clang::ClassTemplateSpecializationDecl& array,
                   const std::vector<std::uint64_t>& outer, const clang::ASTContext& context) {
  std::vector<std::uint64_t> extents = outer;
  const clang::ClassTemplateSpecializationDecl* level = &array;
  clang::QualType element;
  while (level != nullptr) {
    const clang::TemplateArgumentList& args = level->getTemplateArgs();
    if (args.size() != 2 || args[0].getKind() != clang::TemplateArgument::Type ||
        args[1].getKind() != clang::TemplateArgument::Integral) {
      return result;
    }
    extents.push_back(args[1].getAsIntegral().getZExtValue());
    element = args[0].getAsType().getCanonicalType();
    while (const auto* builtIn = llvm::dyn_cast_or_null<clang::ConstantArrayType>(context.getAsArrayType(element))) {
      extents.push_back(builtIn->getZExtSize());
      element = builtIn->getElementType().getCanonicalType();
    }
    const auto* inner = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(element->getAsCXXRecordDecl());
    level = inner != nullptr && inner->isInStdNamespace() && inner->getName() == "array" ? inner : nullptr;
  }
  if (std::find(extents.begin(), extents.end(), 0u) != extents.end()) {
    result.fix = "remove the field: a std::array of 0 elements holds no data";
    return result;
  }
  const std::string spelling = arrayElementSpelling(element, extents, context);
  if (spelling.empty()) return result;
  result.fix = spelling == plainSpelling(element, context)
                   ? "use a built-in array: "
                   : "use a built-in array (not of char: a char array is a NUL-terminated string on the wire): ";
  result.fixType = spelling;
  result.fixDeclarator = declaratorOf(extents);
  return result;
}

/// The type of all of `record`'s fields when they share one supported scalar type and there is no
/// other data (no bases, bit-fields or arrays), e.g. float for CUDA's float3; null otherwise.
clang::QualType commonFieldType(const clang::CXXRecordDecl& record, const clang::ASTContext& context) {
  if (record.getNumBases() != 0 || record.isUnion() || record.field_empty()) return {};
  clang::QualType common;
  for (const clang::FieldDecl* field : record.fields()) {
    const clang::QualType type = field->getType().getCanonicalType().getUnqualifiedType();
    if (field->isBitField() || context.getAsArrayType(type) != nullptr) return {};
    if (!common.isNull() && type != common) return {};
    common = type;
  }
  FieldKind kind;
  return scalarKind(common, context, kind) ? common : clang::QualType();
}

/// How an error names `type`, a field's type as written whose element is a standard library class:
/// through the user's aliases to the library's spelling, 'Row[2]', an array of 'std::array<float, 3>';
/// 'Grid' (aka 'std::array<std::array<double, 4>, 2>'); 'std::string' as it is.
std::string librarySpelling(clang::QualType type, bool array, const clang::ASTContext& context) {
  clang::QualType element = context.getBaseElementType(type);
  while (true) {
    const auto* elaborated = llvm::dyn_cast<clang::ElaboratedType>(element.getTypePtr());
    const clang::Type* named = elaborated != nullptr ? elaborated->getNamedType().getTypePtr() : element.getTypePtr();
    const auto* alias = llvm::dyn_cast<clang::TypedefType>(named);
    if (alias == nullptr || alias->getDecl()->isInStdNamespace()) break;
    element = alias->getDecl()->getUnderlyingType();
  }
  const std::string written = spell(type, context);
  const std::string library = spell(element, context);
  if (array) return written + ", an array of " + library;
  return library == written ? written : written + " (aka " + library + ")";
}

/// A struct field whose type is declared in another header and is not a message: a system or
/// third-party type (CUDA's float3, glibc's div_t, a typedef of an unnamed struct) cannot be
/// annotated by the user, so the fix offers an array of its fields' type (with the struct's
/// alignment when that is larger: float4; the plain type for a struct of one field) or a message of
/// their own; a header of their own may still annotate it.
FieldType notOwnRecord(const clang::CXXRecordDecl& record, clang::QualType type,
                       const std::vector<std::uint64_t>& outer, const clang::ASTContext& context) {
  const clang::SourceManager& sm = context.getSourceManager();
  const bool system = sm.isInSystemHeader(sm.getExpansionLoc(record.getLocation()));
  const std::string file = llvm::sys::path::filename(sm.getFilename(sm.getExpansionLoc(record.getLocation()))).str();
  const std::string own = "a [[ringkernel::message]] struct of your own with the same fields";
  const std::string annotate = record.getIdentifier() == nullptr ? "give the struct a name and annotate it" : "annotate it";
  FieldType result = rejected(
      "has type " + spell(type, context) + ", which is not a [[ringkernel::message]]" +
          (system ? " and is declared in a system header ('" + file + "'), so it cannot be one"
                  : " (declared in '" + file + "')"),
      system ? "use " + own : annotate + " in '" + file + "' if that header is yours, else use " + own);
  const clang::QualType common = commonFieldType(record, context);
  if (common.isNull()) return result;
  std::vector<std::uint64_t> extents = outer;
  const auto fields = static_cast<std::uint64_t>(std::distance(record.field_begin(), record.field_end()));
  if (fields > 1) extents.push_back(fields);
  const std::string spelling = arrayElementSpelling(common, extents, context);
  if (spelling.empty()) return result;
  const clang::CharUnits alignment = context.getTypeAlignInChars(context.getRecordType(&record));
  const bool overAligned = alignment > context.getTypeAlignInChars(common);
  result.fix += fields > 1 ? ", or an array of its fields' type: " : ", or its field's type: ";
  result.fixType = (overAligned ? "alignas(" + std::to_string(alignment.getQuantity()) + ") " : std::string()) + spelling;
  result.fixDeclarator = declaratorOf(extents);
  return result;
}

/// Whether a ringkernel:: attribute is written between the record's `struct` and its brace (one
/// misspelt, `[[ringkernel::mesage]]`, has an error and a fix-it of its own; a second attribute
/// would not be a fix).
bool writesRingkernelAttribute(const clang::CXXRecordDecl& record, const clang::ASTContext& context) {
  const clang::SourceManager& sm = context.getSourceManager();
  const clang::CharSourceRange head =
      clang::CharSourceRange::getCharRange(record.getBeginLoc(), record.getBraceRange().getBegin());
  const llvm::StringRef text = clang::Lexer::getSourceText(head, sm, context.getLangOpts());
  return text.contains("ringkernel");
}

}  // namespace

FieldType rejectAtomic(clang::QualType type, clang::QualType value, const std::vector<std::uint64_t>& outer,
                       const clang::ASTContext& context) {
  FieldType result = rejected("has type " + spell(type, context) +
                                  ", an atomic; messages are copied as bytes, so it would not be atomic "
                                  "for the sender or the receiver",
                              "use the plain value type");
  const std::string spelling = value.isNull() ? std::string() : plainSpelling(value, context);
  if (spelling.empty()) return result;
  result.fix = "use the plain type: ";
  result.fixType = spelling;
  result.fixDeclarator = declaratorOf(outer);
  return result;
}

FieldType classifyRecord(const clang::RecordType& recordType, clang::QualType type,
                         const std::vector<std::uint64_t>& outer, const clang::ASTContext& context) {
  const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(recordType.getDecl());
  if (record == nullptr) return rejected("has unsupported record type " + spell(type, context), "");
  if (record->isUnion()) {
    return rejected("is a union " + spell(type, context) + ", whose active member cannot be known",
                    "use a struct with one field per alternative and a tag field, or a byte array");
  }
  if (record->isInStdNamespace()) {
    const auto* specialization = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(record);
    if (record->getName() == "atomic_flag") return rejectAtomic(type, context.BoolTy, outer, context);
    if (record->getName() == "atomic") {
      clang::QualType value;
      if (specialization != nullptr && specialization->getTemplateArgs().size() == 1 &&
          specialization->getTemplateArgs()[0].getKind() == clang::TemplateArgument::Type) {
        value = specialization->getTemplateArgs()[0].getAsType();
      }
      return rejectAtomic(type, value, outer, context);
    }
    const bool container = record->getName() != "array" && record->getName() != "pair" &&
                           record->getName() != "tuple" && record->getName() != "complex";
    FieldType result = rejected("has type " + librarySpelling(type, !outer.empty(), context) + ", a standard library " +
                                    (container ? "container or handle" : "type") +
                                    " whose layout is not fixed across compilers and devices",
                                libraryFix(record->getName()));
    if (record->getName() == "array" && specialization != nullptr) {
      return arrayFix(std::move(result), *specialization, outer, context);
    }
    return result;
  }
  if (llvm::isa<clang::ClassTemplateSpecializationDecl>(record)) {
    return rejected("has type " + spell(type, context) +
                        ", an instance of a class template; templates cannot be messages",
                    "use a non-template struct annotated with [[ringkernel::message]]");
  }
  const clang::CXXRecordDecl* definition = record->getDefinition();
  if (definition == nullptr || !isMessageRecord(*record)) {
    const clang::SourceManager& sm = context.getSourceManager();
    const clang::SourceLocation declared = sm.getExpansionLoc(record->getLocation());
    const bool named = record->getIdentifier() != nullptr || record->getTypedefNameForAnonDecl() != nullptr;
    if (definition != nullptr && named && declared.isValid() && !sm.isInMainFile(declared)) {
      return notOwnRecord(*definition, type, outer, context);
    }
    const clang::TypedefNameDecl* alias = typedefNaming(*record);  // typedef struct { ... } Inner;
    FieldType result = rejected(
        "has type " + spell(type, context) + ", which is not a [[ringkernel::message]]" +
            (alias != nullptr ? " (an unnamed struct that only '" + alias->getNameAsString() + "' names)" : ""),
        record->getIdentifier() != nullptr
            ? "annotate it: struct [[ringkernel::message]] " + record->getNameAsString() + " { ... };"
            : "give the struct a name and annotate it: struct [[ringkernel::message]] " +
                  (alias != nullptr ? alias->getNameAsString() : std::string("Name")) + " { ... };");
    if (definition == nullptr || writesRingkernelAttribute(*definition, context)) return result;
    result.declarationNote = "the " + definition->getKindName().str() + " is declared here";
    if (record->getIdentifier() != nullptr) {
      result.declarationEdit = definition->getLocation();  // struct [[ringkernel::message]] Inner {
      result.declarationInsertion = "[[ringkernel::message]] ";
    } else if (alias != nullptr) {
      // typedef struct [[ringkernel::message]] Inner { ... } Inner;
      result.declarationEdit = definition->getBraceRange().getBegin();
      result.declarationInsertion = "[[ringkernel::message]] " + alias->getNameAsString() + " ";
    }
    return result;
  }
  FieldType result;
  result.kind = result.underlying = FieldKind::Message;
  result.message = definition;
  return result;
}

}  // namespace ringkernel::gen::field_type_detail
