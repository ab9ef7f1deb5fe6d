// Copyright RingKernel authors.
#include "special_members.h"

#include "clang/AST/DeclCXX.h"

namespace ringkernel::gen {
namespace {

/// How messages are copied, which a deleted copy blocks.
constexpr const char* kCopies = "; KernelMessage::create, the queues and the codecs copy messages by "
                                "construction and by assignment";
/// Why a deleted or hidden special member blocks generated code.
constexpr const char* kUses = "; generated code and the runtime (KernelMessage::create, the queues, the "
                              "codecs) create, copy and destroy messages from outside the class";

/// The user-provided member that makes `record` not trivially copyable (destructor, copy or move
/// constructor or assignment), with what it is in `what`; null when there is none.
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

/// Why `record` has no usable default constructor: its deleted default constructor, or the first
/// user-declared constructor when that suppresses the implicit one; null when it has one.
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

/// The written default constructor of `record` for which `test` holds, or null.
template <class Test>
const clang::CXXConstructorDecl* defaultConstructorWhere(const clang::CXXRecordDecl& record, Test test) {
  for (const clang::CXXConstructorDecl* ctor : record.ctors()) {
    if (!ctor->isImplicit() && ctor->isDefaultConstructor() && test(*ctor)) return ctor;
  }
  return nullptr;
}

/// The name of a special member ("copy assignment operator") and what its deletion or hiding stops
/// ("copied"); false for other members.
bool specialMemberKind(const clang::CXXMethodDecl& method, std::string& kind, std::string& stops) {
  stops = "copied";
  if (llvm::isa<clang::CXXDestructorDecl>(method)) {
    kind = "destructor";
    stops = "destroyed";
  } else if (const auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(&method)) {
    if (ctor->isDefaultConstructor()) {
      kind = "default constructor";
      stops = "created";
    } else if (ctor->isCopyConstructor()) {
      kind = "copy constructor";
    } else if (ctor->isMoveConstructor()) {
      kind = "move constructor";
    } else {
      return false;
    }
  } else if (method.isCopyAssignmentOperator()) {
    kind = "copy assignment operator";
  } else if (method.isMoveAssignmentOperator()) {
    kind = "move assignment operator";
  } else {
    return false;
  }
  return true;
}

/// A user-declared destructor, default, copy or move constructor or assignment that is deleted or
/// not public: generated code and the runtime use them from outside the class.
SpecialMemberProblem unusableSpecialMember(const clang::CXXRecordDecl& record) {
  for (const clang::CXXMethodDecl* method : record.methods()) {
    std::string kind;
    std::string stops;
    if (method->isImplicit() || !specialMemberKind(*method, kind, stops)) continue;
    const bool hidden = method->getAccess() == clang::AS_private || method->getAccess() == clang::AS_protected;
    if (!method->isDeleted() && !hidden) continue;
    const std::string state =
        method->isDeleted() ? "deleted" : method->getAccess() == clang::AS_private ? "private" : "protected";
    return {method, " cannot be " + stops + ": its " + kind + " is " + state + kUses,
            method->isDeleted() ? "remove the deleted " + kind + " (the implicit one is trivial)"
                                : "make it public (declare it after 'public:')"};
  }
  return {};
}

/// Copies deleted implicitly by a user-declared move constructor or move assignment operator
/// (MoveOnly(MoveOnly&&) = default): trivially copyable, but not copyable.
SpecialMemberProblem copiesDeletedByMoves(const clang::CXXRecordDecl& record) {
  if (!record.hasUserDeclaredMoveOperation()) return {};
  const bool copyConstructor = !record.hasUserDeclaredCopyConstructor();
  const bool copyAssignment = !record.hasUserDeclaredCopyAssignment();
  if (!copyConstructor && !copyAssignment) return {};
  const clang::Decl* at = &record;
  for (const clang::CXXMethodDecl* method : record.methods()) {
    const auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(method);
    const bool move = (ctor != nullptr && ctor->isMoveConstructor()) || method->isMoveAssignmentOperator();
    if (!method->isImplicit() && move) {
      at = method;
      break;
    }
  }
  const bool both = record.hasUserDeclaredMoveConstructor() && record.hasUserDeclaredMoveAssignment();
  const std::string moves = both ? "a move constructor and a move assignment operator"
                            : record.hasUserDeclaredMoveConstructor() ? "a move constructor"
                                                                      : "a move assignment operator";
  const std::string copies = copyConstructor && copyAssignment ? "copy constructor and copy assignment operator are"
                             : copyConstructor ? "copy constructor is"
                                               : "copy assignment operator is";
  const std::string name = record.getNameAsString();
  std::string declare;
  if (copyConstructor) declare += name + "(const " + name + "&) = default;";
  if (copyConstructor && copyAssignment) declare += " ";
  if (copyAssignment) declare += name + "& operator=(const " + name + "&) = default;";
  return {at, " cannot be copied: it declares " + moves + ", so its " + copies + " implicitly deleted" + kCopies,
          "remove the move operations (the implicit ones copy the bytes), or declare the copies too: " + declare};
}

}  // namespace

SpecialMemberProblem specialMemberProblem(const clang::CXXRecordDecl& record) {
  const std::string name = record.getNameAsString();
  if (!record.isTriviallyCopyable()) {
    std::string what = "a non-trivial copy, move or destructor";
    const clang::CXXMethodDecl* member = nonTrivialSpecialMember(record, what);
    return {member ? static_cast<const clang::Decl*>(member) : &record,
            " is not trivially copyable: it has " + what + "; messages are copied byte for byte",
            "remove it (or declare it = default)"};
  }
  if (const clang::CXXConstructorDecl* blocking = missingDefaultConstructor(record)) {
    return {blocking,
            std::string(" is not default-constructible (") +
                (blocking->isDeleted() ? "its default constructor is deleted"
                                       : "a user-declared constructor suppresses the implicit default one") +
                "); decoders, queues and the registry create messages before they fill them",
            "add a default constructor: " + name + "() = default;"};
  }
  if (const auto* ctor = defaultConstructorWhere(record, [](const auto& c) { return c.isUserProvided(); })) {
    return {ctor,
            " has a user-provided default constructor; .rk.cuh does not copy it (its " + name +
                "{} would differ from the original's) and the codecs value-initialise messages in constant "
                "expressions",
            "remove it and initialise the fields with default member initializers instead (std::int32_t v = 3;), "
            "or declare it " + name + "() = default;"};
  }
  if (const auto* ctor = defaultConstructorWhere(record, [](const auto& c) { return c.isExplicit(); })) {
    return {ctor,
            " has an explicit default constructor: KernelMessage<" + name + "> m{} (in KernelMessage::create) "
                "and the registry's dispatch copy-list-initialise the message from {}, which an explicit "
                "constructor refuses",
            "remove 'explicit': " + name + "() = default;"};
  }
  if (SpecialMemberProblem unusable = unusableSpecialMember(record); unusable.at != nullptr) return unusable;
  return copiesDeletedByMoves(record);
}

}  // namespace ringkernel::gen
