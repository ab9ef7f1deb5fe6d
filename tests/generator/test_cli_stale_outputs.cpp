// Copyright RingKernel authors.
// --remove-stale-outputs on runs that fail after the parse for other reasons than errors in the
// header (those are in test_cli.cpp): a template that does not load, a depfile path that cannot be
// written, an output that cannot be replaced. With the option, the outputs and the stamp an earlier
// run left are deleted, and the run says so; without it they stay as they were. A directory in the
// way of an output is no output and stays. The registry step does the same for its header.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;

constexpr const char* kHeader =
    "#include <cstdint>\nstruct [[ringkernel::message]] Ping { std::uint64_t id; };\n";
constexpr const char* kFiles[] = {"out/ping.rk.h", "out/ping.rk.cuh", "out/ping.rk.json", "stamp"};

struct Failure {
  const char* name;
  void (*arrange)(const fs::path& dir);  // breaks something after the first, successful run
  const char* option;                    // added to the failing run, with `value` (a path in the
  const char* value;                     // test directory), unless empty
  const char* says;                      // in the failing run's error
  const char* obstacle;                  // a directory arrange() put in the way, which must stay
};

void PrintTo(const Failure& failure, std::ostream* out) { *out << failure.name; }

class StaleOutputs : public CliTest, public ::testing::WithParamInterface<Failure> {
 protected:
  std::string arguments() const {
    return "--output-dir " + quote(path("out")) + " --stamp " + quote(path("stamp")) + " " + quote(path("ping.h"));
  }
  std::string failingArguments() const {
    const Failure& failure = GetParam();
    const std::string option = *failure.option == '\0' ? "" : failure.option + (" " + quote(path(failure.value)));
    return option + " " + arguments();
  }
  bool isObstacle(const std::string& file) const { return file == GetParam().obstacle; }
  /// A successful run (outputs and stamp), then the failure arranged.
  void succeedThenBreak() {
    write("ping.h", kHeader);
    const CliResult first = runGenerator(arguments());
    ASSERT_EQ(first.status, 0) << first.output;
    for (const char* file : kFiles) ASSERT_TRUE(fs::is_regular_file(path(file))) << file;
    GetParam().arrange(dir_);
  }
};

TEST_P(StaleOutputs, AreRemovedWhenAsked) {
  ASSERT_NO_FATAL_FAILURE(succeedThenBreak());
  const CliResult failed = runGenerator(failingArguments() + " --remove-stale-outputs");
  EXPECT_EQ(failed.status, 1) << failed.output;
  EXPECT_NE(failed.output.find(GetParam().says), std::string::npos) << failed.output;
  for (const char* file : kFiles) {
    if (isObstacle(file)) continue;
    EXPECT_FALSE(fs::exists(path(file))) << file << " survived a failed run";
    EXPECT_NE(failed.output.find("ringkernel-gen: removed stale " + path(file) + "\n"), std::string::npos)
        << file << "\n" << failed.output;
  }
  if (*GetParam().obstacle != '\0') {
    EXPECT_TRUE(fs::is_directory(path(GetParam().obstacle))) << "only files a run wrote are removed";
    EXPECT_EQ(failed.output.find("removed stale " + path(GetParam().obstacle)), std::string::npos) << failed.output;
  }
}

TEST_P(StaleOutputs, StayWithoutTheOption) {
  ASSERT_NO_FATAL_FAILURE(succeedThenBreak());
  std::string before[std::size(kFiles)];
  for (std::size_t i = 0; i < std::size(kFiles); ++i) before[i] = readFile(path(kFiles[i]));
  const auto stampTime = fs::last_write_time(path("stamp"));
  const CliResult failed = runGenerator(failingArguments());
  EXPECT_EQ(failed.status, 1) << failed.output;
  EXPECT_NE(failed.output.find(GetParam().says), std::string::npos) << failed.output;
  EXPECT_EQ(failed.output.find("removed stale"), std::string::npos) << failed.output;
  for (std::size_t i = 0; i < std::size(kFiles); ++i) {
    if (isObstacle(kFiles[i])) continue;
    EXPECT_EQ(readFile(path(kFiles[i])), before[i]) << kFiles[i];
  }
  EXPECT_EQ(fs::last_write_time(path("stamp")), stampTime);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(AfterTheParse, StaleOutputs, ::testing::Values(
  Failure{"MalformedTemplate", [](const fs::path& dir) {
            copyTemplates(dir / "templates");
            std::ofstream(dir / "templates/rk_cuh.mustache") << "{{#messages}}unclosed\n";
          }, "--template-dir", "templates", "rk_cuh", ""},
  Failure{"DepfileIsADirectory", [](const fs::path& dir) { fs::create_directories(dir / "ping.d"); },
          "--depfile", "ping.d", "ringkernel-gen: error: cannot write ", "ping.d"},
  Failure{"OutputIsADirectory", [](const fs::path& dir) {
            fs::remove(dir / "out/ping.rk.cuh");
            fs::create_directories(dir / "out/ping.rk.cuh");
          }, "", "", "ringkernel-gen: error: cannot write '", "out/ping.rk.cuh"}));
// clang-format on

// The registry step: a template that does not load removes an earlier run's registry header on request.
TEST_F(CliTest, RegistryWithAMalformedTemplateRemovesItsStaleHeaderOnRequest) {
  const std::string header = write("ping.h", kHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  const std::string registry = "registry --name app --output-dir " + quote(path("out")) + " " +
                               quote(path("out/ping.rk.json"));
  ASSERT_EQ(runGenerator(registry).status, 0);
  copyTemplates(path("templates"));
  write("templates/registry.mustache", "{{#messages}}unclosed\n");
  const std::string broken = registry + " --template-dir " + quote(path("templates"));
  const CliResult kept = runGenerator(broken);
  EXPECT_EQ(kept.status, 1) << kept.output;
  EXPECT_TRUE(fs::exists(path("out/app.registry.rk.h"))) << "removed without --remove-stale-outputs";
  const CliResult removed = runGenerator(broken + " --remove-stale-outputs");
  EXPECT_EQ(removed.status, 1) << removed.output;
  EXPECT_NE(removed.output.find("ringkernel-gen registry: removed stale " + path("out/app.registry.rk.h")),
            std::string::npos)
      << removed.output;
  EXPECT_FALSE(fs::exists(path("out/app.registry.rk.h")));
}

// A directory in the way of the registry header fails the run; it is no stale output and stays.
TEST_F(CliTest, RegistryKeepsADirectoryInTheWayOfItsHeader) {
  const std::string header = write("ping.h", kHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  fs::create_directories(path("out/app.registry.rk.h"));
  const CliResult result = runGenerator("registry --name app --output-dir " + quote(path("out")) +
                                        " --remove-stale-outputs " + quote(path("out/ping.rk.json")));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen registry: error: cannot write '"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::is_directory(path("out/app.registry.rk.h")));
  EXPECT_EQ(result.output.find("removed stale"), std::string::npos) << result.output;
}

}  // namespace
