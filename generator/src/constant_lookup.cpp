// Copyright RingKernel authors.
#include "constant_lookup.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"

namespace ringkernel::gen {
namespace {

/// Runs clang's lookups for one attribute: declarations after `point` do not count.
class Lookup {
 public:
  Lookup(clang::Sema& sema, clang::SourceLocation point) : sema_(sema), point_(point) {}

  /// Qualified lookup of `name` in `context` (its inline namespaces and using-directives included,
  /// as clang does it), without the declarations after the attribute: the model may be built while
  /// clang parses (frontend.cpp) or after, and either way sees what C++ sees at the attribute.
  bool lookIn(const clang::DeclContext* context, const std::string& name,
              clang::Sema::LookupNameKind kind, clang::LookupResult& result) {
    result.clear(kind);
    result.setLookupName(&sema_.getASTContext().Idents.get(name));
    result.suppressDiagnostics();
    sema_.LookupQualifiedName(result, const_cast<clang::DeclContext*>(context));
    clang::LookupResult::Filter filter = result.makeFilter();
    while (filter.hasNext()) {
      if (!before(filter.next()->getLocation())) filter.erase();
    }
    filter.done();
    return !result.empty();
  }

  /// Unqualified lookup from `context` outward (namespaces and enclosing classes; linkage
  /// specifications are transparent).
  bool lookOutward(const clang::DeclContext* context, const std::string& name,
                   clang::Sema::LookupNameKind kind, clang::LookupResult& result) {
    for (; context != nullptr; context = context->getParent()) {
      if (!context->isFileContext() && !context->isRecord()) continue;
      if (lookIn(context, name, kind, result)) return true;
    }
    return false;
  }

  bool before(clang::SourceLocation location) const {
    const clang::SourceManager& sm = sema_.getSourceManager();
    return location.isInvalid() || sm.isBeforeInTranslationUnit(sm.getExpansionLoc(location), point_);
  }

  clang::Sema& sema() { return sema_; }

 private:
  clang::Sema& sema_;
  clang::SourceLocation point_;
};

std::string quote(const std::string& text) { return "'" + text + "'"; }

/// "namespace 'a::b'", "enumeration 'MsgId'", "the global namespace".
std::string describeContext(const clang::DeclContext* context) {
  if (context->isTranslationUnit()) return "the global namespace";
  const auto* named = llvm::cast<clang::NamedDecl>(context);
  const char* kind = llvm::isa<clang::NamespaceDecl>(named) ? "namespace "
                     : llvm::isa<clang::EnumDecl>(named)    ? "enumeration "
                                                            : "class ";
  return kind + quote(named->getQualifiedNameAsString());
}

/// What a declaration that is no usable constant is, for the error.
std::string describe(const clang::NamedDecl* declaration) {
  if (llvm::isa<clang::FunctionDecl, clang::FunctionTemplateDecl>(declaration)) return "a function";
  if (llvm::isa<clang::TypeDecl, clang::ClassTemplateDecl, clang::TypeAliasTemplateDecl>(declaration)) {
    return "a type";
  }
  if (llvm::isa<clang::NamespaceDecl, clang::NamespaceAliasDecl>(declaration)) return "a namespace";
  if (llvm::isa<clang::VarTemplateDecl>(declaration)) return "a variable template";
  if (llvm::isa<clang::VarDecl>(declaration)) return "a variable";
  if (llvm::isa<clang::FieldDecl, clang::IndirectFieldDecl>(declaration)) return "a non-static data member";
  return std::string("a declaration of kind '") + declaration->getDeclKindName() + "'";
}

/// The namespace, class or enumeration a qualifier names, or null (also for a class or enumeration
/// defined only after the attribute).
const clang::DeclContext* asContext(const clang::NamedDecl* declaration, const Lookup& lookup) {
  declaration = declaration->getUnderlyingDecl();
  if (const auto* alias = llvm::dyn_cast<clang::NamespaceAliasDecl>(declaration)) {
    return alias->getNamespace();
  }
  if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(declaration)) return ns;
  const clang::TagDecl* tag = llvm::dyn_cast<clang::TagDecl>(declaration);
  if (const auto* typedefName = llvm::dyn_cast<clang::TypedefNameDecl>(declaration)) {
    tag = typedefName->getUnderlyingType()->getAsTagDecl();
  }
  const clang::TagDecl* definition = tag != nullptr ? tag->getDefinition() : nullptr;
  return definition != nullptr && lookup.before(definition->getLocation()) ? definition : nullptr;
}

/// `bad` is about `declaration`, which `spelled` names: a note says where it is declared.
ConstantValue about(ConstantValue bad, const clang::NamedDecl* declaration, const std::string& spelled) {
  bad.declaration = declaration;
  bad.notes.push_back({declaration->getLocation(), "'" + spelled + "' declared here"});
  return bad;
}

ConstantValue failure(std::string problem, std::string fix) {
  ConstantValue result;
  result.problem = std::move(problem);
  result.fix = std::move(fix);
  return result;
}

/// `declaration` was found for `spelled`: its value if it is an enumerator or an integral
/// constant that clang can evaluate.
ConstantValue evaluate(const clang::NamedDecl* declaration, const std::string& spelled, Lookup& lookup) {
  const std::string name = quote(spelled);
  ConstantValue result;
  result.declaration = declaration;
  if (const auto* enumerator = llvm::dyn_cast<clang::EnumConstantDecl>(declaration)) {
    result.found = true;
    result.value = enumerator->getInitVal();
    return result;
  }
  const auto* variable = llvm::dyn_cast<clang::VarDecl>(declaration);
  if (variable == nullptr) {
    ConstantValue bad = failure(name + " is " + describe(declaration) +
                                    ", not an enumerator or a constant",
                                "name an enumerator or a constexpr variable of integral type");
    return about(std::move(bad), declaration, spelled);
  }
  const clang::QualType type = variable->getType();
  const bool constant = variable->isConstexpr() || type.isConstQualified();
  const std::string typeName = quote(type.getAsString(lookup.sema().getASTContext().getPrintingPolicy()));
  ConstantValue bad;
  if (!type->isIntegralOrEnumerationType()) {
    bad = failure(name + " is a " + (constant ? "constant" : "variable") + " of type " + typeName +
                      ", not of integral or enumeration type",
                  "name a constant of integral or enumeration type");
  } else if (!constant) {
    bad = failure(name + " is a variable that is neither constexpr nor const, so its value is not "
                         "a constant",
                  "declare it constexpr (constexpr " + typeName.substr(1, typeName.size() - 2) + " " +
                      variable->getNameAsString() + " = ...;)");
  } else {
    const clang::VarDecl* definition = nullptr;
    const clang::Expr* initializer = variable->getAnyInitializer(definition);
    const clang::APValue* value = nullptr;
    if (initializer != nullptr && lookup.before(definition->getLocation()) &&
        definition->isUsableInConstantExpressions(lookup.sema().getASTContext())) {
      value = definition->evaluateValue();
    }
    if (value != nullptr && value->isInt()) {
      result.found = true;
      result.value = value->getInt();
      return result;
    }
    bad = failure(initializer == nullptr || !lookup.before(definition->getLocation())
                      ? name + " is const but has no initializer before the struct"
                      : name + " is const but its initializer is not a constant expression",
                  "initialize it with a constant expression (constexpr)");
  }
  return about(std::move(bad), declaration, spelled);
}

ConstantValue notFound(const ConstantName& name, std::size_t part, const clang::DeclContext* context) {
  const bool last = part + 1 == name.parts.size();
  const std::string what = last ? "enumerator or constant" : "namespace, class or enumeration";
  const std::string where = context == nullptr ? "" : " in " + describeContext(context);
  ConstantValue result = failure("no " + what + " named " + quote(name.parts[part]) + " is declared" +
                                     where + " before the struct",
                                 "check the spelling, or declare it (include the header that declares "
                                 "it) before the struct");
  result.missing = true;
  return result;
}

}  // namespace

std::string ConstantName::spelled() const {
  std::string text = global ? "::" : "";
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : "::") + parts[i];
  return text;
}

ConstantValue evaluateNamedConstant(const ConstantName& name, const ConstantScope& scope,
                                    clang::SourceLocation point) {
  if (scope.sema == nullptr || name.parts.empty()) {
    return failure(quote(name.spelled()) + " cannot be looked up here", "write the value as a literal");
  }
  Lookup lookup(*scope.sema, point);
  clang::LookupResult result(*scope.sema, clang::DeclarationName(), point,
                             clang::Sema::LookupOrdinaryName);
  result.suppressDiagnostics();
  const clang::DeclContext* context =
      name.global ? scope.sema->getASTContext().getTranslationUnitDecl() : nullptr;
  for (std::size_t part = 0; part < name.parts.size(); ++part) {
    const bool last = part + 1 == name.parts.size();
    const clang::Sema::LookupNameKind kind =
        last ? clang::Sema::LookupOrdinaryName : clang::Sema::LookupNestedNameSpecifierName;
    const bool found = context == nullptr ? lookup.lookOutward(scope.context, name.parts[part], kind, result)
                                          : lookup.lookIn(context, name.parts[part], kind, result);
    if (!found) return notFound(name, part, context);
    std::string spelled = name.spelled();
    if (!last) {
      ConstantName prefix{name.global, {name.parts.begin(), name.parts.begin() + static_cast<std::ptrdiff_t>(part) + 1}};
      spelled = prefix.spelled();
    }
    if (result.isAmbiguous()) {
      ConstantValue ambiguous = failure(quote(spelled) + " is ambiguous",
                                        "qualify the name (ns::" + name.parts[part] + ")");
      for (const clang::NamedDecl* candidate : result) {
        ambiguous.notes.push_back({candidate->getUnderlyingDecl()->getLocation(),
                                   "candidate: " + quote(candidate->getUnderlyingDecl()->getQualifiedNameAsString())});
      }
      return ambiguous;
    }
    if (result.isOverloadedResult()) {
      return failure(quote(spelled) + " is a function, not an enumerator or a constant",
                     "name an enumerator or a constexpr variable of integral type");
    }
    const clang::NamedDecl* declaration = result.getFoundDecl();
    if (last) return evaluate(declaration, spelled, lookup);
    context = asContext(declaration, lookup);
    if (context == nullptr) {
      ConstantValue bad = failure(quote(spelled) + " is " + describe(declaration) +
                                      ", not a namespace, class or enumeration that is defined before "
                                      "the struct",
                                  "qualify the name with a namespace or an enumeration");
      return about(std::move(bad), declaration, spelled);
    }
  }
  return failure(quote(name.spelled()) + " cannot be looked up", "write the value as a literal");  // not reached
}

}  // namespace ringkernel::gen
