// Copyright RingKernel authors.
// Path arithmetic for generated files: absolute normalised paths and include spellings.
#pragma once

#include <string>

namespace ringkernel::gen {

/// `path` made absolute against the current directory, with "." and ".." removed and native
/// separators.
std::string absolutePath(const std::string& path);

/// How a file in `outputDir` includes `header`: the relative path from `outputDir` to `header`
/// with '/' separators, e.g. "../include/app/messages.h". Both must be absolute.
std::string includeSpelling(const std::string& header, const std::string& outputDir);

/// File name without directory and without its last extension ("a/messages.h" -> "messages").
std::string fileStem(const std::string& path);

}  // namespace ringkernel::gen
