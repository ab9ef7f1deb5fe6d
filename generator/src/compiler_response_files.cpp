// Copyright RingKernel authors.
#include "compiler_response_files.h"

#include <algorithm>

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

namespace ringkernel::gen {

bool expandCompilerResponseFiles(std::vector<std::string>& args, std::string& error) {
  const auto isResponseFile = [](const std::string& arg) { return arg.starts_with("@"); };
  if (std::none_of(args.begin(), args.end(), isResponseFile)) return true;
  llvm::BumpPtrAllocator allocator;
  llvm::cl::ExpansionContext context(allocator, llvm::cl::TokenizeGNUCommandLine);
  llvm::SmallVector<const char*, 32> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  if (llvm::Error failure = context.expandResponseFiles(argv)) {
    error = "cannot expand the response files among the compiler arguments: " + llvm::toString(std::move(failure));
    return false;
  }
  // A file that does not exist is left as it is (GCC's rule, which clang's driver follows; it then
  // takes `@file` for an input that does not exist): for the tool, which drops inputs from the
  // compiler arguments, it would be an argument silently lost.
  for (const char* arg : argv) {
    if (arg[0] != '@') continue;
    llvm::sys::fs::file_status status;
    const std::error_code ec = llvm::sys::fs::status(arg + 1, status);
    error = std::string("cannot read the response file ") + arg + " among the compiler arguments: " +
            (ec ? ec.message() : "not a readable file");
    return false;
  }
  args.assign(argv.begin(), argv.end());
  return true;
}

}  // namespace ringkernel::gen
