// Copyright RingKernel authors.
// Compiler arguments that make clang's driver build no compile job (-E, -M, --precompile, --analyze,
// --version, -x assembler, ...): libTooling then printed "Running without flags." and parsed the
// headers without any of the arguments (no -D, no -I, no -std), exit status 0 and wrong layouts.
#include <gtest/gtest.h>

#include <string>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;

// Each is removed, and the run says so, as it does for options clang does not know; -DWIDE stays.
TEST_F(CliTest, OptionsThatStopTheDriverBeforeCompilingAreDroppedNotTheOtherArguments) {
  const std::string header = write("wide.h", kWide);
  for (const std::string option : {"-E", "-M", "-MM", "--precompile", "--analyze", "-fmodule-header", "-verify-pch",
                                   "--preprocess", "-print-resource-dir", "--version", "-dumpversion"}) {
    fs::remove_all(path("out"));
    const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- -DWIDE " +
                                          option + " -std=c++20");
    EXPECT_EQ(result.status, 0) << option << "\n" << result.output;
    EXPECT_EQ(result.output.find("Running without flags"), std::string::npos) << option << "\n" << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen: note: ignoring compiler option that makes clang build no compile "
                                 "job: " + option + "\n"),
              std::string::npos)
        << option << "\n" << result.output;
    // Nothing that clang's driver prints for an option such as --version (to stdout) comes out.
    EXPECT_EQ(result.output.find("Thread model"), std::string::npos) << option << "\n" << result.output;
    EXPECT_NE(readFile(path("out/wide.rk.json")).find(kWideField), std::string::npos) << option;
  }
}

// The same from --compile-args-file; two such options are named in one note, in command order.
TEST_F(CliTest, OptionsThatBuildNoCompileJobFromTheArgsFileAreDroppedToo) {
  const std::string header = write("wide.h", kWide);
  const std::string args = write("wide.args", "-MM\n-DWIDE\n-E\n");
  const CliResult result =
      runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " + quote(args) + " " + quote(header));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen: note: ignoring compiler options that make clang build no compile "
                               "job: -MM -E\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(readFile(path("out/wide.rk.json")).find(kWideField), std::string::npos);
}

// A language clang does not compile is not dropped (the header would be parsed as another language
// than the one asked for): bad usage, before anything is written, instead of a run without flags.
TEST_F(CliTest, LanguageWithoutACompileJobIsBadUsage) {
  const std::string header = write("wide.h", kWide);
  for (const std::string language : {"-x assembler", "-xassembler-with-cpp"}) {
    const CliResult result =
        runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- -DWIDE " + language);
    EXPECT_EQ(result.status, 2) << language << "\n" << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen: error: "), std::string::npos) << result.output;
    EXPECT_NE(result.output.find(language), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("Running without flags"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(path("out"))) << language;
  }
}

// Options that build a compile job stay, and the run prints nothing about them.
TEST_F(CliTest, OptionsThatStillCompileAreKeptWithoutANote) {
  const std::string header = write("wide.h", kWide);
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) +
                                        " -- -DWIDE -fsyntax-only -MD -MF " + quote(path("wide.d")) + " -c");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output, "");
  EXPECT_NE(readFile(path("out/wide.rk.json")).find(kWideField), std::string::npos);
}

}  // namespace
