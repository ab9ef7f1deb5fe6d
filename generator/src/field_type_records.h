// Copyright RingKernel authors.
// Internal to classifyFieldType (field_types.cpp) and field_type_records.cpp: a field whose element
// type is a record (struct, union, standard library type) or an atomic, and the two helpers both
// files build rejections with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "field_types.h"

namespace clang {
class RecordType;
}  // namespace clang

namespace ringkernel::gen::field_type_detail {

/// `type` as clang prints it for the target of `context`, in single quotes: "'std::string'".
std::string spell(clang::QualType type, const clang::ASTContext& context);

/// A FieldType rejected for `reason` ("has type ...") with `fix` ("use ...").
FieldType rejected(std::string reason, std::string fix);

/// The element type `recordType` of a field of `outer` extents (`type`: as written on the field):
/// a [[ringkernel::message]] struct as FieldKind::Message; else rejected with a fix (std::array: a
/// built-in array; a struct declared in another header: an array of its fields' type; ...).
FieldType classifyRecord(const clang::RecordType& recordType, clang::QualType type,
                         const std::vector<std::uint64_t>& outer, const clang::ASTContext& context);

/// An atomic (std::atomic<T>, std::atomic_flag, _Atomic(T)) of value type `value` (null: unknown)
/// in a field of `outer` extents: rejected, with the plain type as the fix.
FieldType rejectAtomic(clang::QualType type, clang::QualType value, const std::vector<std::uint64_t>& outer,
                       const clang::ASTContext& context);

}  // namespace ringkernel::gen::field_type_detail
