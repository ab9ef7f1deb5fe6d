// Copyright RingKernel authors.
// A value of id or priority in [[ringkernel::message]] written as a name (`id = kOrderId`,
// `id = MsgId::Telemetry`, `priority = ::ids::kHigh`, or what an object-like macro expands to): the
// name is looked up with clang's Sema as C++ looks it up at the attribute (the struct's enclosing
// scopes, outward; its own members are not in scope; only declarations before the attribute count)
// and must name an enumerator or an integral/enumeration constant, which clang evaluates.
#pragma once

#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/APSInt.h"

namespace clang {
class DeclContext;
class NamedDecl;
class Sema;
}  // namespace clang

namespace ringkernel::gen {

/// Where the names of one attribute are looked up. `sema` null: names are not looked up.
struct ConstantScope {
  clang::Sema* sema = nullptr;
  const clang::DeclContext* context = nullptr;  // the context the struct is declared in
};

/// A name as written: `a::b::C` is {"a", "b", "C"}; `global` for a leading `::`.
struct ConstantName {
  bool global = false;
  std::vector<std::string> parts;
  std::string spelled() const;
};

struct ConstantValue {
  struct Note {
    clang::SourceLocation at;
    std::string text;
  };
  bool found = false;             // `value` holds the constant's value
  bool missing = false;           // nothing of the name is declared before the attribute
  llvm::APSInt value;             // with the signedness of its type
  const clang::NamedDecl* declaration = nullptr;  // what the name refers to, when it was found
  std::string problem;            // !found: why, e.g. "'kX' is a variable that is not const"
  std::string fix;                // !found: what to do
  std::vector<Note> notes;        // !found: e.g. the candidates of an ambiguous name
};

/// Looks `name` up at `point` (the attribute, where the preprocessor expanded it) in `scope` and
/// evaluates what it names. Never reports anything itself.
ConstantValue evaluateNamedConstant(const ConstantName& name, const ConstantScope& scope,
                                    clang::SourceLocation point);

}  // namespace ringkernel::gen
