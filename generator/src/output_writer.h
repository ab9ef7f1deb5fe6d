// Copyright RingKernel authors.
// writeOutputs (declared in emit.h) lives in output_writer.cpp: write-if-changed, through temporary
// files and renames, all-or-nothing. This header exposes the piece the registry and tests reuse.
#pragma once

#include <string>

namespace ringkernel::gen {

/// Reads a whole file; false when it does not exist or cannot be read.
bool readWholeFile(const std::string& path, std::string& content);

}  // namespace ringkernel::gen
