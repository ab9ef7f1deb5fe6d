// Copyright RingKernel authors.
// "Did you mean ...?" for a misspelt word of the attribute (a key, a direction, a format): the
// candidate nearest to what was written, if it is near enough to be a typo.
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

/// "; did you mean 'x'?" for closestSpelling's answer (to end an error message), else "".
std::string didYouMean(llvm::StringRef written, llvm::ArrayRef<llvm::StringRef> candidates);

}  // namespace ringkernel::gen
