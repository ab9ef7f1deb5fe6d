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

/// Makes `path` writable as a file as far as can be checked without writing it: creates its parent
/// directory and fails when the path or its parent is not what a file needs (a directory in the
/// way, a file where the directory should be). Run before the outputs are written, so that a depfile
/// or stamp that cannot be written fails the run before anything else is.
bool prepareFilePath(const std::string& path, std::string& error);

/// Creates `path` or updates its modification time.
bool touchFile(const std::string& path, std::string& error);

}  // namespace ringkernel::gen
