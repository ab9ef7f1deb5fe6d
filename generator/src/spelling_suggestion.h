// Copyright RingKernel authors.
// "Did you mean ...?" for a misspelt word of the attribute (its name, a key, a direction, a
// format): the candidate nearest to what was written, if it is near enough to be a typo. The
// errors end with the question and carry a clang fix-it that writes the candidate there.
#pragma once

#include <optional>
#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace ringkernel::gen {

/// The candidate `written` most likely misspells: the one needing the fewest edits (insert,
/// delete, replace, swap of neighbours; letter case ignored), when those are at most a third of the
/// word (rounded up) and no other candidate needs as few. nullopt when none qualifies or `written`
/// is itself a candidate.
std::optional<std::string> closestSpelling(llvm::StringRef written, llvm::ArrayRef<llvm::StringRef> candidates);

}  // namespace ringkernel::gen
