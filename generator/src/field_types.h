// Copyright RingKernel authors.
// Classifies the C++ type of a field (DESIGN.md §4): the wire kind of one element, the array
// extents, and the referenced enum or message; or why the type is not supported and how to fix it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include "model.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class EnumDecl;
}  // namespace clang

namespace ringkernel::gen {

struct FieldType {
  FieldKind kind = FieldKind::Int32;        // of one element
  FieldKind underlying = FieldKind::Int32;  // == kind unless Enumeration
  std::vector<std::uint64_t> extents;       // outermost first
  clang::QualType element;                  // canonical element type
  const clang::EnumDecl* enumeration = nullptr;  // for Enumeration
  const clang::CXXRecordDecl* message = nullptr; // for Message (its definition)
  std::string rejection;  // why the type is unsupported ("is a pointer ('int *')"); empty if ok
  std::string fix;        // how to fix a rejection
  /// A fix that declares the field anew ("use a built-in array: float v[2][3]"): the declaration's
  /// type and what follows the field's name; fixFor() writes the fix with the name between them.
  std::string fixType;
  std::string fixDeclarator;
  /// An edit of the rejected type's own declaration, in the same file: insert `declarationInsertion`
  /// at `declarationEdit` (before a struct's name; before the brace of an unnamed struct that a
  /// typedef names). Reported as the note `declarationNote` there with clang's fix-it;
  /// declarationEdit is invalid when there is none.
  clang::SourceLocation declarationEdit;
  std::string declarationInsertion;
  std::string declarationNote;

  bool ok() const { return rejection.empty(); }
  /// The fix of a rejected field named `fieldName`.
  std::string fixFor(llvm::StringRef fieldName) const;
};

/// Classifies `type` (as written on the field) for the target of `context`: integer kinds by the
/// target's width and signedness (long is Int64 on x86_64, Int32 on i686), char -> Character,
/// signed/unsigned char -> Int8/UInt8, char8_t -> Char8 (not UInt8: their arrays differ on the
/// wire), char16/32_t -> UInt16/32, std::byte -> Byte,
/// enums -> Enumeration, [[ringkernel::message]] records -> Message.
FieldType classifyFieldType(clang::QualType type, const clang::ASTContext& context);

/// Kind of a builtin scalar type, for enum underlying types; false if not a supported scalar.
bool scalarKind(clang::QualType type, const clang::ASTContext& context, FieldKind& kind);

}  // namespace ringkernel::gen
