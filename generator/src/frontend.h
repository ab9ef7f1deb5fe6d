// Copyright RingKernel authors.
// Runs clang over the input headers and builds one HeaderModel per header. Nothing is written to
// disk here; main() renders and writes only when the whole run had no error.
#pragma once

#include <string>
#include <vector>

#include "diagnostics.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "model.h"
#include "model_listener.h"

namespace clang::tooling {
class CompilationDatabase;
}

namespace llvm {
class raw_ostream;
}

namespace ringkernel::gen {

struct FrontendRequest {
  std::vector<std::string> headers;  // as given; made absolute against the file system's cwd
  /// Compile flags per header (FixedCompilationDatabase for `-- <args>`, JSON for `-p`).
  const clang::tooling::CompilationDatabase* compilations = nullptr;
  std::string targetTriple;  // --target; empty: the host (or a --target in the compile flags)
  std::string outputDir;     // absolute; generated files in it include the headers (paths.h)
  std::string resourceDir;   // clang's resource dir (resource_dir.h); empty: clang's default
  /// Files are read through this; null means the real file system. Tests pass an overlay with an
  /// llvm::vfs::InMemoryFileSystem on top of the real one.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem;
  /// Told about each header's messages while the header is still being parsed; may be null.
  ModelListener* listener = nullptr;
  /// Leave the AST and clang's other per-header state allocated (clang's -disable-free): for a
  /// process that ends soon after; saves freeing them one by one.
  bool leakAst = false;
};

struct FrontendResult {
  std::vector<HeaderModel> headers;     // in request order; complete only if errorCount == 0
  std::vector<std::string> filesRead;   // every file the parse read: absolute, sorted, unique
  unsigned errorCount = 0;              // clang's errors plus the generator's
  std::vector<RecordedDiagnostic> diagnostics;  // everything that was printed
};

/// Parses every header as C++20 (-xc++ -std=c++20 unless the flags give -std, -fsyntax-only,
/// -DRINGKERNEL_GENERATOR=1, --target=, -resource-dir=) and builds its model. Diagnostics are
/// printed clang-style to `diagnosticStream`. Options clang's driver does not know are dropped from
/// the compile commands first (unknown_options.h) and named there once per run, in a
/// "ringkernel-gen: note: ignoring compiler option(s) clang does not know: ..." line.
FrontendResult runFrontend(const FrontendRequest& request, llvm::raw_ostream& diagnosticStream);

}  // namespace ringkernel::gen
