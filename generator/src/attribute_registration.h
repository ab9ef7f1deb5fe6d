// Copyright RingKernel authors.
// Teaches clang the attribute [[ringkernel::message]]: accepted on struct/class declarations (the
// frontend then checks that it sits on a definition), an error anywhere else. Accepted attributes
// are recorded as an AnnotateAttr (see isMessageAnnotation) whose range ends at the `message`
// token, where attribute_parser.h reads the arguments.
#pragma once

#include <vector>

namespace clang {
class AnnotateAttr;
class Decl;
}  // namespace clang

namespace ringkernel::gen {

/// Annotation string of the AnnotateAttr that marks [[ringkernel::message]] records.
inline constexpr const char* kMessageAnnotation = "ringkernel::message";

/// Registers the attribute with clang's plugin attribute registry. Idempotent; call before
/// parsing (the frontend does).
void registerMessageAttribute();

/// The [[ringkernel::message]] annotations written on this very declaration (not inherited from
/// a previous declaration), in source order; more than one is an error the frontend reports.
std::vector<const clang::AnnotateAttr*> ownMessageAnnotations(const clang::Decl& decl);
/// The first of ownMessageAnnotations(decl), or nullptr.
const clang::AnnotateAttr* ownMessageAnnotation(const clang::Decl& decl);

/// True if the declaration or any redeclaration carries [[ringkernel::message]].
bool isMessageRecord(const clang::Decl& decl);

}  // namespace ringkernel::gen
