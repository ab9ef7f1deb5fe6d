// Copyright RingKernel authors.
#include "annotated_records.h"

#include "attribute_registration.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace ringkernel::gen {
namespace {

/// Where the attribute sits: the `ringkernel` token of [[ringkernel::message]].
clang::SourceLocation attributeLoc(const clang::AnnotateAttr& attr) { return attr.getLocation(); }

/// A default member initializer whose value cannot depend on anything declared after it.
bool isLiteralInitializer(const clang::Expr* init) {
  init = init->IgnoreParenImpCasts();
  if (llvm::isa<clang::IntegerLiteral, clang::FloatingLiteral, clang::CXXBoolLiteralExpr,
                clang::CharacterLiteral>(init)) {
    return true;
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(init)) {
    return isLiteralInitializer(unary->getSubExpr());
  }
  if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(init)) {
    return isLiteralInitializer(cast->getSubExpr());
  }
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(init)) {
    return list->getNumInits() == 0 || (list->getNumInits() == 1 && isLiteralInitializer(list->getInit(0)));
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(init)) {
    return llvm::isa<clang::EnumConstantDecl>(ref->getDecl());
  }
  return false;
}

}  // namespace

void collectAnnotatedRecords(const clang::Decl* decl, const clang::SourceManager& sm,
                             std::vector<const clang::CXXRecordDecl*>& records) {
  if (const auto* pattern = llvm::dyn_cast<clang::ClassTemplateDecl>(decl)) {
    decl = pattern->getTemplatedDecl();
  }
  if (!llvm::isa<clang::DeclContext>(decl)) return;  // neither a record nor holding one (fields, ...)
  if (!llvm::isa<clang::NamespaceDecl>(decl) && !llvm::isa<clang::LinkageSpecDecl>(decl) &&
      !sm.isInMainFile(sm.getExpansionLoc(decl->getLocation()))) {
    return;
  }
  if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl)) {
    if (record->getTemplateSpecializationKind() == clang::TSK_ImplicitInstantiation) return;
    if (ownMessageAnnotation(*record) != nullptr) records.push_back(record);
  }
  if (const auto* inner = llvm::dyn_cast<clang::DeclContext>(decl)) {
    for (const clang::Decl* member : inner->decls()) collectAnnotatedRecords(member, sm, records);
  }
}

std::vector<const clang::CXXRecordDecl*> selectRoots(const std::vector<const clang::CXXRecordDecl*>& annotated,
                                                     Diagnoser& diagnoser) {
  std::vector<const clang::CXXRecordDecl*> roots;
  for (const clang::CXXRecordDecl* record : annotated) {
    const auto name = [record] { return "'" + record->getNameAsString() + "'"; };  // errors only
    const auto annotations = ownMessageAnnotations(*record);
    if (annotations.size() > 1) {
      diagnoser.error(attributeLoc(*annotations[1]),
                      "[[ringkernel::message]] is given more than once on " + name(),
                      "keep one attribute and put all options in it");
      continue;
    }
    if (!record->isThisDeclarationADefinition()) {
      diagnoser.error(attributeLoc(*annotations.front()),
                      "[[ringkernel::message]] is on a declaration of " + name() +
                          " that is not its definition",
                      "put the attribute on the definition: struct [[ringkernel::message]] " +
                          record->getNameAsString() + " { ... };");
      continue;
    }
    roots.push_back(record);
  }
  return roots;
}

bool completeNow(const std::vector<const clang::CXXRecordDecl*>& records, const clang::ASTContext& context) {
  for (const clang::CXXRecordDecl* record : records) {
    // `typedef struct [[ringkernel::message]] { ... } Point;`: clang names the unnamed struct
    // after its closing brace, so the validator would not see the typedef yet.
    if (record->getIdentifier() == nullptr && record->getTypedefNameForAnonDecl() == nullptr) return false;
    if (!record->isThisDeclarationADefinition()) continue;
    for (const clang::FieldDecl* field : record->fields()) {
      const clang::QualType element = context.getBaseElementType(field->getType());
      if (const auto* enumType = element->getAs<clang::EnumType>();
          enumType != nullptr && enumType->getDecl()->getDefinition() == nullptr) {
        return false;
      }
      if (field->hasInClassInitializer() &&
          (field->getInClassInitializer() == nullptr ||
           !isLiteralInitializer(field->getInClassInitializer()))) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace ringkernel::gen
