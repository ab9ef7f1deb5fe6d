// Copyright RingKernel authors.
// The rules of DESIGN.md §4 on message records and their fields. Every error names the message or
// field, the reason and a fix, at the declaration's file:line:col.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "diagnostics.h"
#include "field_types.h"
#include "model.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class EnumDecl;
class FieldDecl;
class NamedDecl;
}  // namespace clang

namespace ringkernel::gen {

/// Limits of the generated descriptors (runtime/include/ringkernel/message.h, field_descriptor):
/// array rank up to max_array_rank, offsets, sizes and extents in std::uint32_t.
inline constexpr std::size_t kMaxArrayRank = 8;
/// Elements per array dimension: g++ 12 does not match T[N] (std::is_bounded_array, the codecs'
/// partial specialisations) for an N of 2^31 or more.
inline constexpr std::uint64_t kMaxArrayExtent = 0x7FFFFFFFu;
inline constexpr std::uint64_t kMaxMessageBytes = 0xFFFFFFFFu;

class Validator {
 public:
  Validator(const clang::ASTContext& context, Diagnoser& diagnoser);

  /// Rules on the record itself: unions, class templates and their specialisations and members,
  /// local and anonymous structs, anonymous namespaces, nesting in a non-message class or in the
  /// private or protected part of a message, base classes, virtual functions,
  /// __attribute__((packed)), a '$' in its name or the namespaces and classes around it (its
  /// qualified name). Returns false if anything was reported.
  bool checkRecord(const clang::CXXRecordDecl& record, const std::string& message);

  /// False for records without one concrete layout (unions, templates, members of templates,
  /// invalid declarations): their fields are not examined further.
  static bool hasConcreteLayout(const clang::CXXRecordDecl& record);

  /// Rules on one field: anonymous struct/union members, bit-fields (named or not), non-public access,
  /// [[no_unique_address]], const/volatile, an unsupported type (`type.rejection`), more than
  /// kMaxArrayRank dimensions or more than kMaxArrayExtent elements in one, a '$' in its name.
  bool checkField(const clang::FieldDecl& field, const FieldType& type, const std::string& message);

  /// An enum used by a field must be named and sit at namespace scope or in the public part of a
  /// message.
  bool checkEnum(const clang::FieldDecl& field, const clang::EnumDecl& enumeration,
                 const std::string& message);

  /// The names of an enum (its definition) that reach the manifest: no '$' in its name, the
  /// namespaces around it or its enumerators. Once per enum.
  bool checkEnumNames(const clang::EnumDecl& definition);

  /// The default member initializer, if any, must be a scalar constant (or `{}`); on success
  /// `literal` holds its C++ spelling (empty without initializer).
  bool checkInitializer(const clang::FieldDecl& field, const FieldType& type,
                        const std::string& message, std::string& literal);

  /// The field must not be __attribute__((packed)), its offset must be a multiple of its alignment
  /// (the error names what lowered it: #pragma pack, packed, a typedef's aligned attribute), and it
  /// must end within kMaxMessageBytes (validator_layout.cpp).
  bool checkFieldLayout(const clang::FieldDecl& field, const FieldModel& model,
                        const std::string& message);

  /// After the fields (only when nothing more specific was reported): a size over kMaxMessageBytes,
  /// packing that lowers the struct's alignment, constructors, assignments and destructors that
  /// generated code cannot use (special_members.h) and non-standard-layout records.
  bool checkRecordAfterFields(const clang::CXXRecordDecl& record, const MessageModel& model,
                              bool anyErrorReported);

  /// Type id 0, and type-id / kernel-id collisions among the messages of one header; each
  /// collision names both types.
  bool checkIds(const std::vector<std::pair<const MessageModel*, clang::SourceLocation>>& messages);

 private:
  bool fail(clang::SourceLocation where, const std::string& message, const std::string& fix);
  /// The same, underlining the tokens of `highlighted` (a declaration, an expression) around the
  /// caret at `where`.
  bool fail(clang::SourceLocation where, clang::SourceRange highlighted, const std::string& message,
            const std::string& fix);
  /// An error at `named`'s identifier: `message`, why '$' is refused, and the name without it; once
  /// per declaration (a namespace or class around several messages and enums, a message that is
  /// also the class around a nested one), later calls for it return false without a word.
  bool failDollar(const clang::NamedDecl& named, const std::string& message);
  bool checkDollars(const clang::CXXRecordDecl& record, const std::string& subject);
  /// An unnamed struct as a message, an unnamed enum as a field's type (`subject` names the field):
  /// the error names the typedef or alias that names it, if any, and a note points at it
  /// (validator_names.cpp).
  bool failUnnamedRecord(const clang::CXXRecordDecl& record);
  bool failUnnamedEnum(const clang::FieldDecl& field, const clang::EnumDecl& enumeration, const std::string& subject);
  /// The struct's alignment must be that of its most aligned field (validator_layout.cpp).
  bool checkRecordAlignment(const clang::CXXRecordDecl& record, const MessageModel& model);

  const clang::ASTContext& context_;
  Diagnoser& diagnoser_;
  std::set<const clang::NamedDecl*> dollarsReported_;
  /// Where a note has offered an edit of a type's declaration: once per place, however many fields
  /// use the type (a tool applying every fix-it would otherwise write it twice).
  std::set<clang::SourceLocation> declarationEditsOffered_;
};

}  // namespace ringkernel::gen
