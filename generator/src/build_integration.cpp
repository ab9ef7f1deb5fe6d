// Copyright RingKernel authors.
#include "build_integration.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace ringkernel::gen {
namespace {

std::string escapeForMake(const std::string& path) {
  std::string escaped;
  for (char c : path) {
    if (c == ' ' || c == '#') escaped += '\\';
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return escaped;
}

bool createParentDirectory(const std::string& path, std::string& error) {
  const llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (parent.empty()) return true;
  if (std::error_code ec = llvm::sys::fs::create_directories(parent, /*IgnoreExisting=*/true,
                                                                     llvm::sys::fs::all_all)) {
    error = "cannot create directory " + parent.str() + ": " + ec.message();
    return false;
  }
  return true;
}

}  // namespace

std::string depfileText(const std::vector<std::string>& targets,
                        const std::vector<std::string>& prerequisites) {
  std::string text;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (i != 0) text += ' ';
    text += escapeForMake(targets[i]);
  }
  text += ':';
  for (const std::string& prerequisite : prerequisites) text += " \\\n  " + escapeForMake(prerequisite);
  text += '\n';
  return text;
}

bool writeFileIfChanged(const std::string& path, const std::string& content, std::string& error) {
  if (auto existing = llvm::MemoryBuffer::getFile(path, /*IsText=*/false)) {
    if ((*existing)->getBuffer() == content) return true;
  }
  if (!createParentDirectory(path, error)) return false;
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temporary)) {
    error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << content;
    out.close();
    if (out.has_error()) {
      error = "cannot write " + path + ": " + out.error().message();
      out.clear_error();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    error = "cannot write " + path + ": " + ec.message();
    llvm::sys::fs::remove(temporary);
    return false;
  }
  return true;
}

bool prepareFilePath(const std::string& path, std::string& error) {
  if (llvm::sys::fs::is_directory(path)) {
    error = "cannot write " + path + ": it is a directory";
    return false;
  }
  if (!createParentDirectory(path, error)) return false;
  const llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (!parent.empty() && !llvm::sys::fs::is_directory(parent)) {
    error = "cannot write " + path + ": " + parent.str() + " is not a directory";
    return false;
  }
  return true;
}

bool touchFile(const std::string& path, std::string& error) {
  if (!createParentDirectory(path, error)) return false;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenAlways)) {
    error = "cannot touch " + path + ": " + ec.message();
    return false;
  }
  const std::error_code ec = llvm::sys::fs::setLastAccessAndModificationTime(
      fd, std::chrono::system_clock::now());
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  if (ec) {
    error = "cannot touch " + path + ": " + ec.message();
    return false;
  }
  return true;
}

}  // namespace ringkernel::gen
