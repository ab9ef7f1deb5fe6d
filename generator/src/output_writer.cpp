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
#include <string_view>
#include <system_error>
#include <thread>
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

/// Writes `pieces` to `path` (created, or truncated); what went wrong, if anything (the file is then
/// removed).
std::error_code writeTemporary(const fs::path& path, const std::vector<std::string_view>& pieces) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return {errno, std::generic_category()};
  std::error_code ec;
  for (const std::string_view piece : pieces) {
    for (std::size_t at = 0; at < piece.size() && !ec;) {
      const ssize_t written = ::write(fd, piece.data() + at, piece.size() - at);
      if (written >= 0) {
        at += static_cast<std::size_t>(written);
      } else if (errno != EINTR) {
        ec = {errno, std::generic_category()};
      }
    }
    if (ec) break;
  }
  if (::close(fd) != 0 && !ec) ec = {errno, std::generic_category()};
  if (ec) ::unlink(path.c_str());  // only what this call created: not a directory in the way
  return ec;
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

/// True when `block` equals the next block.size() bytes of `pieces`, read from piece `piece`, offset
/// `offset` (both advanced past them).
bool matchesPieces(std::string_view block, const std::vector<std::string_view>& pieces, std::size_t& piece,
                   std::size_t& offset) {
  while (!block.empty()) {
    while (offset == pieces[piece].size()) {
      ++piece;
      offset = 0;
    }
    const std::size_t length = std::min(block.size(), pieces[piece].size() - offset);
    if (std::memcmp(block.data(), pieces[piece].data() + offset, length) != 0) return false;
    block.remove_prefix(length);
    offset += length;
  }
  return true;
}

/// True when the file at `path` holds exactly `pieces`, one after the other. Compares the size first,
/// then reads the file in blocks (no copy of a multi-MB file in memory).
bool hasContent(const std::string& path, const std::vector<std::string_view>& pieces) {
  std::size_t size = 0;
  for (const std::string_view piece : pieces) size += piece.size();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat info {};
  bool same = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && static_cast<std::uint64_t>(info.st_size) == size;
  static constexpr std::size_t kBlock = 256 * 1024;
  std::vector<char> block(same ? std::min(kBlock, size) : 0);
  std::size_t piece = 0;
  std::size_t offset = 0;
  for (std::size_t at = 0; same && at < size;) {
    const ssize_t got = ::read(fd, block.data(), std::min(block.size(), size - at));
    if (got <= 0) {
      same = got == 0 ? false : errno == EINTR;
      continue;
    }
    same = matchesPieces(std::string_view(block.data(), static_cast<std::size_t>(got)), pieces, piece, offset);
    at += static_cast<std::size_t>(got);
  }
  ::close(fd);
  return same;
}

/// hasContent() of every file; large outputs are compared on two threads (reads only, nothing is
/// written before all comparisons are done).
std::vector<char> unchangedFiles(const std::vector<OutputFile>& files,
                                 const std::vector<std::vector<std::string_view>>& pieces) {
  static constexpr std::size_t kWorthAThread = 1024 * 1024;
  std::vector<char> unchanged(files.size(), 0);
  std::vector<std::size_t> sizes(files.size(), 0);
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (const std::string_view piece : pieces[i]) sizes[i] += piece.size();
  }
  // Largest first, each to the side with less so far; the other side runs on a second thread.
  std::vector<std::size_t> order(files.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return sizes[a] != sizes[b] ? sizes[a] > sizes[b] : a < b; });
  std::vector<std::size_t> here, there;
  std::size_t hereBytes = 0, thereBytes = 0;
  for (const std::size_t i : order) {
    if (hereBytes <= thereBytes) {
      here.push_back(i);
      hereBytes += sizes[i];
    } else {
      there.push_back(i);
      thereBytes += sizes[i];
    }
  }
  const auto compare = [&](const std::vector<std::size_t>& which) {
    for (const std::size_t i : which) unchanged[i] = hasContent(files[i].path, pieces[i]) ? 1 : 0;
  };
  if (there.empty() || thereBytes < kWorthAThread) {
    compare(order);
    return unchanged;
  }
  std::thread second;
  try {
    second = std::thread(compare, std::cref(there));
  } catch (const std::system_error&) {
    compare(there);  // no second thread to be had: one after the other
  }
  compare(here);
  if (second.joinable()) second.join();
  return unchanged;
}

}  // namespace

std::vector<std::string_view> OutputFile::pieces() const {
  std::vector<std::string_view> result;
  result.reserve(2 * inserts.size() + 1);
  const std::string_view own(content);
  std::size_t from = 0;
  for (const Insert& insert : inserts) {
    result.push_back(own.substr(from, insert.at - from));
    result.push_back(insert.text);
    from = insert.at;
  }
  result.push_back(own.substr(from));
  return result;
}

std::string OutputFile::text() const {
  std::string result;
  std::size_t size = 0;
  const std::vector<std::string_view> all = pieces();
  for (const std::string_view piece : all) size += piece.size();
  result.reserve(size);
  for (const std::string_view piece : all) result.append(piece);
  return result;
}

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
  std::vector<std::vector<std::string_view>> pieces;
  pieces.reserve(files.size());
  for (const OutputFile& file : files) pieces.push_back(file.pieces());
  const std::vector<char> unchanged = unchangedFiles(files, pieces);
  // Phase 1: every changed file goes to a temporary file next to its target.
  for (std::size_t index = 0; index < files.size(); ++index) {
    const OutputFile& file = files[index];
    if (unchanged[index] != 0) continue;
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
    if (const std::error_code written = writeTemporary(temporary, pieces[index])) {
      rollBack();
      // The output is what the user knows; the temporary file next to it is where it failed.
      error = "cannot write '" + file.path + "': " + written.message() + " (writing the temporary file '" +
              temporary.string() + "')";
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
