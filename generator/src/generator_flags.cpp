// Copyright RingKernel authors.
#include "generator_flags.h"

#include <algorithm>
#include <iterator>

#include "llvm/ADT/StringRef.h"

namespace ringkernel::gen {

clang::tooling::ArgumentsAdjuster generatorFlags(const std::string& targetTriple, const std::string& resourceDir) {
  return [target = targetTriple, resourceDir](
             const clang::tooling::CommandLineArguments& args, llvm::StringRef) {
    if (args.empty()) return args;
    const auto optionsEnd = std::find(args.begin(), args.end(), "--");
    auto given = [&](llvm::StringRef prefix) {
      return std::any_of(args.begin(), optionsEnd, [&](const std::string& arg) {
        return llvm::StringRef(arg).starts_with(prefix);
      });
    };
    // The language -x names, the last one before `--` ("" when none).
    llvm::StringRef named;
    for (auto it = args.begin(); it != optionsEnd; ++it) {
      const llvm::StringRef arg(*it);
      if (arg == "-x" && std::next(it) != optionsEnd) {
        named = *std::next(it);
      } else if (arg.starts_with("-x") && arg.size() > 2) {
        named = arg.drop_front(2);
      }
    }
    clang::tooling::CommandLineArguments added;
    const bool language = given("-x");
    // Not for a language other than C++ (-x c): clang would refuse the pair before the parse, and
    // the frontend's own error (C is not C++) would never be said.
    const bool cxx = named.empty() || named.starts_with("c++") || named == "cuda";
    // The header is clang's main file; its #pragma once would warn (an error under -Werror).
    added.push_back("-Wno-pragma-once-outside-header");
    if (cxx && !given("-std=") && !given("--std")) added.push_back("-std=c++20");
    // Compile commands (-p) of g++ targets carry g++-only warning flags, RingKernel::runtime's own
    // -Wno-attributes=ringkernel:: among them; under -Werror clang would refuse every one of them.
    added.push_back("-Wno-unknown-warning-option");
    added.push_back("-DRINGKERNEL_GENERATOR=1");
    if (!target.empty()) added.push_back("--target=" + target);
    if (!resourceDir.empty() && !given("-resource-dir")) {
      added.push_back("-resource-dir=" + resourceDir);
    }
    // The language must precede the input file, which ends a command without `--`.
    clang::tooling::CommandLineArguments result{args.front()};
    if (!language) result.push_back("-xc++");
    result.insert(result.end(), args.begin() + 1, optionsEnd);
    result.insert(result.end(), added.begin(), added.end());
    result.insert(result.end(), optionsEnd, args.end());
    return result;
  };
}

}  // namespace ringkernel::gen
