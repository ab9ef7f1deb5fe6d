// Copyright RingKernel authors.
#include "paths.h"

#include <vector>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace ringkernel::gen {
namespace {

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> result;
  for (auto it = llvm::sys::path::begin(path), end = llvm::sys::path::end(path); it != end; ++it) {
    result.emplace_back(*it);
  }
  return result;
}

}  // namespace

std::string absolutePath(const std::string& path) {
  llvm::SmallString<256> result(path);
  llvm::sys::fs::make_absolute(result);
  llvm::sys::path::remove_dots(result, /*remove_dot_dot=*/true);
  return std::string(result.str());
}

std::string includeSpelling(const std::string& header, const std::string& outputDir) {
  const std::vector<std::string> from = components(outputDir);
  const std::vector<std::string> to = components(header);
  std::size_t common = 0;
  while (common < from.size() && common + 1 < to.size() && from[common] == to[common]) ++common;
  std::string spelling;
  for (std::size_t i = common; i < from.size(); ++i) spelling += "../";
  for (std::size_t i = common; i < to.size(); ++i) {
    spelling += to[i];
    if (i + 1 < to.size()) spelling += '/';
  }
  return spelling;
}

std::string fileStem(const std::string& path) { return llvm::sys::path::stem(path).str(); }

}  // namespace ringkernel::gen
