// Copyright RingKernel authors.
// Builds the model (model.h) of one header from the clang AST: options, ids, layouts for the
// target ABI, field kinds, the enums and nested messages the fields use. Runs the validator on the
// way; nothing invalid enters the model.
#pragma once

#include <map>
#include <set>
#include <vector>

#include "diagnostics.h"
#include "model.h"
#include "validator.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class EnumDecl;
class FieldDecl;
}  // namespace clang

namespace ringkernel::gen {

class ModelBuilder {
 public:
  ModelBuilder(clang::ASTContext& context, Diagnoser& diagnoser);

  /// `roots`: the [[ringkernel::message]] definitions of the header, in declaration order.
  /// Fills header.messages (dependencies first, nested messages from other headers with
  /// fromThisHeader = false) and header.enums. Returns false if any error was reported.
  bool build(const std::vector<const clang::CXXRecordDecl*>& roots, HeaderModel& header);

 private:
  enum class State { Building, Done, Failed };

  bool addMessage(const clang::CXXRecordDecl& record);
  bool buildMessage(const clang::CXXRecordDecl& record, MessageModel& model);
  bool buildField(const clang::FieldDecl& field, const MessageModel& message, FieldModel& model);
  bool addEnum(const clang::FieldDecl& field, const clang::EnumDecl& enumeration,
               const std::string& message);
  SourceLoc sourceLoc(const clang::Decl& decl) const;

  clang::ASTContext& context_;
  Diagnoser& diagnoser_;
  Validator validator_;
  std::map<const clang::CXXRecordDecl*, State> states_;
  std::map<const clang::CXXRecordDecl*, std::size_t> messageIndex_;
  std::set<const clang::EnumDecl*> enumsSeen_;
  std::vector<MessageModel> messages_;
  std::vector<const clang::CXXRecordDecl*> messageDecls_;
  std::vector<EnumModel> enums_;
};

}  // namespace ringkernel::gen
