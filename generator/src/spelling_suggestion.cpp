// Copyright RingKernel authors.
#include "spelling_suggestion.h"

#include <algorithm>
#include <vector>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace ringkernel::gen {
namespace {

/// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`, letter case
/// ignored: the optimal string alignment distance. Swaps count once, as in "ture" for "true".
unsigned typoDistance(llvm::StringRef a, llvm::StringRef b) {
  const std::size_t n = b.size();
  std::vector<unsigned> before(n + 1), previous(n + 1), current(n + 1);
  for (std::size_t j = 0; j <= n; ++j) previous[j] = static_cast<unsigned>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<unsigned>(i);
    for (std::size_t j = 1; j <= n; ++j) {
      const bool same = llvm::toLower(a[i - 1]) == llvm::toLower(b[j - 1]);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0u : 1u)});
      if (i > 1 && j > 1 && llvm::toLower(a[i - 1]) == llvm::toLower(b[j - 2]) &&
          llvm::toLower(a[i - 2]) == llvm::toLower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[n];
}

}  // namespace

std::optional<std::string> closestSpelling(llvm::StringRef written, llvm::ArrayRef<llvm::StringRef> candidates) {
  if (written.empty() || llvm::is_contained(candidates, written)) return std::nullopt;
  // As clang's typo correction: up to a third of the word, rounded up.
  const unsigned limit = (static_cast<unsigned>(written.size()) + 2) / 3;
  std::optional<std::string> best;
  unsigned bestDistance = limit + 1;
  bool tied = false;
  for (llvm::StringRef candidate : candidates) {
    const unsigned distance = typoDistance(written, candidate);
    if (distance > limit) continue;
    if (distance < bestDistance) {
      best = candidate.str();
      bestDistance = distance;
      tied = false;
    } else if (distance == bestDistance) {
      tied = true;
    }
  }
  if (tied) return std::nullopt;
  return best;
}

}  // namespace ringkernel::gen
