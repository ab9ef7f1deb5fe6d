// Copyright RingKernel authors.
// Compile commands written for g++ (compile_commands.json for -p, the arguments after `--`, the
// lines of --compile-args-file) can carry options that clang's driver does not know
// (-fconcepts-diagnostics-depth=2, -fanalyzer, ...). The driver refuses the whole command for one
// of them ("unknown argument"), so such a build would fail only because the generator is
// clang-based. The adjuster here drops exactly those options before the driver sees the command;
// everything clang knows stays.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "clang/Tooling/ArgumentsAdjusters.h"

namespace ringkernel::gen {

/// Positions in `command` (command[0] is the compiler, as in a compile command) of the options
/// clang's driver reports as unknown, found by parsing the command with the driver's own option
/// table as the driver does (clang-cl's options for a cl-like compiler or --driver-mode=cl, else
/// the gcc-like ones). Such an option is always one argument: the value of a known option that
/// takes one (`-Xclang -fwchar-type=short`, `-include -f.h`) and anything after `--` never counts.
std::vector<std::size_t> unknownDriverOptions(const clang::tooling::CommandLineArguments& command);

/// Called with the options one command lost, in command order.
using DroppedOptionsReporter = std::function<void(const std::vector<std::string>& dropped)>;

/// Removes the options unknownDriverOptions finds from every command and tells `report` which ones
/// it removed (not called for a command that had none).
clang::tooling::ArgumentsAdjuster dropUnknownDriverOptions(DroppedOptionsReporter report);

}  // namespace ringkernel::gen
