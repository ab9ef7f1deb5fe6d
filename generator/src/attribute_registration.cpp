// Copyright RingKernel authors.
#include "attribute_registration.h"

#include <algorithm>

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

namespace ringkernel::gen {
namespace {

bool isOurs(const clang::AnnotateAttr* attr) {
  return attr != nullptr && attr->getAnnotation() == kMessageAnnotation;
}

/// What the attribute was placed on, for the misplacement error.
const char* describe(const clang::Decl& decl) {
  if (llvm::isa<clang::FunctionDecl>(decl) || llvm::isa<clang::FunctionTemplateDecl>(decl)) {
    return "a function";
  }
  if (llvm::isa<clang::FieldDecl>(decl)) return "a field";
  if (llvm::isa<clang::ParmVarDecl>(decl)) return "a parameter";
  if (llvm::isa<clang::VarDecl>(decl)) return "a variable";
  if (llvm::isa<clang::EnumDecl>(decl)) return "an enum";
  if (llvm::isa<clang::TypedefNameDecl>(decl)) return "a type alias";
  if (llvm::isa<clang::NamespaceDecl>(decl)) return "a namespace";
  if (const auto* record = llvm::dyn_cast<clang::RecordDecl>(&decl); record && record->isUnion()) {
    return "a union";
  }
  return "this declaration";
}

class MessageAttrInfo : public clang::ParsedAttrInfo {
 public:
  MessageAttrInfo() {
    static constexpr Spelling spellings[] = {{clang::ParsedAttr::AS_CXX11, "ringkernel::message"}};
    Spellings = spellings;
  }

  bool diagAppertainsToDecl(clang::Sema& sema, const clang::ParsedAttr& attr,
                            const clang::Decl* decl) const override {
    const auto* record = llvm::dyn_cast<clang::RecordDecl>(decl);
    clang::DiagnosticsEngine& diags = sema.getDiagnostics();
    if (record != nullptr && !record->isUnion()) {
      // After the definition clang drops the attribute (a warning only): the struct would silently
      // not be a message.
      const clang::RecordDecl* definition = record->getDefinition();
      if (definition == nullptr || definition == record || record->isThisDeclarationADefinition()) {
        return true;
      }
      const unsigned error = diags.getCustomDiagID(
          clang::DiagnosticsEngine::Error,
          "[[ringkernel::message]] on a declaration of %0 after its definition has no effect");
      const unsigned fix = diags.getCustomDiagID(
          clang::DiagnosticsEngine::Note,
          "fix: put the attribute on the definition: struct [[ringkernel::message]] %0 { ... };");
      diags.Report(attr.getLoc(), error) << record;
      diags.Report(attr.getLoc(), fix) << record->getName();
      return false;
    }
    const unsigned error = diags.getCustomDiagID(
        clang::DiagnosticsEngine::Error,
        "[[ringkernel::message]] cannot be applied to %0; it marks struct or class definitions");
    const unsigned fix = diags.getCustomDiagID(
        clang::DiagnosticsEngine::Note,
        "fix: write it between 'struct' and the name of a struct definition: "
        "struct [[ringkernel::message]] Name { ... };");
    diags.Report(attr.getLoc(), error) << describe(*decl);
    diags.Report(attr.getLoc(), fix);
    return false;
  }

  AttrHandling handleDeclAttribute(clang::Sema& sema, clang::Decl* decl,
                                   const clang::ParsedAttr& attr) const override {
    decl->addAttr(clang::AnnotateAttr::Create(sema.Context, kMessageAnnotation, nullptr, 0,
                                              attr.getRange()));
    return AttributeApplied;
  }
};

}  // namespace

void registerMessageAttribute() {
  static clang::ParsedAttrInfoRegistry::Add<MessageAttrInfo> registration(
      "ringkernel-message", "[[ringkernel::message]] on struct and class definitions");
  (void)registration;
}

std::vector<const clang::AnnotateAttr*> ownMessageAnnotations(const clang::Decl& decl) {
  std::vector<const clang::AnnotateAttr*> result;
  for (const auto* attr : decl.specific_attrs<clang::AnnotateAttr>()) {
    if (isOurs(attr) && !attr->isInherited()) result.push_back(attr);
  }
  std::sort(result.begin(), result.end(), [](const auto* a, const auto* b) {
    return a->getLocation().getRawEncoding() < b->getLocation().getRawEncoding();
  });
  return result;
}

const clang::AnnotateAttr* ownMessageAnnotation(const clang::Decl& decl) {
  const auto annotations = ownMessageAnnotations(decl);
  return annotations.empty() ? nullptr : annotations.front();
}

bool isMessageRecord(const clang::Decl& decl) {
  for (const clang::Decl* redecl : decl.redecls()) {
    for (const auto* attr : redecl->specific_attrs<clang::AnnotateAttr>()) {
      if (isOurs(attr)) return true;
    }
  }
  return false;
}

}  // namespace ringkernel::gen
