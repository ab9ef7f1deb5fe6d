// Copyright RingKernel authors.
// The validator's layout rules: every field ends within kMaxMessageBytes and starts at a multiple of
// its alignment, no field is __attribute__((packed)) (generated code binds a reference to every
// field, which g++ refuses for a packed one), and the struct keeps the alignment its fields need.
// Each error names what lowered an alignment: the field's packed attribute, the struct's, a
// #pragma pack around the struct or a typedef declared __attribute__((aligned(N))).
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "validator.h"
#include "validator_text.h"

namespace ringkernel::gen {
namespace {

/// What lowered a field's alignment below its type's natural one.
struct Lowering {
  enum Kind { FieldPacked, StructPacked, Typedef, PragmaPack, Unknown } kind = Unknown;
  const clang::TypedefNameDecl* alias = nullptr;  // for Typedef
  std::int64_t bytes = 0;                         // the typedef's or the pragma's alignment
};

/// The typedef in the sugar of `field`'s element type (through other typedefs and arrays) that is
/// declared __attribute__((aligned(N))) below the natural alignment of the type it names, or null.
const clang::TypedefNameDecl* underAlignedTypedef(const clang::FieldDecl& field, const clang::ASTContext& context) {
  clang::QualType type = context.getBaseElementType(field.getType());
  const std::uint64_t natural = context.getTypeAlign(type.getCanonicalType());
  while (!type.isNull()) {
    if (const auto* elaborated = llvm::dyn_cast<clang::ElaboratedType>(type.getTypePtr())) {
      type = elaborated->getNamedType();
    } else if (const auto* alias = llvm::dyn_cast<clang::TypedefType>(type.getTypePtr())) {
      const clang::TypedefNameDecl* decl = alias->getDecl();
      if (decl->getMaxAlignment() != 0 && decl->getMaxAlignment() < natural) return decl;
      type = decl->getUnderlyingType();
    } else if (const auto* usingType = llvm::dyn_cast<clang::UsingType>(type.getTypePtr())) {
      type = usingType->desugar();
    } else {
      break;
    }
  }
  return nullptr;
}

Lowering loweringOf(const clang::FieldDecl& field, const clang::ASTContext& context) {
  const clang::RecordDecl& record = *field.getParent();
  if (field.hasAttr<clang::PackedAttr>()) return {Lowering::FieldPacked};
  if (record.hasAttr<clang::PackedAttr>()) return {Lowering::StructPacked};
  const auto* pack = record.getAttr<clang::MaxFieldAlignmentAttr>();
  const clang::TypedefNameDecl* alias = underAlignedTypedef(field, context);
  // With both, the lower alignment is the one that binds.
  if (alias != nullptr && (pack == nullptr || alias->getMaxAlignment() <= pack->getAlignment())) {
    return {Lowering::Typedef, alias, context.toCharUnitsFromBits(alias->getMaxAlignment()).getQuantity()};
  }
  if (pack != nullptr) {
    return {Lowering::PragmaPack, nullptr, context.toCharUnitsFromBits(pack->getAlignment()).getQuantity()};
  }
  return {};
}

std::string alignedAttribute(std::int64_t bytes) {
  return "__attribute__((aligned(" + std::to_string(bytes) + ")))";
}

/// The fix that undoes `lowering`.
std::string undo(const Lowering& lowering, const clang::ASTContext& context) {
  switch (lowering.kind) {
    case Lowering::FieldPacked: return "remove __attribute__((packed)) from the field";
    case Lowering::StructPacked: return "remove the packed attribute from the struct";
    case Lowering::Typedef:
      return "remove the aligned attribute from typedef " + quotedName(lowering.alias->getNameAsString()) +
             " (or declare the field as " +
             lowering.alias->getUnderlyingType().getAsString(context.getPrintingPolicy()) + ")";
    case Lowering::PragmaPack: return "remove the #pragma pack around the struct";
    case Lowering::Unknown: break;
  }
  return "remove what lowers the alignment (#pragma pack, packed, a typedef's aligned attribute)";
}

constexpr const char* kMisalignedFaults = "misaligned fields fault or slow down on the GPU";

}  // namespace

bool Validator::checkFieldLayout(const clang::FieldDecl& field, const FieldModel& model,
                                 const std::string& message) {
  if (model.size > kMaxMessageBytes || model.offset > kMaxMessageBytes - model.size) {
    return fail(field.getLocation(),
                fieldPrefix(field, message) + " ends at byte " + std::to_string(model.offset + model.size) +
                    ", beyond the " + std::to_string(kMaxMessageBytes) +
                    " bytes a message can have (generated descriptors hold 32-bit offsets and sizes)",
                "make the array smaller, or send the data in several messages");
  }
  const bool misaligned = model.alignment != 0 && model.offset % model.alignment != 0;
  const std::string at = "offset " + std::to_string(model.offset) + ", not a multiple of its alignment " +
                         std::to_string(model.alignment);
  const std::string reorder = "reorder the fields or add explicit padding fields so that it starts at a multiple of " +
                              std::to_string(model.alignment);
  if (field.hasAttr<clang::PackedAttr>()) {
    return fail(field.getLocation(),
                fieldPrefix(field, message) + " is __attribute__((packed))" +
                    (misaligned ? ", which puts it at " + at + " (" + kMisalignedFaults + ")" : std::string()) +
                    "; generated code (visit_fields) binds a reference to every field, which g++ refuses for a "
                    "packed field",
                "remove __attribute__((packed)) from the field" + (misaligned ? ", and " + reorder : std::string()));
  }
  if (!misaligned) return true;
  const Lowering lowering = loweringOf(field, context_);
  std::string cause = "it is aligned below its type's natural alignment";
  if (lowering.kind == Lowering::StructPacked) cause = "its struct is __attribute__((packed))";
  if (lowering.kind == Lowering::Typedef) {
    cause = "its type " + quotedName(lowering.alias->getNameAsString()) + " is a typedef declared " +
            alignedAttribute(lowering.bytes);
  }
  if (lowering.kind == Lowering::PragmaPack) {
    cause = "#pragma pack(" + std::to_string(lowering.bytes) + ") around the struct lowers it to " +
            std::to_string(lowering.bytes);
  }
  return fail(field.getLocation(),
              fieldPrefix(field, message) + " is at " + at + ": " + cause + "; " + kMisalignedFaults,
              undo(lowering, context_) + ", or " + reorder);
}

bool Validator::checkRecordAlignment(const clang::CXXRecordDecl& record, const MessageModel& model) {
  if (model.alignment >= model.naturalAlignment) return true;
  // The first field that needs more than the struct's alignment names what lowered it.
  const clang::FieldDecl* blamed = nullptr;
  for (const clang::FieldDecl* field : record.fields()) {
    const clang::QualType element = context_.getBaseElementType(field->getType()).getCanonicalType();
    if (context_.getTypeAlignInChars(element).getQuantity() > static_cast<std::int64_t>(model.alignment)) {
      blamed = field;
      break;
    }
  }
  const Lowering lowering = blamed != nullptr ? loweringOf(*blamed, context_) : Lowering{};
  std::string cause = "#pragma pack, packed or a typedef's aligned attribute lowers it";
  if (lowering.kind == Lowering::FieldPacked) {
    cause = "field " + quotedName(blamed->getNameAsString()) + " is __attribute__((packed))";
  }
  if (lowering.kind == Lowering::StructPacked) cause = "the struct is __attribute__((packed))";
  if (lowering.kind == Lowering::Typedef) {
    cause = "field " + quotedName(blamed->getNameAsString()) + " has type " +
            quotedName(lowering.alias->getNameAsString()) + ", a typedef declared " +
            alignedAttribute(lowering.bytes);
  }
  if (lowering.kind == Lowering::PragmaPack) cause = "#pragma pack(" + std::to_string(lowering.bytes) + ") around it";
  return fail(record.getLocation(),
              "message " + quotedName(model.qualifiedName) + " has alignment " + std::to_string(model.alignment) +
                  ", below the " + std::to_string(model.naturalAlignment) + " its fields need: " + cause +
                  "; in an array of it, or as a field of another message, its fields would be misaligned, which "
                  "faults or slows down on the GPU",
              undo(lowering, context_));
}

}  // namespace ringkernel::gen
