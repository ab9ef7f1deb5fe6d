// Copyright RingKernel authors.
// Builds the model (model.h) of one header from the clang AST: options, ids, layouts for the
// target ABI, field kinds, the enums and nested messages the fields use. Runs the validator on the
// way; nothing invalid enters the model.
#pragma once

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "diagnostics.h"
#include "model.h"
#include "model_listener.h"
#include "validator.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class EnumDecl;
class FieldDecl;
class Preprocessor;
class Sema;
}  // namespace clang

namespace ringkernel::gen {

class ModelBuilder {
 public:
  /// `preprocessor` (may be null: then macros in attributes are only seen as source text) is the
  /// parse's. `listener` (optional) is told about every record the model gains while no error has
  /// been reported, under the key `header`.
  ModelBuilder(clang::ASTContext& context, Diagnoser& diagnoser,
               const clang::Preprocessor* preprocessor, ModelListener* listener = nullptr,
               std::string header = {});
  ~ModelBuilder();
  ModelBuilder(const ModelBuilder&) = delete;
  ModelBuilder& operator=(const ModelBuilder&) = delete;

  /// `roots`: the [[ringkernel::message]] definitions of the header, in declaration order.
  /// Fills header.messages (dependencies first, nested messages from other headers with
  /// fromThisHeader = false) and header.enums. Returns false if any error was reported.
  bool build(const std::vector<const clang::CXXRecordDecl*>& roots, HeaderModel& header);

  /// The same in steps: addRoots() for consecutive parts of the roots (in declaration order), then
  /// finish() once. build(roots) == addRoots(roots) + finish().
  bool addRoots(const std::vector<const clang::CXXRecordDecl*>& roots);
  bool finish(HeaderModel& header);
  /// Hands every record built so far to the listener now (not only in whole batches), so that it
  /// works on them while the header-wide checks run; later records continue the same sequence.
  void handOver() { publish(/*all=*/true); }
  /// The parse's Sema, which looks up the constants that values of id and priority name; without
  /// it (null) such a name is an error.
  void setSema(clang::Sema* sema) { sema_ = sema; }

 private:
  enum class State { Building, Done, Failed };

  bool addMessage(const clang::CXXRecordDecl& record);
  bool buildMessage(const clang::CXXRecordDecl& record, MessageModel& model);
  bool buildField(const clang::FieldDecl& field, const MessageModel& message, FieldModel& model);
  bool addEnum(const clang::FieldDecl& field, const clang::EnumDecl& enumeration,
               const std::string& message);
  SourceLoc sourceLoc(const clang::Decl& decl) const;
  void publish(bool all);

  clang::ASTContext& context_;
  Diagnoser& diagnoser_;
  const clang::Preprocessor* preprocessor_;
  clang::Sema* sema_ = nullptr;
  Validator validator_;
  std::map<const clang::CXXRecordDecl*, State> states_;
  std::map<const clang::CXXRecordDecl*, std::size_t> messageIndex_;
  std::set<const clang::EnumDecl*> enumsSeen_;
  // deques: a record keeps its address while the model grows (the listener reads it meanwhile).
  std::deque<MessageModel> messages_;
  std::vector<const clang::CXXRecordDecl*> messageDecls_;
  std::deque<EnumModel> enums_;
  ModelListener* listener_;
  std::string header_;
  std::size_t publishedMessages_ = 0;
  std::size_t publishedEnums_ = 0;
};

}  // namespace ringkernel::gen
