// Copyright RingKernel authors.
// Compiler options clang's driver does not know (g++-only ones) are dropped before the parse and
// named once; what clang knows stays, values of known options included; real errors still count.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend_harness.h"
#include "unknown_options.h"

namespace ringkernel::gen {
namespace {

using testing::runFrontendOn;

TEST(UnknownDriverOptions, OnlyWhatTheDriverRejectsNeverAValue) {
  // -Xclang, -include and -MF take the next argument whatever it looks like; after `--` come inputs.
  const std::vector<std::string> command = {
      "g++", "-std=c++20", "-Werror", "-fconcepts-diagnostics-depth=2", "-Xclang", "-fwchar-type=short",
      "-include", "-fanalyzer.h", "-MF", "-fipa-pta", "-fanalyzer", "-I", "inc", "-Wno-attributes=x::",
      "-c", "a.cpp", "--", "-fno-gnu-unique"};
  EXPECT_EQ(unknownDriverOptions(command), (std::vector<std::size_t>{3, 10}));
  EXPECT_TRUE(unknownDriverOptions({"c++", "-O2", "-pthread", "-fcoroutines", "-c", "a.cpp"}).empty());
  EXPECT_TRUE(unknownDriverOptions({}).empty());
  EXPECT_TRUE(unknownDriverOptions({"c++"}).empty());
}

TEST(UnknownDriverOptions, ClangClModeKnowsClOptions) {
  EXPECT_EQ(unknownDriverOptions({"g++", "-Zc:__cplusplus", "a.cpp"}), (std::vector<std::size_t>{1}));
  EXPECT_TRUE(unknownDriverOptions({"clang-cl", "-Zc:__cplusplus", "a.cpp"}).empty());
  EXPECT_TRUE(unknownDriverOptions({"c++", "--driver-mode=cl", "-Zc:__cplusplus", "a.cpp"}).empty());
}

TEST(UnknownDriverOptions, AdjusterDropsThemAndReportsWhat) {
  std::vector<std::vector<std::string>> reports;
  const auto adjust = dropUnknownDriverOptions([&](const std::vector<std::string>& dropped) {
    reports.push_back(dropped);
  });
  EXPECT_EQ(adjust({"g++", "-fanalyzer", "-Wall", "-fipa-pta", "a.h"}, "a.h"),
            (std::vector<std::string>{"g++", "-Wall", "a.h"}));
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports.front(), (std::vector<std::string>{"-fanalyzer", "-fipa-pta"}));
  EXPECT_EQ(adjust({"g++", "-Wall", "a.h"}, "a.h"), (std::vector<std::string>{"g++", "-Wall", "a.h"}));
  EXPECT_EQ(reports.size(), 1u) << "a command without such options is not reported";
}

// -fno-allow-store-data-races and -fconcepts-diagnostics-depth=2 are g++'s; clang's driver refuses them.
const std::vector<std::string> kGccCommand = {"-Werror", "-Wall", "-fconcepts-diagnostics-depth=2",
                                              "-fno-allow-store-data-races"};
constexpr const char* kNote =
    "ringkernel-gen: note: ignoring compiler options clang does not know: -fconcepts-diagnostics-depth=2 "
    "-fno-allow-store-data-races\n";

TEST(UnknownDriverOptions, GccOnlyOptionsNextToWerrorAreDroppedAndNamed) {
  const std::string source = "#include <cstdint>\nstruct [[ringkernel::message]] P { std::uint32_t a; };\n";
  const auto run = runFrontendOn(source, "x86_64-linux-gnu", {}, kGccCommand);
  EXPECT_EQ(run.result.errorCount, 0u) << run.printed;
  EXPECT_EQ(run.printed, kNote);
  EXPECT_EQ(run.message("P").fields.size(), 1u);
}

TEST(UnknownDriverOptions, KnownOptionsWithSeparateValuesStay) {
  // Both need their values: wchar_t is 16-bit only with -Xclang's, PRELUDE comes from -include's.
  std::vector<std::string> args = kGccCommand;
  args.insert(args.end(), {"-Xclang", "-fwchar-type=short", "-Xclang", "-fno-signed-wchar", "-include",
                           "/ringkernel-test/prelude.h"});
  const auto run = runFrontendOn("static_assert(sizeof(wchar_t) == 2, \"-Xclang's value was dropped\");\n"
                                 "struct [[ringkernel::message]] P { char a[PRELUDE]; };\n",
                                 "x86_64-linux-gnu",
                                 {{"/ringkernel-test/prelude.h", "#define PRELUDE 3\n"}}, args);
  EXPECT_EQ(run.result.errorCount, 0u) << run.printed;
  EXPECT_EQ(run.printed, kNote);
  EXPECT_EQ(run.message("P").size, 3u);
}

TEST(UnknownDriverOptions, RealErrorsAreStillReported) {
  const std::string missing = "#include \"missing.h\"\nstruct [[ringkernel::message]] P { int a; };\n";
  const auto notFound = runFrontendOn(missing, "x86_64-linux-gnu", {}, kGccCommand);
  EXPECT_EQ(notFound.result.errorCount, 1u) << notFound.printed;
  ASSERT_FALSE(notFound.result.diagnostics.empty()) << notFound.printed;
  const RecordedDiagnostic& fatal = notFound.result.diagnostics.front();
  EXPECT_EQ(fatal.level, clang::DiagnosticsEngine::Fatal) << notFound.printed;
  EXPECT_EQ(fatal.file, testing::kHeaderPath);
  EXPECT_EQ(fatal.line, 1u);
  EXPECT_EQ(fatal.column, 10u);
  EXPECT_EQ(fatal.message, "'missing.h' file not found");
  EXPECT_EQ(notFound.printed.find("unknown argument"), std::string::npos) << notFound.printed;

  const std::string pointer = "struct [[ringkernel::message]] P { int* p; };\n";
  const auto rejected = runFrontendOn(pointer, "x86_64-linux-gnu", {}, kGccCommand);
  EXPECT_EQ(rejected.result.errorCount, 1u) << rejected.printed;
  EXPECT_TRUE(testing::hasError(rejected, testing::positionOf(pointer, "p;"), {"field 'p'", "pointer"}));
}

}  // namespace
}  // namespace ringkernel::gen
