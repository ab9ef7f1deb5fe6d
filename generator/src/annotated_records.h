// Copyright RingKernel authors.
// The records of a header that carry [[ringkernel::message]]: finding them in the AST, telling the
// message definitions among them from misplaced attributes (reported), and whether building them
// while clang is still parsing gives what building them after the whole parse would.
#pragma once

#include <vector>

#include "diagnostics.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class Decl;
class SourceManager;
}  // namespace clang

namespace ringkernel::gen {

/// Appends every written record in `decl` (itself, or inside it) of the main file that carries its
/// own [[ringkernel::message]], in declaration order, including template patterns, specialisations
/// and local classes (the validator reports those). Implicit instantiations are skipped.
void collectAnnotatedRecords(const clang::Decl* decl, const clang::SourceManager& sm,
                             std::vector<const clang::CXXRecordDecl*>& records);

/// The annotated records that are message definitions; the others (the attribute given twice, or
/// on a declaration that is not the definition) are reported through `diagnoser`.
std::vector<const clang::CXXRecordDecl*> selectRoots(const std::vector<const clang::CXXRecordDecl*>& annotated,
                                                     Diagnoser& diagnoser);

/// True when building these records now gives what building them after the whole parse would: no
/// record is an unnamed struct (a typedef after its closing brace may still name it), no field uses
/// an enum that is only declared so far, and every default member initializer is a literal (a
/// constexpr function, say, may still get its definition later in the header).
bool completeNow(const std::vector<const clang::CXXRecordDecl*>& records, const clang::ASTContext& context);

}  // namespace ringkernel::gen
