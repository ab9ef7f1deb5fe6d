// Copyright RingKernel authors.
// The validator's rules on names that reach the manifest: no '$' (a compiler extension) in a
// message's qualified name, its fields' names or the names of the enums they use; and a message or
// an enum a field uses has a name of its own (a typedef's or alias's name only is not one).
#include <algorithm>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "names.h"
#include "validator.h"
#include "validator_text.h"

namespace ringkernel::gen {
namespace {

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

/// The typedef or alias as the errors name it.
std::string describeAlias(const clang::TypedefNameDecl& alias) {
  return std::string(llvm::isa<clang::TypeAliasDecl>(alias) ? "alias " : "typedef ") +
         quotedName(alias.getNameAsString());
}

/// Why a typedef's name is not enough: what .rk.cuh writes for the type.
std::string ownNameReason(const std::string& keyword, const clang::TypedefNameDecl& alias) {
  return "; generated code defines and names types by their own name (.rk.cuh would write '" + keyword + " " +
         alias.getNameAsString() + " { ... }', a type other than this one)";
}

/// The fix's remark on the typedef or alias the user wrote.
std::string mayStay(const clang::TypedefNameDecl& alias) {
  return llvm::isa<clang::TypeAliasDecl>(alias) ? " (the alias may stay)" : " (the typedef may stay)";
}

}  // namespace

bool Validator::failUnnamedRecord(const clang::CXXRecordDecl& record) {
  const clang::SourceLocation where = record.getLocation();
  const std::string keyword = record.getKindName().str();
  const clang::TypedefNameDecl* alias = typedefNaming(record);
  if (alias == nullptr) {
    const auto* instance = llvm::dyn_cast_or_null<clang::VarDecl>(record.getNextDeclInContext());
    const bool declares = instance != nullptr && instance->getType()->getAsTagDecl() == &record;
    return fail(where, "anonymous " + keyword + " cannot be a message; it has no name to identify it",
                "give the " + keyword + " a name: " + keyword + " [[ringkernel::message]] Name { ... }" +
                    (declares ? " " + instance->getNameAsString() : std::string()) + ";");
  }
  const std::string name = alias->getNameAsString();
  const std::string message = "message " + quotedName(qualifiedName(*alias)) + " is an unnamed " + keyword +
                              " that only the " + describeAlias(*alias) + " names" + ownNameReason(keyword, *alias);
  const std::string fix =
      "name the " + keyword + " itself: " + keyword + " [[ringkernel::message]] " + name + " { ... };" + mayStay(*alias);
  // The fix-it writes the name before the opening brace (`typedef struct [[ringkernel::message]]
  // Point { ... } Point;`), where the brace is text a fix-it may edit (not a macro's definition).
  const clang::SourceLocation brace =
      fixItLocation(record.getBraceRange().getBegin(), context_.getSourceManager());
  if (brace.isValid()) {
    diagnoser_.error(where, message, fix, clang::FixItHint::CreateInsertion(brace, name + " "));
  } else {
    fail(where, message, fix);
  }
  diagnoser_.note(alias->getLocation(), "the " + describeAlias(*alias) + " is declared here");
  return false;
}

bool Validator::failUnnamedEnum(const clang::FieldDecl& field, const clang::EnumDecl& enumeration,
                                const std::string& subject) {
  const clang::SourceLocation where = field.getLocation();
  const clang::SourceRange declaration = field.DeclaratorDecl::getSourceRange();
  const clang::TypedefNameDecl* alias = typedefNaming(enumeration);
  if (alias == nullptr) {
    return fail(where, declaration, subject + " uses an unnamed enum, which generated code cannot name",
                "give the enum a name");
  }
  const std::string name = alias->getNameAsString();
  fail(where, declaration,
       subject + " uses enum " + quotedName(qualifiedName(*alias)) + ", an unnamed enum that only the " +
           describeAlias(*alias) + " names" + ownNameReason("enum", *alias),
       "name the enum itself: enum " + name + " { ... };" + mayStay(*alias));
  // typedef enum Color { ... } Color; (the brace is text a fix-it may edit, not a macro's definition)
  const clang::SourceLocation brace = fixItLocation(enumeration.getBraceRange().getBegin(), context_.getSourceManager());
  if (brace.isValid() && declarationEditsOffered_.insert(brace).second) {
    diagnoser_.note(brace, "the enum is declared here", clang::FixItHint::CreateInsertion(brace, name + " "));
  }
  diagnoser_.note(alias->getLocation(), "the " + describeAlias(*alias) + " is declared here");
  return false;
}

bool Validator::failDollar(const clang::NamedDecl& named, const std::string& message) {
  if (!dollarsReported_.insert(&named).second) return false;
  const clang::SourceLocation where = named.getLocation();
  return fail(where, clang::SourceRange(where), message + kDollarReason,
              "rename " + quotedName(named.getNameAsString()) + " without '$', e.g. " +
                  quotedName(withoutDollar(named.getNameAsString())));
}

bool Validator::checkDollars(const clang::CXXRecordDecl& record, const std::string& subject) {
  bool ok = true;
  for (const clang::NamedDecl* scope : enclosingScopes(record)) {
    if (scope->getName().contains('$')) {
      ok = failDollar(*scope, subject + " is declared in " + scopeKind(*scope) + " " +
                                  quotedName(scope->getNameAsString()) + ", whose name has a '$'");
    }
  }
  if (record.getName().contains('$')) ok = failDollar(record, subject + " has a '$' in its name");
  return ok;
}

bool Validator::checkEnumNames(const clang::EnumDecl& definition) {
  const std::string enumName = quotedName(qualifiedName(definition));
  bool ok = true;
  for (const clang::NamedDecl* scope : enclosingScopes(definition)) {
    if (scope->getName().contains('$') && llvm::isa<clang::NamespaceDecl>(scope)) {
      ok = failDollar(*scope, "enum " + enumName + " is declared in namespace " +
                                  quotedName(scope->getNameAsString()) + ", whose name has a '$'");
    }
  }
  if (definition.getName().contains('$')) ok = failDollar(definition, "enum " + enumName + " has a '$' in its name");
  for (const clang::EnumConstantDecl* enumerator : definition.enumerators()) {
    if (enumerator->getName().contains('$')) {
      ok = failDollar(*enumerator, "enumerator " + quotedName(enumerator->getNameAsString()) + " of enum " +
                                       enumName + " has a '$' in its name");
    }
  }
  return ok;
}

}  // namespace ringkernel::gen
