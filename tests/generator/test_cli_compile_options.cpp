// Copyright RingKernel authors.
// Runs the built ringkernel-gen with a --compile-args-file that holds a CMake target's compile options
// between marker lines (compile_options_block.h), as ringkernel_generate_messages() writes it: the
// parse gets their -D and include options, also the two-argument and SHELL: forms, paired and
// de-duplicated as the compile gets them; a last option without its value is an error naming it.
#include <gtest/gtest.h>

#include <string>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;

constexpr const char* kBegin = "--ringkernel-gen-compile-options-begin=app\n";
constexpr const char* kEnd = "--ringkernel-gen-compile-options-end\n";

TEST_F(CliTest, CompileOptionsBlockReachesTheParse) {
  write("sys dir/sys_only.h", "#pragma once\n#define SYS_ONLY 1\n");
  write("forced.h", "#pragma once\n#define FORCED 1\n");
  const std::string header = write("opts.h", "#include <sys_only.h>\n"
                                             "#if !defined(NAME) || NAME != 1 || !defined(SEP) || !defined(FORCED)\n"
                                             "#error the compile options did not reach the parse\n#endif\n"
                                             "#ifdef GONE\n#error -U GONE did not reach the parse\n#endif\n" +
                                             std::string(kWide));
  // `-isystem;<dir>` and `-D;SEP` as CMake lists them, SHELL: groups, options the parse does not get.
  const std::string args = write("compile.args", "-std=c++20\n-DGONE\n" + std::string(kBegin) + "-isystem\n" +
                                                     path("sys dir") + "\n-Wall\n-D\nSEP\nSHELL:-D NAME=1 -U GONE\n" +
                                                     "SHELL:-include '" + path("forced.h") + "'\n" +
                                                     "SHELL:-D WIDE\n-fno-rtti\n" + kEnd);
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " +
                                        quote(args) + " " + quote(header));
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_NE(readFile(path("out/opts.rk.json")).find(kWideField), std::string::npos);
}

// CMake's de-duplication: of `-D;WIDE;-UWIDE;-D;WIDE` (target_compile_options(-D WIDE -UWIDE) and a
// linked library's `-D WIDE`) the compiler gets `-D WIDE -UWIDE`, so WIDE is not defined.
TEST_F(CliTest, CompileOptionsBlockDeduplicatedAsCMake) {
  const std::string header = write("dup.h", kWide);
  const std::string args =
      write("compile.args", std::string("-std=c++20\n") + kBegin + "-D\nWIDE\n-UWIDE\n-D\nWIDE\n" + kEnd);
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " +
                                        quote(args) + " " + quote(header));
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(readFile(path("out/dup.rk.json")).find(kWideField), std::string::npos);
}

TEST_F(CliTest, CompileOptionsBlockLastOptionWithoutValue) {
  const std::string header = write("last.h", kWide);
  const std::string args = write("compile.args", std::string("-std=c++20\n") + kBegin + "-DWIDE\n-isystem\n" + kEnd);
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " +
                                        quote(args) + " " + quote(header));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("error: --compile-args-file '" + args +
                               "': the compile option '-isystem' of target 'app' has no value"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("out/last.rk.h")));
}

}  // namespace
