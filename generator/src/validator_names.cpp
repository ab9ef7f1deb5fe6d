// Copyright RingKernel authors.
// The validator's rule on names that reach the manifest: no '$' (a compiler extension) in a
// message's qualified name, its fields' names or the names of the enums they use.
#include <algorithm>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "names.h"
#include "validator.h"

namespace ringkernel::gen {
namespace {

std::string quoted(const std::string& text) { return "'" + text + "'"; }

/// Why a '$' in a name is refused: clang takes it in identifiers (as g++ does), but the manifest's
/// names and the type-id rule are those of standard C++ identifiers.
constexpr const char* kDollarReason =
    "; '$' in identifiers is a compiler extension, which the manifest (.rk.json), the registry step and "
    "readers in other languages do not take";

/// `name` with every '$' written as '_', for the fix.
std::string withoutDollar(std::string name) {
  std::replace(name.begin(), name.end(), '$', '_');
  return name;
}

/// The namespaces and classes around `decl`, outermost first.
std::vector<const clang::NamedDecl*> enclosingScopes(const clang::Decl& decl) {
  std::vector<const clang::NamedDecl*> scopes;
  for (const clang::DeclContext* context = decl.getDeclContext(); context != nullptr;
       context = context->getParent()) {
    if (const auto* named = llvm::dyn_cast<clang::NamedDecl>(context)) scopes.push_back(named);
  }
  std::reverse(scopes.begin(), scopes.end());
  return scopes;
}

const char* scopeKind(const clang::NamedDecl& scope) {
  return llvm::isa<clang::NamespaceDecl>(scope) ? "namespace" : "class";
}

}  // namespace

bool Validator::failDollar(const clang::NamedDecl& named, const std::string& message) {
  if (!dollarsReported_.insert(&named).second) return false;
  const clang::SourceLocation where = named.getLocation();
  return fail(where, clang::SourceRange(where), message + kDollarReason,
              "rename " + quoted(named.getNameAsString()) + " without '$', e.g. " +
                  quoted(withoutDollar(named.getNameAsString())));
}

bool Validator::checkDollars(const clang::CXXRecordDecl& record, const std::string& subject) {
  bool ok = true;
  for (const clang::NamedDecl* scope : enclosingScopes(record)) {
    if (scope->getName().contains('$')) {
      ok = failDollar(*scope, subject + " is declared in " + scopeKind(*scope) + " " +
                                  quoted(scope->getNameAsString()) + ", whose name has a '$'");
    }
  }
  if (record.getName().contains('$')) ok = failDollar(record, subject + " has a '$' in its name");
  return ok;
}

bool Validator::checkEnumNames(const clang::EnumDecl& definition) {
  const std::string enumName = quoted(qualifiedName(definition));
  bool ok = true;
  for (const clang::NamedDecl* scope : enclosingScopes(definition)) {
    if (scope->getName().contains('$') && llvm::isa<clang::NamespaceDecl>(scope)) {
      ok = failDollar(*scope, "enum " + enumName + " is declared in namespace " +
                                  quoted(scope->getNameAsString()) + ", whose name has a '$'");
    }
  }
  if (definition.getName().contains('$')) ok = failDollar(definition, "enum " + enumName + " has a '$' in its name");
  for (const clang::EnumConstantDecl* enumerator : definition.enumerators()) {
    if (enumerator->getName().contains('$')) {
      ok = failDollar(*enumerator, "enumerator " + quoted(enumerator->getNameAsString()) + " of enum " +
                                       enumName + " has a '$' in its name");
    }
  }
  return ok;
}

}  // namespace ringkernel::gen
