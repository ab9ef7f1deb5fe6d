// Copyright RingKernel authors.
// What ringkernel-gen writes besides the generated files: nothing on stderr for a successful run of
// several headers, exit status 74 for a stdout that cannot be written (--version, --help), the
// modes of the directories it creates, and the reason when an output cannot be written.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;

constexpr const char* kPing = "#include <cstdint>\nstruct [[ringkernel::message]] Ping { std::uint64_t id; };\n";
constexpr const char* kPong = "#include <cstdint>\nstruct [[ringkernel::message]] Pong { std::uint64_t id; };\n";

// libTooling printed "[1/2] Processing file ..." for each of several headers, and with stderr closed
// a successful run then exited 74 and wrote nothing.
TEST_F(CliTest, SeveralHeadersPrintNothingOnSuccess) {
  const std::string ping = write("ping.h", kPing);
  const std::string pong = write("pong.h", kPong);
  const std::string args = "--output-dir " + quote(path("out")) + " " + quote(ping) + " " + quote(pong);
  const CliResult result = runGenerator(args);
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output, "");
  const CliResult closed = runGenerator("--output-dir " + quote(path("closed")) + " " + quote(ping) + " " + quote(pong) +
                                        " 2>&-; echo rc=$?");
  EXPECT_EQ(closed.output, "rc=0\n");
  EXPECT_TRUE(fs::exists(path("closed/ping.rk.h")));
  EXPECT_TRUE(fs::exists(path("closed/pong.rk.h")));
}

// They ended in "LLVM ERROR: IO failure on output stream" and exit status 1.
TEST_F(CliTest, VersionAndHelpToAClosedStdoutExit74) {
  for (const char* option : {"--version", "--help"}) {
    const CliResult closed = runGenerator(std::string(option) + " >&- 2>/dev/null; echo rc=$?");
    EXPECT_EQ(closed.output, "rc=74\n") << option;
    ASSERT_EQ(runGenerator(std::string(option) + " >&- 2>" + quote(path("stderr")) + "; exit $?").status, 74) << option;
    const std::string message = readFile(path("stderr"));
    EXPECT_NE(message.find("ringkernel-gen: error: cannot write to standard output"), std::string::npos) << message;
    EXPECT_EQ(message.find("LLVM ERROR"), std::string::npos) << message;
  }
}

unsigned mode(const std::string& file) {
  struct stat info {};
  return ::stat(file.c_str(), &info) == 0 ? (info.st_mode & 07777u) : 0u;
}

// The directories the tool creates (--output-dir, those of the depfile and the stamp) were 0750
// whatever the umask; the registry's were 0755. Now the umask decides in both modes.
TEST_F(CliTest, CreatedDirectoriesFollowTheUmask) {
  const std::string ping = write("ping.h", kPing);
  const CliResult result = runGenerator("--output-dir " + quote(path("a/out")) + " --depfile " + quote(path("d/x.d")) +
                                            " --stamp " + quote(path("s/x.stamp")) + " " + quote(ping),
                                        "umask 022 &&");
  ASSERT_EQ(result.status, 0) << result.output;
  for (const char* dir : {"a", "a/out", "d", "s"}) EXPECT_EQ(mode(path(dir)), 0755u) << dir;
  const CliResult registry = runGenerator("registry --name app --output-dir " + quote(path("r/reg")) + " " +
                                              quote(path("a/out/ping.rk.json")),
                                          "umask 027 &&");
  ASSERT_EQ(registry.status, 0) << registry.output;
  for (const char* dir : {"r", "r/reg"}) EXPECT_EQ(mode(path(dir)), 0750u) << dir;
  const CliResult other = runGenerator("--output-dir " + quote(path("b/out")) + " " + quote(ping), "umask 077 &&");
  ASSERT_EQ(other.status, 0) << other.output;
  EXPECT_EQ(mode(path("b/out")), 0700u);
}

// "cannot write '<dir>/ping.rk.h.tmp.17860'" named the temporary file and not why. A directory where
// the temporary file goes (its name has the generator's pid: the shell's, kept by exec) makes the
// write fail.
TEST_F(CliTest, AnOutputThatCannotBeWrittenIsNamedWithTheReason) {
  const std::string ping = write("ping.h", kPing);
  const CliResult result =
      runGenerator("--output-dir " + quote(path("out")) + " " + quote(ping),
                   "mkdir -p " + quote(path("out/ping.rk.h.tmp.")) + "$$ && exec");
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen: error: cannot write '" + path("out/ping.rk.h") + "': Is a directory"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("out/ping.rk.h")));

  ASSERT_EQ(runGenerator("--output-dir " + quote(path("gen")) + " " + quote(ping)).status, 0);
  const CliResult registry =
      runGenerator("registry --name app --output-dir " + quote(path("reg")) + " " + quote(path("gen/ping.rk.json")),
                   "mkdir -p " + quote(path("reg/app.registry.rk.h.tmp.")) + "$$ && exec");
  EXPECT_EQ(registry.status, 1) << registry.output;
  EXPECT_NE(registry.output.find("cannot write '" + path("reg/app.registry.rk.h") + "': Is a directory"),
            std::string::npos)
      << registry.output;
}

}  // namespace
