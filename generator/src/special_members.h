// Copyright RingKernel authors.
// The constructors, destructor and assignment operators of a message record that the validator
// rejects (DESIGN.md §4): messages are copied byte for byte and value-initialised (T{}) alike by
// the original header, .rk.cuh (which copies no member functions) and the codecs, and generated code
// and the runtime create, copy (by construction and assignment) and destroy them outside the class.
#pragma once

#include <string>

namespace clang {
class CXXRecordDecl;
class Decl;
}  // namespace clang

namespace ringkernel::gen {

/// Why generated code cannot create, copy or destroy a message: the declaration to point at (the
/// member, else the record), the reason (it follows "message 'T'") and the fix. `at` is null when
/// there is nothing to report.
struct SpecialMemberProblem {
  const clang::Decl* at = nullptr;
  std::string reason;
  std::string fix;
};

/// The first of: not trivially copyable (a user-provided destructor, copy or move); no usable default
/// constructor (deleted, or suppressed by a user-declared constructor); a user-provided default
/// constructor (`T() : v(3) {}`, or one defaulted only outside the class: T{} then runs code that
/// .rk.cuh does not copy and constant expressions cannot run); an explicit default constructor
/// (`KernelMessage<T> m{}` copy-list-initialises T from {}); a user-declared special member that is
/// deleted or not public; copies implicitly deleted by a user-declared move constructor or move
/// assignment operator (`create` assigns the payload).
SpecialMemberProblem specialMemberProblem(const clang::CXXRecordDecl& record);

}  // namespace ringkernel::gen
