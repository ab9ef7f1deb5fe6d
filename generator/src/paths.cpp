// Copyright RingKernel authors.
#include "paths.h"

#include <algorithm>
#include <vector>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace ringkernel::gen {
namespace {

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> result;
  for (auto it = llvm::sys::path::begin(path), end = llvm::sys::path::end(path); it != end; ++it) {
    result.emplace_back(*it);
  }
  return result;
}

/// `path` below `dir` as '/'-separated components ("net/commands.h"); empty if it is not below it.
std::string below(const std::string& path, const std::string& dir) {
  const std::vector<std::string> inner = components(path);
  const std::vector<std::string> outer = components(dir);
  if (outer.empty() || inner.size() <= outer.size() || !std::equal(outer.begin(), outer.end(), inner.begin())) {
    return {};
  }
  std::string spelling;
  for (std::size_t i = outer.size(); i < inner.size(); ++i) {
    if (!spelling.empty()) spelling += '/';
    spelling += inner[i];
  }
  return spelling;
}

std::string realPath(llvm::vfs::FileSystem& fs, const std::string& path) {
  llvm::SmallString<256> real;
  if (fs.getRealPath(path, real)) return {};
  llvm::sys::path::remove_dots(real, /*remove_dot_dot=*/true);
  return std::string(real.str());
}

/// Whether `#include "<spelling>"` in a file of `outputDir` finds `header` (same file, not merely
/// the same name) when the compiler searches `outputDir`, then `includeDirs` in order.
bool findsHeader(const std::string& spelling, const std::string& header, const std::string& outputDir,
                 const std::vector<std::string>& includeDirs, llvm::vfs::FileSystem& fs) {
  const llvm::ErrorOr<llvm::vfs::Status> target = fs.status(header);
  if (!target) return false;
  std::vector<std::string> searched{outputDir};
  searched.insert(searched.end(), includeDirs.begin(), includeDirs.end());
  for (const std::string& dir : searched) {
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, llvm::sys::path::Style::posix, spelling);
    const llvm::ErrorOr<llvm::vfs::Status> found = fs.status(candidate);
    if (found && found->isRegularFile()) return found->equivalent(*target);
  }
  return false;
}

/// `path` (absolute, without dots) with the symbolic links of its nearest existing ancestor resolved.
std::string resolvedPath(const std::string& path) {
  llvm::StringRef existing(path);
  while (!existing.empty() && !llvm::sys::fs::exists(existing)) existing = llvm::sys::path::parent_path(existing);
  llvm::SmallString<256> real;
  if (existing.empty() || llvm::sys::fs::real_path(existing, real)) return path;
  real.append(llvm::StringRef(path).drop_front(existing.size()));
  llvm::sys::path::remove_dots(real, /*remove_dot_dot=*/true);
  return std::string(real.str());
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

std::string includeSpelling(const std::string& header, const std::string& outputDir,
                            const std::vector<std::string>& includeDirs, llvm::vfs::FileSystem& fs) {
  const std::string realHeader = realPath(fs, header);
  std::vector<std::string> candidates;
  for (const std::string& dir : includeDirs) {
    for (std::string spelling : {below(header, dir), below(realHeader, realPath(fs, dir))}) {
      if (!spelling.empty()) candidates.push_back(std::move(spelling));
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  for (const std::string& spelling : candidates) {
    if (findsHeader(spelling, header, outputDir, includeDirs, fs)) return spelling;
  }
  return includeSpelling(header, outputDir);
}

bool sameFile(const std::string& a, const std::string& b) {
  const std::string absoluteA = absolutePath(a);
  const std::string absoluteB = absolutePath(b);
  return absoluteA == absoluteB || llvm::sys::fs::equivalent(absoluteA, absoluteB) ||
         resolvedPath(absoluteA) == resolvedPath(absoluteB);
}

std::string fileStem(const std::string& path) { return llvm::sys::path::stem(path).str(); }

bool quotedIncludeCanSpell(std::string_view path) {
  return std::none_of(path.begin(), path.end(), [](char c) {
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
}

}  // namespace ringkernel::gen
