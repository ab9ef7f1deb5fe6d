// Copyright RingKernel authors.
#include "special_members.h"

#include "clang/AST/DeclCXX.h"

namespace ringkernel::gen {

const clang::CXXMethodDecl* nonTrivialSpecialMember(const clang::CXXRecordDecl& record, std::string& what) {
  for (const clang::CXXMethodDecl* method : record.methods()) {
    if (!method->isUserProvided()) continue;
    if (llvm::isa<clang::CXXDestructorDecl>(method)) what = "a user-provided destructor";
    else if (const auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(method);
             ctor && ctor->isCopyOrMoveConstructor()) what = "a user-provided copy or move constructor";
    else if (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator())
      what = "a user-provided copy or move assignment operator";
    else continue;
    return method;
  }
  return nullptr;
}

const clang::CXXConstructorDecl* missingDefaultConstructor(const clang::CXXRecordDecl& record) {
  const clang::CXXConstructorDecl* first = nullptr;
  for (const clang::CXXConstructorDecl* ctor : record.ctors()) {
    if (ctor->isImplicit()) continue;
    if (ctor->isDefaultConstructor()) return ctor->isDeleted() ? ctor : nullptr;
    if (first == nullptr && !ctor->isCopyOrMoveConstructor()) first = ctor;
  }
  if (record.hasDefaultConstructor()) return nullptr;
  if (first != nullptr) return first;
  for (const clang::CXXConstructorDecl* ctor : record.ctors()) {
    if (!ctor->isImplicit()) return ctor;  // only copy or move constructors were declared
  }
  return nullptr;
}

const clang::CXXConstructorDecl* userProvidedDefaultConstructor(const clang::CXXRecordDecl& record) {
  for (const clang::CXXConstructorDecl* ctor : record.ctors()) {
    if (ctor->isDefaultConstructor() && ctor->isUserProvided()) return ctor;
  }
  return nullptr;
}

}  // namespace ringkernel::gen
