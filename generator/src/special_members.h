// Copyright RingKernel authors.
// The constructors, destructor and assignment operators of a message record that the validator
// rejects (DESIGN.md §4): messages are copied byte for byte and value-initialised (T{}) alike by
// the original header, .rk.cuh (which copies no member functions) and the codecs.
#pragma once

#include <string>

namespace clang {
class CXXConstructorDecl;
class CXXMethodDecl;
class CXXRecordDecl;
}  // namespace clang

namespace ringkernel::gen {

/// The user-provided member that makes `record` not trivially copyable (destructor, copy or move
/// constructor or assignment), with what it is in `what`; null when there is none.
const clang::CXXMethodDecl* nonTrivialSpecialMember(const clang::CXXRecordDecl& record, std::string& what);

/// Why `record` has no usable default constructor: its deleted default constructor, or the first
/// user-declared constructor when that suppresses the implicit one; null when it has one.
const clang::CXXConstructorDecl* missingDefaultConstructor(const clang::CXXRecordDecl& record);

/// A user-provided default constructor (`T() : v(3) {}`, or one defaulted only outside the class):
/// T{} then runs code that .rk.cuh does not copy and constant expressions cannot run. Null when the
/// default constructor is implicit or `= default` in the class.
const clang::CXXConstructorDecl* userProvidedDefaultConstructor(const clang::CXXRecordDecl& record);

}  // namespace ringkernel::gen
