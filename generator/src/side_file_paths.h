// Copyright RingKernel authors.
// The depfile and the stamp of a generate run must be files of their own: a --depfile or --stamp
// that named an input header, an output of the run or the --compile-args-file was written over it
// (`--depfile a.h a.h` replaced the header with depfile text and exited 0), and one that named a
// header the input includes was written over it after the parse (`--depfile inc.h u.h`).
#pragma once

#include <string>
#include <vector>

namespace ringkernel::gen {

/// What a generate run reads and writes, as given on its command line ("" when not given).
struct RunFiles {
  std::vector<std::string> inputs;  // the headers
  std::string outputDir;            // the outputs: <outputDir>/<stem>.rk.{h,cuh,json}
  std::string compileArgsFile;
  std::string depfile;
  std::string stamp;
};

/// "" when the depfile and the stamp (those given) are files of their own; else the bad-usage
/// message naming both paths: the depfile or stamp is an input header, one of the outputs the run
/// writes, the --compile-args-file, or the depfile is the stamp. Compared by paths::sameFile (any
/// spelling, links resolved), without touching any file.
std::string sideFileClash(const RunFiles& files);

/// After the parse: "" when neither the depfile nor the stamp (those given, "" when not) is one of
/// `filesRead` (every file the parse read: the headers the inputs include, system ones too); else
/// the message naming both ("--depfile inc.h is /abs/inc.h, a file the parse read, which it would
/// overwrite; ..."). Compared as paths::sameFile does; a side file that does not exist yet can
/// overwrite nothing and is none of them.
std::string sideFileReadClash(const std::string& depfile, const std::string& stamp,
                              const std::vector<std::string>& filesRead);

}  // namespace ringkernel::gen
