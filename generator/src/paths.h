// Copyright RingKernel authors.
// Path arithmetic for generated files: absolute normalised paths and include spellings.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace llvm::vfs {
class FileSystem;
}

namespace ringkernel::gen {

/// The files a generate run writes for a header, <output-dir>/<stem><suffix>: the traits and codecs
/// (.rk.h), the CUDA layouts (.rk.cuh) and the manifest (.rk.json), in the order renderHeader
/// (emit.h) appends them. The one list: stale outputs, side-file clashes and the renderer use it.
inline constexpr std::string_view kHeaderSuffix = ".rk.h";
inline constexpr std::string_view kCudaHeaderSuffix = ".rk.cuh";
inline constexpr std::string_view kManifestSuffix = ".rk.json";
inline constexpr std::array<std::string_view, 3> kOutputSuffixes = {kHeaderSuffix, kCudaHeaderSuffix,
                                                                    kManifestSuffix};

/// `path` made absolute against the current directory, with "." and ".." removed and native
/// separators.
std::string absolutePath(const std::string& path);

/// How a file in `outputDir` includes `header`: the relative path from `outputDir` to `header`
/// with '/' separators, e.g. "../include/app/messages.h". Both must be absolute.
std::string includeSpelling(const std::string& header, const std::string& outputDir);

/// How a file in `outputDir` includes `header` when the compiler searches `includeDirs` (absolute,
/// normalised, in the order a quoted include searches them: -iquote, then -I). The shortest
/// spelling relative to an include directory that contains the header (compared as given, and
/// with symbolic links resolved) whose quoted lookup -- `outputDir` first, then `includeDirs` in
/// order -- finds this very header and not a namesake; ties go to the alphabetically first. Falls
/// back to includeSpelling(header, outputDir) when no include directory qualifies. Never absolute.
std::string includeSpelling(const std::string& header, const std::string& outputDir,
                            const std::vector<std::string>& includeDirs, llvm::vfs::FileSystem& fs);

/// Whether `a` and `b` name the same file, existing or not: the same absolute path (after `.` and
/// `..`), the same file (llvm::sys::fs::equivalent: a symbolic or hard link to it), or the same path
/// once the symbolic links of the nearest existing directory above each are resolved (a file not
/// yet written, named through a link to its directory).
bool sameFile(const std::string& a, const std::string& b);

/// File name without directory and without its last extension ("a/messages.h" -> "messages").
std::string fileStem(const std::string& path);

/// Whether a quoted #include of the generated files can spell `path`: no '"', no '\\' (clang's
/// driver takes it for a separator), no control character (below 0x20, or DEL). ringkernel-gen
/// refuses an input header whose absolute path breaks this; the manifest reader refuses such a
/// header path, include spelling or stem.
bool quotedIncludeCanSpell(std::string_view path);

}  // namespace ringkernel::gen
