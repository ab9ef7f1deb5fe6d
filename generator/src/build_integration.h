// Copyright RingKernel authors.
// Files for the build system: the Makefile-syntax depfile and the stamp file.
#pragma once

#include <string>
#include <vector>

namespace ringkernel::gen {

/// Makefile depfile text: "<targets>: \\\n  <prerequisite> \\\n ..." with spaces, '#' and '$'
/// escaped.
std::string depfileText(const std::vector<std::string>& targets,
                        const std::vector<std::string>& prerequisites);

/// Writes `content` to `path` unless the file already holds exactly that (its mtime is then kept).
/// Creates the parent directory. Returns false and sets `error` on failure.
bool writeFileIfChanged(const std::string& path, const std::string& content, std::string& error);

/// Creates `path` or updates its modification time.
bool touchFile(const std::string& path, std::string& error);

}  // namespace ringkernel::gen
