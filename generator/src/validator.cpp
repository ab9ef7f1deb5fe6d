// Copyright RingKernel authors.
// g++ 12 reports a false "'this' pointer is null" (-Wnonnull) inside clang's LazyOffsetPtr when
// CXXRecordDecl::bases() is inlined; the pragma must precede the clang headers to take effect.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wnonnull"
#endif
#include "validator.h"

#include <map>

#include "attribute_registration.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "cpp_literal.h"
#include "llvm/Support/Format.h"
#include "names.h"
#include "special_members.h"
#include "validator_text.h"

namespace ringkernel::gen {
namespace {

std::string hex(std::uint32_t value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex(value, 10);
  return text;
}

/// "private" or "protected" for a class member declared so (generated code names messages and enums
/// from outside the classes around them); null for a public member or one at namespace scope.
const char* hiddenAccess(const clang::Decl& decl) {
  switch (decl.getAccess()) {
    case clang::AS_private: return "private";
    case clang::AS_protected: return "protected";
    default: return nullptr;
  }
}

/// `{}` (value-initialisation), written as an empty braced list or `= {}`.
bool isEmptyBraces(const clang::Expr& init) {
  const clang::Expr* expr = init.IgnoreImplicit();
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(expr)) {
    const clang::InitListExpr* written = list->isSemanticForm() && list->getSyntacticForm()
                                             ? list->getSyntacticForm()
                                             : list;
    return written->getNumInits() == 0;
  }
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(expr)) {
    return construct->isListInitialization() && construct->getNumArgs() == 0;
  }
  return false;
}

}  // namespace

bool Validator::hasConcreteLayout(const clang::CXXRecordDecl& record) {
  return !record.isInvalidDecl() && !record.isUnion() && !record.isDependentContext() &&
         record.getDescribedClassTemplate() == nullptr &&
         !llvm::isa<clang::ClassTemplatePartialSpecializationDecl>(record);
}

Validator::Validator(const clang::ASTContext& context, Diagnoser& diagnoser)
    : context_(context), diagnoser_(diagnoser) {}

bool Validator::fail(clang::SourceLocation where, const std::string& message,
                     const std::string& fix) {
  diagnoser_.error(where, message, fix);
  return false;
}

bool Validator::fail(clang::SourceLocation where, clang::SourceRange highlighted,
                     const std::string& message, const std::string& fix) {
  diagnoser_.error(where, highlighted, message, fix);
  return false;
}

bool Validator::checkRecord(const clang::CXXRecordDecl& record, const std::string& message) {
  const clang::SourceLocation where = record.getLocation();
  const std::string subject = "message " + quotedName(message);
  if (record.isUnion()) {
    return fail(where, subject + " is a union; a union's active member cannot be known",
                "use a struct");
  }
  if (record.getDescribedClassTemplate() != nullptr ||
      llvm::isa<clang::ClassTemplateSpecializationDecl>(record)) {
    return fail(where, subject + " is a class template or a specialisation of one; the generator "
                                 "needs one fixed layout per message",
                "declare a non-template struct per message, e.g. struct [[ringkernel::message]] "
                "FloatSample { float value; };");
  }
  if (record.isDependentContext()) {
    return fail(where, subject + " is declared inside a class template",
                "move it out of the template to namespace scope");
  }
  if (record.getParentFunctionOrMethod() != nullptr) {
    return fail(where, subject + " is a local struct declared inside a function",
                "move it to namespace scope in a header");
  }
  if (record.getIdentifier() == nullptr) return failUnnamedRecord(record);
  if (record.isInAnonymousNamespace()) {
    return fail(where, subject + " is declared in an anonymous namespace, so its qualified name "
                                 "is not stable",
                "move it to a named namespace");
  }
  if (const auto* parent = llvm::dyn_cast<clang::CXXRecordDecl>(record.getDeclContext());
      parent != nullptr && !isMessageRecord(*parent)) {
    return fail(where, subject + " is nested in " + quotedName(qualifiedName(*parent)) +
                           ", which is not a [[ringkernel::message]]",
                "move it to namespace scope or annotate " + quotedName(parent->getNameAsString()));
  }
  bool ok = true;
  if (const char* access = hiddenAccess(record)) {
    const auto* parent = llvm::cast<clang::CXXRecordDecl>(record.getDeclContext());
    ok = fail(where, subject + " is " + access + " in " + quotedName(qualifiedName(*parent)) +
                         "; generated code (.rk.h, the registry) names it from outside the class",
              "declare it after 'public:' in " + quotedName(parent->getNameAsString()));
  }
  for (const clang::CXXBaseSpecifier& base : record.bases()) {
    const std::string baseName = base.getType().getAsString(context_.getPrintingPolicy());
    ok = fail(base.getBeginLoc(), subject + " derives " + (base.isVirtual() ? "virtually " : "") +
                                      "from " + quotedName(baseName) +
                                      "; messages cannot have base classes",
              "make " + quotedName(baseName) + " a member instead (and annotate it with "
              "[[ringkernel::message]])");
  }
  for (const clang::CXXMethodDecl* method : record.methods()) {
    if (method->isVirtual() && !method->isImplicit()) {
      ok = fail(method->getLocation(), subject + " has virtual function " +
                                           quotedName(method->getNameAsString()) +
                                           "; a vtable pointer cannot cross devices",
                "remove 'virtual' (messages are plain data)");
    }
  }
  if (record.hasAttr<clang::PackedAttr>()) {
    ok = fail(where, subject + " is __attribute__((packed)); packed fields are misaligned on "
                               "the GPU",
              "remove the packed attribute; reorder fields or add explicit padding fields");
  }
  return checkDollars(record, subject) && ok;
}

bool Validator::checkField(const clang::FieldDecl& field, const FieldType& type,
                           const std::string& message) {
  const clang::SourceLocation where = field.getLocation();
  if (field.isAnonymousStructOrUnion()) {
    const bool isUnion = field.getType()->isUnionType();
    return fail(where, std::string("message ") + quotedName(message) + " has an anonymous " +
                           (isUnion ? "union" : "struct") + " member",
                isUnion ? "replace the union by separate fields or a byte array"
                        : "name the struct, annotate it with [[ringkernel::message]] and use it "
                          "as a named field");
  }
  // The subject of a message is built only on the way to an error (this runs for every field).
  const auto subject = [&] { return fieldPrefix(field, message); };
  if (field.isUnnamedBitField()) {
    return fail(where, field.getBitWidth()->getSourceRange(),
                "message " + quotedName(message) +
                    " has an unnamed bit-field; bit-field layout, and so the padding it adds, is "
                    "implementation-defined",
                "remove it; where the padding it adds matters, declare a named padding field (e.g. "
                "std::uint8_t padding[3]) or alignas(N) on the next field");
  }
  if (field.isBitField()) {
    return fail(where, field.getBitWidth()->getSourceRange(),
                subject() + " is a bit-field; bit-field layout is implementation-defined",
                "use a whole integer field (e.g. std::uint8_t flags) and mask the bits in code");
  }
  if (field.getName().contains('$')) {
    return failDollar(field, subject() + " has a '$' in its name (the manifest's field name and, with "
                                         "format = map, its key on the wire)");
  }
  if (field.getAccess() != clang::AS_public) {
    return fail(where, subject() + " is " +
                           (field.getAccess() == clang::AS_private ? "private" : "protected") +
                           "; message fields must be public",
                "make it public (declare it after 'public:' or use 'struct')");
  }
  // The type and declarator as written, without a bit-field's width or an initializer.
  const clang::SourceRange declaration = field.DeclaratorDecl::getSourceRange();
  if (const auto* shared = field.getAttr<clang::NoUniqueAddressAttr>()) {
    return fail(shared->getLocation(), shared->getRange(),
                subject() + " is [[no_unique_address]]: it may share its bytes with other fields or "
                            "the tail padding, which the layout of .rk.cuh and the codecs cannot reproduce",
                "remove [[no_unique_address]]");
  }
  if (!type.ok()) {
    fail(where, declaration, subject() + " " + type.rejection, type.fixFor(field.getName()));
    const clang::SourceLocation edit = fixItLocation(type.declarationEdit, context_.getSourceManager());
    if (edit.isValid() && declarationEditsOffered_.insert(edit).second) {
      diagnoser_.note(edit, type.declarationNote, clang::FixItHint::CreateInsertion(edit, type.declarationInsertion));
    }
    return false;
  }
  if (type.extents.size() > kMaxArrayRank) {
    return fail(where, declaration,
                subject() + " is an array of " + std::to_string(type.extents.size()) +
                    " dimensions; generated field descriptors hold at most " + std::to_string(kMaxArrayRank),
                "merge dimensions, e.g. values[4][4] -> values[16]");
  }
  for (const std::uint64_t extent : type.extents) {
    if (extent <= kMaxArrayExtent) continue;
    return fail(where, declaration,
                subject() + " is an array with " + std::to_string(extent) + " elements in one dimension; "
                    "generated code takes at most " + std::to_string(kMaxArrayExtent) +
                    " (2^31 - 1) per dimension, as g++ cannot match an array of 2^31 or more elements",
                "make the array smaller or split the dimension (values[2147483648] -> values[2][1073741824]), "
                "or send the data in several messages");
  }
  const clang::QualType element = context_.getBaseElementType(field.getType());
  if (element.isConstQualified() || element.isVolatileQualified()) {
    return fail(where, declaration,
                subject() + " is " + (element.isConstQualified() ? "const" : "volatile") +
                    "; decoders must be able to write every field",
                "remove the qualifier");
  }
  return true;
}

bool Validator::checkEnum(const clang::FieldDecl& field, const clang::EnumDecl& enumeration,
                          const std::string& message) {
  const auto subject = [&] { return fieldPrefix(field, message); };
  const clang::SourceLocation where = field.getLocation();
  const clang::SourceRange declaration = field.DeclaratorDecl::getSourceRange();
  if (enumeration.getIdentifier() == nullptr) return failUnnamedEnum(field, enumeration, subject());
  const auto enumName = [&] { return quotedName(qualifiedName(enumeration)); };
  if (enumeration.getDefinition() == nullptr) {
    return fail(where, declaration, subject() + " uses enum " + enumName() + ", whose enumerators are not visible",
                "include the header that defines the enum");
  }
  const clang::DeclContext* context = enumeration.getDeclContext()->getRedeclContext();
  if (const auto* parent = llvm::dyn_cast<clang::CXXRecordDecl>(context)) {
    if (const char* access = isMessageRecord(*parent) ? hiddenAccess(enumeration) : nullptr) {
      return fail(where, declaration,
                  subject() + " uses enum " + enumName() + ", which is " + access + " in " +
                      quotedName(qualifiedName(*parent)) + "; generated code (.rk.h) names it from outside the class",
                  "declare the enum after 'public:' in " + quotedName(parent->getNameAsString()));
    }
    if (isMessageRecord(*parent)) return true;
    return fail(where, declaration,
                subject() + " uses enum " + enumName() + ", which is nested in " +
                    quotedName(qualifiedName(*parent)) + ", a class that is not a [[ringkernel::message]]",
                "move the enum to namespace scope or annotate " +
                    quotedName(parent->getNameAsString()) + " with [[ringkernel::message]]");
  }
  if (!context->isFileContext() || enumeration.isInAnonymousNamespace()) {
    return fail(where, declaration,
                subject() + " uses enum " + enumName() +
                    ", which is declared neither in a named namespace nor at global scope",
                "move the enum to a named namespace or the global scope");
  }
  return true;
}

bool Validator::checkInitializer(const clang::FieldDecl& field, const FieldType& type,
                                 const std::string& message, std::string& literal) {
  literal.clear();
  const clang::Expr* init = field.getInClassInitializer();
  if (init == nullptr) return true;
  const std::string subject = fieldPrefix(field, message);
  const clang::SourceLocation at = init->getBeginLoc();  // the caret; the whole initializer underlined
  const clang::SourceRange written = init->getSourceRange();
  const char* fix = "remove the default member initializer, or use a constant of the field's "
                    "scalar type (arrays and nested messages accept only {})";
  if (!type.extents.empty() || type.kind == FieldKind::Message) {
    if (isEmptyBraces(*init)) {
      literal = "{}";
      return true;
    }
    return fail(at, written, subject + " has a default member initializer that is not {}; only scalar "
                                       "fields take initial values",
                fix);
  }
  clang::Expr::EvalResult result;
  if (init->isValueDependent() || !init->EvaluateAsConstantExpr(result, context_) ||
      result.HasSideEffects) {
    return fail(at, written, subject + " has a default member initializer that is not a constant expression",
                fix);
  }
  const clang::APValue& value = result.Val;
  if (value.isFloat()) {
    auto text = floatLiteral(value.getFloat(), type.kind);
    if (!text) {
      return fail(at, written, subject + " has a default member initializer that is not a finite number",
                  "initialise it with a finite value");
    }
    literal = *text;
    return true;
  }
  if (!value.isInt()) {
    return fail(at, written, subject + " has a default member initializer that is not a scalar constant",
                fix);
  }
  const llvm::APSInt& number = value.getInt();
  if (type.kind != FieldKind::Enumeration) {
    literal = integerLiteral(number, type.kind);
    return true;
  }
  const std::string enumName = "::" + qualifiedName(*type.enumeration);
  for (const clang::EnumConstantDecl* enumerator : type.enumeration->enumerators()) {
    if (llvm::APSInt::isSameValue(enumerator->getInitVal(), number)) {
      literal = enumName + "::" + enumerator->getNameAsString();
      return true;
    }
  }
  literal = "static_cast<" + enumName + ">(" + integerLiteral(number, type.underlying) + ")";
  return true;
}

bool Validator::checkRecordAfterFields(const clang::CXXRecordDecl& record,
                                       const MessageModel& model, bool anyErrorReported) {
  if (anyErrorReported) return true;
  const std::string subject = "message " + quotedName(model.qualifiedName);
  if (model.size > kMaxMessageBytes) {
    return fail(record.getLocation(), subject + " is " + std::to_string(model.size) +
                                          " bytes, more than the " + std::to_string(kMaxMessageBytes) +
                                          " a message can have (generated descriptors hold 32-bit sizes)",
                "make its arrays smaller, or send the data in several messages");
  }
  if (!checkRecordAlignment(record, model)) return false;
  if (const SpecialMemberProblem problem = specialMemberProblem(record); problem.at != nullptr) {
    return fail(problem.at->getLocation(), subject + problem.reason, problem.fix);
  }
  if (!record.isStandardLayout()) {
    return fail(record.getLocation(), subject + " is not a standard-layout type",
                "give every field the same access and remove base classes");
  }
  return true;
}

bool Validator::checkIds(
    const std::vector<std::pair<const MessageModel*, clang::SourceLocation>>& messages) {
  bool ok = true;
  std::map<std::uint32_t, std::pair<const MessageModel*, clang::SourceLocation>> byTypeId;
  std::map<std::uint32_t, std::pair<const MessageModel*, clang::SourceLocation>> byKernelId;
  for (const auto& [message, where] : messages) {
    const auto subject = [message] { return "message " + quotedName(message->qualifiedName); };  // errors only
    if (message->typeId == 0) {
      ok = fail(where, subject() + " hashes to type id 0, which is reserved",
                "give it an explicit id: [[ringkernel::message(id = 0x...)]]");
      continue;
    }
    auto [type, newType] = byTypeId.emplace(message->typeId, std::make_pair(message, where));
    if (!newType) {
      ok = fail(where, subject() + " has type id " + hex(message->typeId) + ", the same as " +
                           quotedName(type->second.first->qualifiedName),
                "give one of them a different explicit id: [[ringkernel::message(id = ...)]]");
      diagnoser_.note(type->second.second, quotedName(type->second.first->qualifiedName) +
                                               " is declared here");
    }
    auto [kernel, newKernel] = byKernelId.emplace(message->kernelId, std::make_pair(message, where));
    if (!newKernel && kernel->second.first->kernel != message->kernel) {
      ok = fail(where, subject() + " has kernel " + quotedName(message->kernel) + " whose kernel id " +
                           hex(message->kernelId) + " equals that of kernel " +
                           quotedName(kernel->second.first->kernel) + " of " +
                           quotedName(kernel->second.first->qualifiedName),
                "rename one of the kernels with kernel = \"...\"");
      diagnoser_.note(kernel->second.second, quotedName(kernel->second.first->qualifiedName) +
                                                 " is declared here");
    }
  }
  return ok;
}

}  // namespace ringkernel::gen
