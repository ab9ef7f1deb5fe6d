// Copyright RingKernel authors.
// ringkernel-gen with paths that are not what they should be: an input that is a directory or a
// device, an --output-dir that is a file, a depfile or stamp that cannot be written or that names an
// input or an output. Each is reported before anything is written.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;

constexpr const char* kHeader =
    "#include <cstdint>\nstruct [[ringkernel::message]] Ping { std::uint64_t id; };\n";

// Used to say "no such file: <dir>".
TEST_F(CliTest, DirectoryOrDeviceAsInputIsBadUsageThatSaysWhat) {
  fs::create_directories(path("dir.h"));
  const CliResult directory = runGenerator("--output-dir " + quote(path("out")) + " " + quote(path("dir.h")));
  EXPECT_EQ(directory.status, 2) << directory.output;
  EXPECT_NE(directory.output.find("dir.h is a directory"), std::string::npos) << directory.output;
  const CliResult device = runGenerator("--output-dir " + quote(path("out")) + " /dev/null");
  EXPECT_EQ(device.status, 2) << device.output;
  EXPECT_NE(device.output.find("/dev/null is not a regular file"), std::string::npos) << device.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

// Used to parse, then fail with "cannot write '<dir>/ping.rk.h.tmp.<pid>'" and exit status 1.
TEST_F(CliTest, OutputDirThatIsAFileIsBadUsage) {
  const std::string header = write("ping.h", kHeader);
  const std::string file = write("out", "not a directory\n");
  const CliResult result = runGenerator("--output-dir " + quote(file) + " " + quote(header));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("is not a directory"), std::string::npos) << result.output;
  EXPECT_EQ(readFile(file), "not a directory\n");
}

// The stamp and the depfile are written after the outputs; a path that cannot take them used to
// fail the run (exit 1) after the outputs had been written.
TEST_F(CliTest, StampOrDepfileThatCannotBeWrittenFailsBeforeAnyOutput) {
  const std::string header = write("ping.h", kHeader);
  write("file", "x\n");
  fs::create_directories(path("dir"));
  for (const std::string& option : {"--stamp " + quote(path("file/stamp")), "--depfile " + quote(path("file/ping.d")),
                                    "--depfile " + quote(path("dir"))}) {
    const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " " + option + " " + quote(header));
    EXPECT_EQ(result.status, 1) << option << "\n" << result.output;
    EXPECT_NE(result.output.find("cannot write"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(path("out"))) << option << ": outputs written by a failed run";
  }
  EXPECT_EQ(readFile(path("file")), "x\n");
}

// Run from a directory that was deleted, clang's file system used to abort the run with "LLVM
// ERROR: out of memory" (exit status 134), with relative or absolute paths alike.
TEST_F(CliTest, DeletedWorkingDirectoryIsBadUsageThatSaysSo) {
  const std::string header = write("ping.h", kHeader);
  for (const std::string& paths : {"--output-dir " + quote(path("out")) + " " + quote(header),
                                   std::string("--output-dir out ../ping.h")}) {
    const CliResult result =
        runGenerator(paths, "mkdir " + quote(path("gone")) + " && cd " + quote(path("gone")) + " && rmdir ../gone &&");
    EXPECT_EQ(result.status, 2) << paths << "\n" << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen: error: cannot determine the current working directory ("),
              std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("it may have been deleted"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(path("out")));
    EXPECT_FALSE(fs::exists(path("gone")));
  }
  for (const std::string option : {"--help", "--version"}) {
    const CliResult result =
        runGenerator(option, "mkdir " + quote(path("gone")) + " && cd " + quote(path("gone")) + " && rmdir ../gone &&");
    EXPECT_EQ(result.status, 0) << option << "\n" << result.output;
  }
}

// The .rk.h includes the header by a quoted path and the outputs are named after its stem: a '"'
// in the path used to give a .rk.h that does not compile, and '.h' hidden outputs named '.rk.h'
// whose manifest the registry step cannot use.
TEST_F(CliTest, HeaderNamesAQuotedIncludeCannotSpellAreBadUsage) {
  for (const std::string name : {"quo\"te.h", "new\nline.h", ".h"}) {
    const std::string header = write(name, kHeader);
    const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header));
    EXPECT_EQ(result.status, 2) << name << "\n" << result.output;
    EXPECT_NE(result.output.find(header), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(path("out"))) << name << ": outputs written";
  }
}

// Make syntax: ' ' and '#' take a backslash, '$' is doubled (what ninja and make read back).
TEST_F(CliTest, DepfileEscapesSpacesHashesAndDollars) {
  const std::string header = write("a #1/$HOME/ping.h", kHeader);
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " --depfile " +
                                        quote(path("ping.d")) + " " + quote(header));
  ASSERT_EQ(result.status, 0) << result.output;
  const std::string deps = readFile(path("ping.d"));
  EXPECT_NE(deps.find("  " + dir_.string() + "/a\\ \\#1/$$HOME/ping.h"), std::string::npos) << deps;
}

// A --depfile or --stamp that names an input header, an output of the run, the --compile-args-file
// or each other used to be written over it: `--depfile a.h a.h` exited 0 with the header replaced
// by depfile text, `--depfile out/a.rk.h` replaced a generated header, `--stamp a.h` touched the
// header. Each is bad usage that names both, found before anything is written: by any spelling of
// the path (relative, with `.` or `..`, a symbolic link to the file or to its directory).
TEST_F(CliTest, DepfileOrStampOnAnInputOrOutputIsBadUsageThatNamesBoth) {
  const std::string header = write("src/ping.h", kHeader);
  const std::string args = write("ping.args", "-DX=1\n");
  fs::create_directories(path("out"));
  const std::string oldOutput = write("out/ping.rk.h", "// an earlier run's\n");
  fs::create_symlink(header, path("link.h"));
  fs::create_symlink(path("out"), path("outlink"));
  struct Case {
    std::string options;    // the --depfile / --stamp options (run from dir_)
    std::string mentioned;  // what the message must name besides the option's own path
  };
  const std::vector<Case> cases = {
      {"--depfile src/ping.h", "src/ping.h"},
      {"--depfile ./src/../src/ping.h", "src/ping.h"},
      {"--depfile " + quote(header), "src/ping.h"},
      {"--depfile link.h", "src/ping.h"},
      {"--stamp src/ping.h", "src/ping.h"},
      {"--depfile out/ping.rk.h", "ping.rk.h"},
      {"--depfile out/ping.rk.cuh", "ping.rk.cuh"},
      {"--stamp out/ping.rk.json", "ping.rk.json"},
      {"--stamp outlink/ping.rk.json", "ping.rk.json"},
      {"--depfile ping.args --compile-args-file ping.args", "--compile-args-file ping.args"},
      {"--depfile ping.d --stamp ./ping.d", "--stamp ./ping.d"},
  };
  for (const Case& c : cases) {
    const CliResult result = runGeneratorIn(dir_.string(), "--output-dir out " + c.options + " src/ping.h");
    EXPECT_EQ(result.status, 2) << c.options << "\n" << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen: error: --"), std::string::npos) << c.options << "\n" << result.output;
    EXPECT_NE(result.output.find(c.mentioned), std::string::npos) << c.options << "\n" << result.output;
    EXPECT_EQ(readFile(header), kHeader) << c.options;
    EXPECT_EQ(readFile(oldOutput), "// an earlier run's\n") << c.options;
    EXPECT_EQ(readFile(args), "-DX=1\n") << c.options;
    EXPECT_FALSE(fs::exists(path("out/ping.rk.json"))) << c.options << ": outputs written";
    EXPECT_FALSE(fs::exists(path("ping.d"))) << c.options;
  }
  // Paths of their own still work, also a depfile next to the outputs with another name.
  const CliResult ok = runGeneratorIn(dir_.string(), "--output-dir out --depfile out/ping.rk.d --stamp ping.stamp src/ping.h");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_TRUE(fs::exists(path("out/ping.rk.d")));
  EXPECT_EQ(readFile(header), kHeader);
}

// A --depfile or --stamp that is a header the input includes (a file the parse read, not known before
// it) used to be written over: `--depfile inc.h u.h` replaced inc.h with the depfile and exited 0.
// The run now fails after the parse (exit status 1) naming both, and writes nothing; with
// --remove-stale-outputs the earlier outputs go, but such a stamp stays (it is not the tool's).
TEST_F(CliTest, DepfileOrStampOnAFileTheParseReadFailsTheRunAndWritesNothing) {
  const std::string inc = "#pragma once\n#define SZ 2\n";
  const std::string included = write("src/inc.h", inc);
  write("src/u.h", "#include <cstdint>\n#include \"inc.h\"\nstruct [[ringkernel::message]] U { std::uint32_t x[SZ]; };\n");
  fs::create_symlink(included, path("inc_link.h"));
  fs::create_directories(path("out"));
  const std::string oldOutput = write("out/u.rk.h", "// an earlier run's\n");
  const auto oldTime = fs::last_write_time(included) - std::chrono::hours(1);
  fs::last_write_time(included, oldTime);
  for (const std::string options : {"--depfile src/inc.h", "--depfile ./nowhere/../src/inc.h", "--depfile inc_link.h",
                                    "--stamp src/inc.h", "--depfile u.d --stamp src/inc.h"}) {
    const CliResult result = runGeneratorIn(dir_.string(), "--output-dir out " + options + " src/u.h");
    EXPECT_EQ(result.status, 1) << options << "\n" << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen: error: --"), std::string::npos) << options << "\n" << result.output;
    EXPECT_NE(result.output.find(" is " + path("src/inc.h") + ", a file the parse read"), std::string::npos)
        << options << "\n" << result.output;
    EXPECT_EQ(readFile(included), inc) << options;
    EXPECT_EQ(fs::last_write_time(included), oldTime) << options << ": the header was touched";
    EXPECT_EQ(readFile(oldOutput), "// an earlier run's\n") << options;
    EXPECT_FALSE(fs::exists(path("out/u.rk.json"))) << options << ": outputs written";
    EXPECT_FALSE(fs::exists(path("u.d"))) << options;
  }
  const CliResult stale =
      runGeneratorIn(dir_.string(), "--output-dir out --stamp src/inc.h --remove-stale-outputs src/u.h");
  EXPECT_EQ(stale.status, 1) << stale.output;
  EXPECT_FALSE(fs::exists(oldOutput)) << stale.output;
  EXPECT_EQ(readFile(included), inc) << stale.output;
  // Paths of their own still work.
  const CliResult ok = runGeneratorIn(dir_.string(), "--output-dir out --depfile u.d --stamp u.stamp src/u.h");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(readFile(path("u.d")).find("inc.h"), std::string::npos);
  EXPECT_EQ(readFile(included), inc);
}

}  // namespace
