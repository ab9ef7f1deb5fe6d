// Copyright RingKernel authors.
#include "resource_dir.h"

#include <cstdlib>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace ringkernel::gen {

bool isClangResourceDir(const std::string& dir) {
  llvm::SmallString<256> stddef(dir);
  llvm::sys::path::append(stddef, "include", "stddef.h");
  return llvm::sys::fs::is_regular_file(stddef);
}

std::string findClangResourceDir(std::string& error) {
  if (const char* fromEnvironment = std::getenv("RINGKERNEL_CLANG_RESOURCE_DIR")) {
    if (isClangResourceDir(fromEnvironment)) return fromEnvironment;
    error = std::string("RINGKERNEL_CLANG_RESOURCE_DIR=") + fromEnvironment +
            " is not a clang resource directory (no include/stddef.h in it); point it at "
            "the output of `clang-19 -print-resource-dir`";
    return {};
  }
  const std::string builtIn = RINGKERNEL_CLANG_RESOURCE_DIR;
  if (isClangResourceDir(builtIn)) return builtIn;
  error = "clang's builtin headers are not in " + builtIn +
          " (no include/stddef.h); install clang-19's resource files (Debian package "
          "libclang-common-19-dev) or set RINGKERNEL_CLANG_RESOURCE_DIR to the output of "
          "`clang-19 -print-resource-dir`";
  return {};
}

}  // namespace ringkernel::gen
