// Copyright RingKernel authors.
#include "model_builder.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "attribute_parser.h"
#include "attribute_registration.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "cpp_literal.h"
#include "field_types.h"
#include "llvm/Support/Path.h"
#include "names.h"

namespace ringkernel::gen {
namespace {

/// Namespaces (outermost first) around `decl`, which of them are inline (indices), and the
/// qualified name of the record it is nested in (empty at namespace scope).
void scopeOf(const clang::Decl& decl, std::vector<std::string>& namespaces,
             std::vector<std::size_t>& inlineNamespaces, std::string& enclosingRecord) {
  std::vector<bool> isInline;
  for (const clang::DeclContext* context = decl.getDeclContext(); context != nullptr;
       context = context->getParent()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(context)) {
      namespaces.push_back(ns->getNameAsString());
      isInline.push_back(ns->isInline());
    } else if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(context);
               record != nullptr && enclosingRecord.empty() && namespaces.empty()) {
      enclosingRecord = qualifiedName(*record);
    }
  }
  std::reverse(namespaces.begin(), namespaces.end());
  std::reverse(isInline.begin(), isInline.end());
  for (std::size_t i = 0; i < isInline.size(); ++i) {
    if (isInline[i]) inlineNamespaces.push_back(i);
  }
}

const clang::AnnotateAttr* messageAnnotation(const clang::CXXRecordDecl& record) {
  if (const clang::AnnotateAttr* own = ownMessageAnnotation(record)) return own;
  for (const clang::Decl* redecl : record.redecls()) {
    if (const clang::AnnotateAttr* own = ownMessageAnnotation(*redecl)) return own;
  }
  return nullptr;
}

std::uint64_t bytes(clang::CharUnits units) { return static_cast<std::uint64_t>(units.getQuantity()); }

}  // namespace

ModelBuilder::ModelBuilder(clang::ASTContext& context, Diagnoser& diagnoser,
                           const clang::Preprocessor* preprocessor, ModelListener* listener,
                           std::string header)
    : context_(context), diagnoser_(diagnoser), preprocessor_(preprocessor),
      validator_(context, diagnoser), listener_(listener), header_(std::move(header)) {}

SourceLoc ModelBuilder::sourceLoc(const clang::Decl& decl) const {
  SourceLoc result;
  const clang::PresumedLoc presumed =
      context_.getSourceManager().getPresumedLoc(decl.getLocation());
  if (presumed.isValid()) {
    // Absolute and normalised against the parse's working directory, as the header's own path: a
    // header found through `-Iinc` is then recorded alike by every manifest that describes it.
    llvm::SmallString<256> file(presumed.getFilename());
    if (!file.empty() && file[0] != '<') {
      context_.getSourceManager().getFileManager().makeAbsolutePath(file);
      llvm::sys::path::remove_dots(file, /*remove_dot_dot=*/true);
    }
    result.file = std::string(file.str());
    result.line = presumed.getLine();
    result.column = presumed.getColumn();
  }
  return result;
}

ModelBuilder::~ModelBuilder() {
  if (listener_ != nullptr) listener_->headerParsed(header_);  // it may still read the records
}

bool ModelBuilder::build(const std::vector<const clang::CXXRecordDecl*>& roots,
                         HeaderModel& header) {
  const bool ok = addRoots(roots);
  return finish(header) && ok;
}

bool ModelBuilder::addRoots(const std::vector<const clang::CXXRecordDecl*>& roots) {
  bool ok = true;
  for (const clang::CXXRecordDecl* root : roots) ok = addMessage(*root) && ok;
  publish(/*all=*/false);
  return ok;
}

/// Hands the records added since the last call to the listener, in batches of kPublishBatch
/// messages (each hand-over may wake its thread) unless `all`; once an error was reported the output
/// will not be written, so nothing more is handed over.
void ModelBuilder::publish(bool all) {
  constexpr std::size_t kPublishBatch = 64;
  if (listener_ == nullptr || diagnoser_.engine().hasErrorOccurred()) return;
  if (publishedMessages_ == messages_.size() && publishedEnums_ == enums_.size()) return;
  if (!all && messages_.size() - publishedMessages_ < kPublishBatch) return;
  std::vector<const MessageModel*> messages;
  std::vector<const EnumModel*> enums;
  for (; publishedMessages_ < messages_.size(); ++publishedMessages_) {
    messages.push_back(&messages_[publishedMessages_]);
  }
  for (; publishedEnums_ < enums_.size(); ++publishedEnums_) enums.push_back(&enums_[publishedEnums_]);
  listener_->modelGrew(header_, std::move(messages), std::move(enums));
}

bool ModelBuilder::finish(HeaderModel& header) {
  std::vector<std::pair<const MessageModel*, clang::SourceLocation>> located;
  located.reserve(messages_.size());
  for (std::size_t i = 0; i < messages_.size(); ++i) {
    located.emplace_back(&messages_[i], messageDecls_[i]->getLocation());
  }
  publish(/*all=*/true);  // before the checks: an error they report only means it is not used
  const bool ok = validator_.checkIds(located);
  if (listener_ != nullptr) listener_->headerParsed(header_);
  header.messages.assign(std::make_move_iterator(messages_.begin()),
                         std::make_move_iterator(messages_.end()));
  header.enums.assign(std::make_move_iterator(enums_.begin()), std::make_move_iterator(enums_.end()));
  messages_.clear();
  enums_.clear();
  return ok;
}

bool ModelBuilder::addMessage(const clang::CXXRecordDecl& record) {
  auto [state, isNew] = states_.emplace(&record, State::Building);
  if (!isNew) return state->second != State::Failed;
  MessageModel model;
  const bool ok = buildMessage(record, model);
  states_[&record] = ok ? State::Done : State::Failed;
  if (!ok) return false;
  const clang::SourceManager& sm = context_.getSourceManager();
  model.fromThisHeader = sm.isInMainFile(sm.getExpansionLoc(record.getLocation()));
  messageIndex_[&record] = messages_.size();
  messages_.push_back(std::move(model));
  messageDecls_.push_back(&record);
  // A nested message can only be reproduced inside its enclosing message.
  if (const auto* parent = llvm::dyn_cast<clang::CXXRecordDecl>(record.getDeclContext());
      parent != nullptr && isMessageRecord(*parent) && parent->getDefinition() != nullptr) {
    return addMessage(*parent->getDefinition());
  }
  return true;
}

bool ModelBuilder::buildMessage(const clang::CXXRecordDecl& record, MessageModel& model) {
  if (record.isInvalidDecl()) return false;  // clang has reported why
  model.name = record.getNameAsString();
  model.qualifiedName = qualifiedName(record);
  model.isClass = record.isClass();
  model.location = sourceLoc(record);
  scopeOf(record, model.namespaces, model.inlineNamespaces, model.enclosingMessage);

  bool ok = true;
  if (const clang::AnnotateAttr* annotation = messageAnnotation(record)) {
    ok = parseMessageAttributeArguments(annotation->getRange().getEnd(),
                                        context_.getSourceManager(), context_.getLangOpts(),
                                        preprocessor_, ConstantScope{sema_, record.getDeclContext()},
                                        diagnoser_, model.options);
  }
  ok = validator_.checkRecord(record, model.qualifiedName) && ok;
  if (!Validator::hasConcreteLayout(record)) return false;
  model.typeId = typeId(model.options, model.qualifiedName);
  model.kernel = kernelName(model.options, model.name);
  model.kernelId = fnv1a32(model.kernel);

  const clang::ASTRecordLayout& layout = context_.getASTRecordLayout(&record);
  model.size = bytes(layout.getSize());
  model.alignment = bytes(layout.getAlignment());
  model.naturalAlignment = 1;
  model.fields.reserve(static_cast<std::size_t>(std::distance(record.field_begin(), record.field_end())));
  for (const clang::FieldDecl* field : record.fields()) {
    FieldModel fieldModel;
    if (!buildField(*field, model, fieldModel)) {
      ok = false;
      continue;
    }
    fieldModel.offset = context_.toCharUnitsFromBits(
                                    static_cast<std::int64_t>(layout.getFieldOffset(field->getFieldIndex())))
                            .getQuantity();
    ok = validator_.checkFieldLayout(*field, fieldModel, model.qualifiedName) && ok;
    model.naturalAlignment = std::max(model.naturalAlignment, fieldModel.alignment);
    model.fields.push_back(std::move(fieldModel));
  }
  return validator_.checkRecordAfterFields(record, model, !ok) && ok;
}

bool ModelBuilder::buildField(const clang::FieldDecl& field, const MessageModel& message,
                              FieldModel& model) {
  const FieldType type = classifyFieldType(field.getType(), context_);
  if (!validator_.checkField(field, type, message.qualifiedName)) return false;
  model.name = field.getNameAsString();
  model.kind = type.kind;
  model.underlying = type.underlying;
  model.extents = type.extents;
  model.location = sourceLoc(field);
  if (type.kind == FieldKind::Message) {
    if (!addMessage(*type.message)) return false;
    const MessageModel& nested = messages_[messageIndex_.at(type.message)];
    model.referencedType = nested.qualifiedName;
    model.typeName = "::" + nested.qualifiedName;
    model.sourceType = model.typeName;
    model.messageTypeId = nested.typeId;
  } else if (type.kind == FieldKind::Enumeration) {
    if (!addEnum(field, *type.enumeration, message.qualifiedName)) return false;
    model.referencedType = qualifiedName(*type.enumeration);
    model.typeName = "::" + model.referencedType;
    model.sourceType = model.typeName;
  } else if (type.kind == FieldKind::Byte) {
    model.typeName = fixedWidthType(type.kind);
    model.sourceType = "::std::byte";
  } else {
    model.sourceType = type.element.getAsString(context_.getPrintingPolicy());  // "unsigned long"
    // char8_t (kind Char8: fixedWidthType is char8_t), char16_t and char32_t keep their type in
    // .rk.cuh: a char8_t[N] is an array of ints on the wire, a std::uint8_t[N] is bin
    // (docs/wire-format.md section 3).
    const bool unicodeCharacter = type.element->isChar16Type() || type.element->isChar32Type();
    model.typeName = unicodeCharacter ? model.sourceType : fixedWidthType(type.kind);
  }
  if (!validator_.checkInitializer(field, type, message.qualifiedName, model.initializer)) {
    return false;
  }
  model.size = bytes(context_.getTypeSizeInChars(field.getType()));
  model.elementSize = bytes(context_.getTypeSizeInChars(type.element));
  model.naturalAlignment = bytes(context_.getTypeAlignInChars(type.element));
  const std::uint64_t written = bytes(context_.getTypeAlignInChars(field.getType()));
  const std::uint64_t declared = bytes(context_.toCharUnitsFromBits(field.getMaxAlignment()));
  model.alignment = std::max({model.naturalAlignment, written, declared});
  return true;
}

bool ModelBuilder::addEnum(const clang::FieldDecl& field, const clang::EnumDecl& enumeration,
                           const std::string& message) {
  if (!validator_.checkEnum(field, enumeration, message)) return false;
  const clang::EnumDecl& definition = *enumeration.getDefinition();
  if (!enumsSeen_.insert(&definition).second) return true;
  if (!validator_.checkEnumNames(definition)) return false;
  EnumModel model;
  model.qualifiedName = qualifiedName(definition);
  model.name = definition.getNameAsString();
  model.scoped = definition.isScoped();
  model.location = sourceLoc(definition);
  scopeOf(definition, model.namespaces, model.inlineNamespaces, model.enclosingMessage);
  scalarKind(definition.getIntegerType(), context_, model.underlying);
  for (const clang::EnumConstantDecl* enumerator : definition.enumerators()) {
    model.enumerators.push_back({enumerator->getNameAsString(),
                                 integerLiteral(enumerator->getInitVal(), model.underlying),
                                 wireInteger(enumerator->getInitVal(), model.underlying)});
  }
  enums_.push_back(std::move(model));
  if (const auto* parent = llvm::dyn_cast<clang::CXXRecordDecl>(definition.getDeclContext());
      parent != nullptr && parent->getDefinition() != nullptr) {
    return addMessage(*parent->getDefinition());
  }
  return true;
}

}  // namespace ringkernel::gen
