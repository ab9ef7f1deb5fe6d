// Copyright RingKernel authors.
#include "side_file_paths.h"

#include <utility>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "paths.h"

namespace ringkernel::gen {
namespace {

/// The files the side file `path` must not be, each with how the message names it.
std::vector<std::pair<std::string, std::string>> protectedFiles(const RunFiles& files) {
  std::vector<std::pair<std::string, std::string>> result;
  for (const std::string& input : files.inputs) result.emplace_back(input, "the input header " + input);
  for (const std::string& input : files.inputs) {
    for (const std::string_view suffix : kOutputSuffixes) {
      llvm::SmallString<256> output(files.outputDir);
      llvm::sys::path::append(output, fileStem(input) + std::string(suffix));
      result.emplace_back(output.str().str(), "the output " + output.str().str() + " of " + input);
    }
  }
  if (!files.compileArgsFile.empty()) {
    result.emplace_back(files.compileArgsFile, "the --compile-args-file " + files.compileArgsFile);
  }
  return result;
}

/// Whether writing `side` would overwrite `read`, a file the parse read: sameFile(side, read), with
/// `sideId` the identity of `side` without `.` and `..` (null: no such file). For two files that
/// exist that is whether they are one file (sameFile's llvm::sys::fs::equivalent: one stat each,
/// not the real paths it also compares), and a side file that does not exist is no file that does;
/// only a file read that has gone since takes sameFile's whole comparison.
bool overwrites(const std::string& side, const llvm::sys::fs::UniqueID* sideId, const std::string& read) {
  llvm::sys::fs::UniqueID readId;
  if (!llvm::sys::fs::getUniqueID(read, readId)) return sideId != nullptr && *sideId == readId;
  return sameFile(side, read);
}

}  // namespace

std::string sideFileReadClash(const std::string& depfile, const std::string& stamp,
                              const std::vector<std::string>& filesRead) {
  const std::pair<const char*, const std::string*> sideFiles[] = {{"depfile", &depfile}, {"stamp", &stamp}};
  for (const auto& [option, side] : sideFiles) {
    if (side->empty()) continue;
    llvm::sys::fs::UniqueID id;  // of the path without `.` and `..`, as sameFile compares it first
    const bool exists = !llvm::sys::fs::getUniqueID(absolutePath(*side), id);
    for (const std::string& read : filesRead) {
      if (overwrites(*side, exists ? &id : nullptr, read)) {
        return std::string("--") + option + " " + *side + " is " + read +
               ", a file the parse read (the input headers include it), which it would overwrite; give the " +
               option + " a path of its own";
      }
    }
  }
  return {};
}

std::string sideFileClash(const RunFiles& files) {
  const std::vector<std::pair<std::string, std::string>> taken = protectedFiles(files);
  const std::pair<const char*, const std::string*> sideFiles[] = {{"depfile", &files.depfile},
                                                                    {"stamp", &files.stamp}};
  for (const auto& [option, side] : sideFiles) {
    const std::string& path = *side;
    if (path.empty()) continue;
    for (const auto& [file, named] : taken) {
      if (sameFile(path, file)) {
        return std::string("--") + option + " " + path + " is " + named + ", which it would overwrite; give the " +
               option + " a path of its own";
      }
    }
  }
  if (!files.depfile.empty() && !files.stamp.empty() && sameFile(files.depfile, files.stamp)) {
    return "--depfile " + files.depfile + " and --stamp " + files.stamp +
           " are the same file; give each a path of its own (the stamp is the depfile's target)";
  }
  return {};
}

}  // namespace ringkernel::gen
