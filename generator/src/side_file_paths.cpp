// Copyright RingKernel authors.
#include "side_file_paths.h"

#include <utility>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "paths.h"

namespace ringkernel::gen {
namespace {

/// The files the side file `path` must not be, each with how the message names it.
std::vector<std::pair<std::string, std::string>> protectedFiles(const RunFiles& files) {
  std::vector<std::pair<std::string, std::string>> result;
  for (const std::string& input : files.inputs) result.emplace_back(input, "the input header " + input);
  for (const std::string& input : files.inputs) {
    for (const char* suffix : {".rk.h", ".rk.cuh", ".rk.json"}) {
      llvm::SmallString<256> output(files.outputDir);
      llvm::sys::path::append(output, fileStem(input) + suffix);
      result.emplace_back(output.str().str(), "the output " + output.str().str() + " of " + input);
    }
  }
  if (!files.compileArgsFile.empty()) {
    result.emplace_back(files.compileArgsFile, "the --compile-args-file " + files.compileArgsFile);
  }
  return result;
}

}  // namespace

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
