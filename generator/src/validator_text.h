// Copyright RingKernel authors.
// How the validator's diagnostics (validator.cpp, validator_layout.cpp, validator_names.cpp) name
// what they are about: a name in quotes, in full (names are the user's own, never shortened), and
// the "field 'x' of message 'app::M'" that starts every field rule's message.
#pragma once

#include <string>

#include "clang/AST/Decl.h"

namespace ringkernel::gen {

inline std::string quotedName(const std::string& name) { return "'" + name + "'"; }

inline std::string fieldPrefix(const clang::FieldDecl& field, const std::string& message) {
  return "field " + quotedName(field.getNameAsString()) + " of message " + quotedName(message);
}

}  // namespace ringkernel::gen
