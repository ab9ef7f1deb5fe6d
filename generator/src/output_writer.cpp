// Copyright RingKernel authors.
#include "output_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "emit.h"

namespace ringkernel::gen {
namespace {

namespace fs = std::filesystem;

struct PendingWrite {
  fs::path target;
  fs::path temporary;
};

void removeQuietly(const fs::path& path) {
  std::error_code ignored;
  fs::remove(path, ignored);
}

bool writeTemporary(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  return static_cast<bool>(out);
}

/// Directories from the outermost missing one down to `dir` (those writeOutputs would create).
std::vector<fs::path> missingDirectories(const fs::path& dir) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.insert(missing.begin(), p);
    if (p == p.parent_path()) break;
  }
  return missing;
}

/// True when the file at `path` holds exactly `content`. Compares the size first, then reads the
/// file in blocks (no copy of a multi-MB file in memory).
bool hasContent(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat info {};
  bool same = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
              static_cast<std::uint64_t>(info.st_size) == content.size();
  static constexpr std::size_t kBlock = 256 * 1024;
  std::vector<char> block(same ? std::min(kBlock, content.size()) : 0);
  for (std::size_t at = 0; same && at < content.size();) {
    const ssize_t got = ::read(fd, block.data(), std::min(block.size(), content.size() - at));
    if (got <= 0) {
      same = got == 0 ? false : errno == EINTR;
      continue;
    }
    same = std::memcmp(block.data(), content.data() + at, static_cast<std::size_t>(got)) == 0;
    at += static_cast<std::size_t>(got);
  }
  ::close(fd);
  return same;
}

}  // namespace

bool readWholeFile(const std::string& path, std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  content = buffer.str();
  return !in.bad();
}

bool writeOutputs(const std::vector<OutputFile>& files, std::string& error) {
  std::vector<PendingWrite> pending;
  std::vector<fs::path> createdDirs;
  const auto rollBack = [&] {
    for (const PendingWrite& p : pending) removeQuietly(p.temporary);
    for (auto it = createdDirs.rbegin(); it != createdDirs.rend(); ++it) removeQuietly(*it);
  };
  // Phase 1: every changed file goes to a temporary file next to its target.
  for (const OutputFile& file : files) {
    if (hasContent(file.path, file.content)) continue;
    const fs::path target = fs::absolute(file.path);
    std::error_code ec;
    if (fs::is_directory(target, ec)) {
      rollBack();
      error = "cannot write '" + file.path + "': it is a directory";
      return false;
    }
    for (const fs::path& dir : missingDirectories(target.parent_path())) {
      if (!fs::create_directory(dir, ec) && ec) {
        rollBack();
        error = "cannot create directory '" + dir.string() + "': " + ec.message();
        return false;
      }
      createdDirs.push_back(dir);
    }
    fs::path temporary = target;
    temporary += ".tmp." + std::to_string(::getpid());
    if (!writeTemporary(temporary, file.content)) {
      removeQuietly(temporary);
      rollBack();
      error = "cannot write '" + temporary.string() + "'";
      return false;
    }
    pending.push_back({target, temporary});
  }
  // Phase 2: atomic renames. A rename within one directory only fails for reasons that phase 1
  // would already have hit (permissions, a directory in the way), so this phase is not undone.
  for (std::size_t i = 0; i < pending.size(); ++i) {
    std::error_code ec;
    fs::rename(pending[i].temporary, pending[i].target, ec);
    if (ec) {
      for (std::size_t j = i; j < pending.size(); ++j) removeQuietly(pending[j].temporary);
      error = "cannot replace '" + pending[i].target.string() + "': " + ec.message();
      return false;
    }
  }
  return true;
}

}  // namespace ringkernel::gen
