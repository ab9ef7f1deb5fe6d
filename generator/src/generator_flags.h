// Copyright RingKernel authors.
// The flags ringkernel-gen adds to every compile command of a header (the language, the standard,
// its own definition and warning options, --target and clang's resource directory).
#pragma once

#include <string>

#include "clang/Tooling/ArgumentsAdjusters.h"

namespace ringkernel::gen {

/// -xc++ (first) and -std=c++20 unless given, plus the generator's own flags. Those go before a
/// `--` that ends the options (interpolated compile commands have one before the file name), else
/// at the end, so --target given to ringkernel-gen wins over the compile command's.
clang::tooling::ArgumentsAdjuster generatorFlags(const std::string& targetTriple, const std::string& resourceDir);

}  // namespace ringkernel::gen
