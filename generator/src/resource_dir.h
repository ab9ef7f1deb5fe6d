// Copyright RingKernel authors.
// Locates clang's builtin headers (stddef.h, stdarg.h, ...) so parsing works on a plain machine
// without the user passing -resource-dir.
#pragma once

#include <string>

namespace ringkernel::gen {

/// The clang resource directory: $RINGKERNEL_CLANG_RESOURCE_DIR if set, else the directory the
/// generator was built against (compile definition RINGKERNEL_CLANG_RESOURCE_DIR). The directory
/// must contain include/stddef.h. Returns an empty string and sets `error` otherwise.
std::string findClangResourceDir(std::string& error);

/// True if `dir`/include/stddef.h exists.
bool isClangResourceDir(const std::string& dir);

}  // namespace ringkernel::gen
