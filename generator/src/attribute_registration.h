// Copyright RingKernel authors.
// Teaches clang the attribute [[ringkernel::message]]: accepted on struct/class declarations (the
// frontend then checks that it sits on a definition), an error anywhere else. Accepted attributes
// are recorded as an AnnotateAttr (see isMessageAnnotation) whose range ends at the `message`
// token, where attribute_parser.h reads the arguments.
#pragma once

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

/// The [[ringkernel::message]] annotation written on this very declaration (not inherited from a
/// previous declaration), or nullptr. Use `countMessageAnnotations` to detect repeats.
const clang::AnnotateAttr* ownMessageAnnotation(const clang::Decl& decl);
unsigned countMessageAnnotations(const clang::Decl& decl);

/// True if the declaration or any redeclaration carries [[ringkernel::message]].
bool isMessageRecord(const clang::Decl& decl);

}  // namespace ringkernel::gen
