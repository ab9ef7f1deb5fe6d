// Copyright RingKernel authors.
// Response files among the compiler arguments (`-- @flags.rsp`, or a line of --compile-args-file):
// libTooling's FixedCompilationDatabase does not read them, and the header used to be parsed without
// their options (no -D, no -I), exit status 0. They are expanded as clang's driver expands them.
#include <gtest/gtest.h>

#include <string>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;

// Its -D counts, and an -E inside it is found and dropped as one given after `--` is.
TEST_F(CliTest, ResponseFileAfterTheSeparatorIsExpandedAndItsOptionsChecked) {
  const std::string header = write("wide.h", kWide);
  const std::string rsp = write("flags.rsp", "-E\n-DWIDE \"-DNAME=a b\"\n");
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- @" + quote(rsp));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen: note: ignoring compiler option that makes clang build no compile "
                               "job: -E\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(readFile(path("out/wide.rk.json")).find(kWideField), std::string::npos) << result.output;
}

// Nested ones too, and one named on a line of --compile-args-file (as if given after `--`).
TEST_F(CliTest, NestedResponseFilesAndOnesFromTheArgsFileAreExpanded) {
  const std::string header = write("wide.h", kWide);
  write("inner.rsp", "-DWIDE\n");
  write("outer.rsp", "@" + path("inner.rsp") + "\n");
  const std::string args = write("wide.args", "@" + path("outer.rsp") + "\n");
  const CliResult result =
      runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " + quote(args) + " " + quote(header));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(readFile(path("out/wide.rk.json")).find(kWideField), std::string::npos) << result.output;
}

// A response file that cannot be read (missing, a directory) is bad usage naming it: its options
// would be missing. Nothing is written.
TEST_F(CliTest, UnreadableResponseFileIsBadUsageNamingIt) {
  const std::string header = write("wide.h", kWide);
  fs::create_directories(path("dir.rsp"));
  for (const std::string name : {"missing.rsp", "dir.rsp"}) {
    const CliResult result =
        runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- -DWIDE @" + quote(path(name)));
    EXPECT_EQ(result.status, 2) << name << "\n" << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen: error: "), std::string::npos) << name << "\n" << result.output;
    EXPECT_NE(result.output.find(path(name)), std::string::npos) << name << "\n" << result.output;
    EXPECT_FALSE(fs::exists(path("out"))) << name;
  }
}

}  // namespace
