// Copyright RingKernel authors.
// Runs the built ringkernel-gen: exit status 2 on bad usage, 1 on input errors (and then no output
// file), --version, builtin and standard headers found without flags, and the success path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;
using namespace std::string_literals;
using Result = CliResult;

constexpr const char* kGoodHeader =
    "#pragma once\n#include <stddef.h>\n#include <cstdint>\n"
    "namespace app {\n"
    "struct [[ringkernel::message(kernel = \"Add\", direction = input)]] AddRequest { std::int32_t a, b; };\n"
    "struct [[ringkernel::message]] AddResponse { std::int64_t sum; std::size_t n; };\n"
    "}\n";

TEST_F(CliTest, VersionNamesGeneratorAndClang) {
  const Result result = runGenerator("--version");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find(std::string("ringkernel-gen ") + RINGKERNEL_GEN_VERSION + " (clang 19."),
            std::string::npos)
      << result.output;
}

TEST_F(CliTest, HelpDescribesTheOptions) {
  const Result result = runGenerator("--help");
  EXPECT_EQ(result.status, 0) << result.output;
  for (const char* option : {"--output-dir", "--depfile", "--target", "--template-dir", "--stamp"}) {
    EXPECT_NE(result.output.find(option), std::string::npos) << option << "\n" << result.output;
  }
}

TEST_F(CliTest, UnknownOptionIsBadUsage) {
  const std::string header = write("a.h", kGoodHeader);
  const Result result = runGenerator("--no-such-option --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(CliTest, MissingOutputDirIsBadUsage) {
  const std::string header = write("a.h", kGoodHeader);
  const Result result = runGenerator(quote(header));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("output-dir"), std::string::npos) << result.output;
}

TEST_F(CliTest, NoInputsIsBadUsage) {
  const Result result = runGenerator("--output-dir " + quote(path("out")));
  EXPECT_EQ(result.status, 2) << result.output;
}

TEST_F(CliTest, MissingInputFileIsBadUsage) {
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(path("missing.h")));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("missing.h"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(CliTest, BadHeaderExitsOneAndWritesNothing) {
  const std::string good = write("good.h", kGoodHeader);
  const std::string bad = write("bad.h", "#include <cstdint>\nstruct [[ringkernel::message]] Bad {\n  int* p;\n};\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " --depfile " +
                                     quote(path("out.d")) + " --stamp " + quote(path("stamp")) + " " +
                                     quote(good) + " " + quote(bad));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find(bad + ":3:8: error: field 'p' of message 'Bad'"), std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("out"))) << "no output may be created on error";
  EXPECT_FALSE(fs::exists(path("out.d")));
  EXPECT_FALSE(fs::exists(path("stamp")));
}

// Reported at the attribute like any other error, with a caret and no "ringkernel-gen: error:"
// prefix in front of the location (it used to be reported by the renderer, prefixed twice).
TEST_F(CliTest, NoUniqueAddressIsAClangStyleErrorAtTheAttribute) {
  const std::string bad = write("tail.h", "struct [[ringkernel::message]] Empty {};\n"
                                          "struct [[ringkernel::message]] Tail {\n"
                                          "  int a;\n"
                                          "  [[no_unique_address]] Empty e;\n"
                                          "};\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(bad));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_EQ(result.output.rfind(bad + ":4:5: error: field 'e' of message 'Tail' is [[no_unique_address]]", 0), 0u)
      << result.output;
  EXPECT_NE(result.output.find("|     ^~~~"), std::string::npos) << result.output;  // caret at column 5
  EXPECT_EQ(result.output.find("ringkernel-gen: error:"), std::string::npos) << result.output;
}

TEST_F(CliTest, DepfileTargetsTheOutputsWithoutStamp) {
  const std::string header = write("messages.h", kGoodHeader);
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " --depfile " +
                                     quote(path("messages.d")) + " " + quote(header));
  ASSERT_EQ(result.status, 0) << result.output;
  std::ifstream depfile(path("messages.d"));
  std::stringstream text;
  text << depfile.rdbuf();
  EXPECT_EQ(text.str().rfind(fs::absolute(path("out/messages.rk.h")).string() + " ", 0), 0u) << text.str();
}

TEST_F(CliTest, RemoveStaleOutputsDeletesAnEarlierRunsFilesOnError) {
  const std::string header = write("messages.h", kGoodHeader);
  const std::string args = "--output-dir " + quote(path("out")) + " --stamp " + quote(path("stamp")) +
                           " --remove-stale-outputs " + quote(header);
  ASSERT_EQ(runGenerator(args).status, 0);
  ASSERT_TRUE(fs::exists(path("out/messages.rk.h")));
  write("messages.h", "#include <cstdint>\nstruct [[ringkernel::message]] Bad {\n  int& r;\n};\n");
  const Result failed = runGenerator(args);
  EXPECT_EQ(failed.status, 1) << failed.output;
  for (const char* file : {"out/messages.rk.h", "out/messages.rk.cuh", "out/messages.rk.json", "stamp"}) {
    EXPECT_FALSE(fs::exists(path(file))) << file << " survived a failed run";
  }
  EXPECT_NE(failed.output.find("removed stale"), std::string::npos) << failed.output;
}

TEST_F(CliTest, WithoutRemoveStaleOutputsAFailedRunModifiesNothing) {
  const std::string header = write("messages.h", kGoodHeader);
  const std::string args = "--output-dir " + quote(path("out")) + " " + quote(header);
  ASSERT_EQ(runGenerator(args).status, 0);
  const auto before = fs::last_write_time(path("out/messages.rk.h"));
  write("messages.h", "#include <cstdint>\nstruct [[ringkernel::message]] Bad {\n  int& r;\n};\n");
  EXPECT_EQ(runGenerator(args).status, 1);
  ASSERT_TRUE(fs::exists(path("out/messages.rk.h")));
  EXPECT_EQ(fs::last_write_time(path("out/messages.rk.h")), before);
}

// clang reports a UTF-16 byte order mark without a location (the file cannot be read, so there is
// no place in it): the error said neither file:line:col nor how to fix it.
TEST_F(CliTest, Utf16ByteOrderMarkIsAnErrorAtTheHeader) {
  const std::string good = write("good.h", kGoodHeader);
  for (const auto& [name, bom, encoding] : {std::tuple{"le.h", "\xFF\xFE", "UTF-16 (LE)"},
                                            std::tuple{"be.h", "\xFE\xFF", "UTF-16 (BE)"}}) {
    const std::string bad = write(name, std::string(bom) + "s\0t\0r\0u\0c\0t\0"s);
    const Result result = runGenerator("--output-dir " + quote(path("out")) + " --depfile " +
                                       quote(path("out.d")) + " --stamp " + quote(path("stamp")) +
                                       " " + quote(good) + " " + quote(bad));
    EXPECT_EQ(result.status, 1) << result.output;
    EXPECT_NE(result.output.find(bad + ":1:1: fatal error: " + encoding + " byte order mark detected"),
              std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find(bad + ":1:1: note: fix: save the header as UTF-8"), std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("\nfatal error:"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.rfind("fatal error:", 0), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(path("out"))) << "no output may be created on error";
    EXPECT_FALSE(fs::exists(path("out.d")));
    EXPECT_FALSE(fs::exists(path("stamp")));
  }
}

TEST_F(CliTest, BadAttributeOptionExitsOne) {
  const std::string bad = write("opt.h", "struct [[ringkernel::message(priority = 999)]] P { int a; };\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(bad));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find(bad + ":1:41: error: bad value '999' for 'priority'"), std::string::npos)
      << result.output;
}

TEST_F(CliTest, StandardAndBuiltinHeadersAreFoundWithoutFlags) {
  const std::string header = write("inc.h", kGoodHeader);
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.output.find("file not found"), std::string::npos) << result.output;
  EXPECT_NE(result.status, 2) << result.output;
}

// RINGKERNEL_CLANG_RESOURCE_DIR (the macro) comes with ringkernel_gen_lib's compile definitions.
TEST_F(CliTest, ResourceDirectoryOverrideIsVerified) {
  const std::string header = write("inc.h", kGoodHeader);
  const Result bad = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header),
                                  "RINGKERNEL_CLANG_RESOURCE_DIR=" + quote(path("nowhere")));
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("is not a clang resource directory"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(path("out")));
  const Result good = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header),
                                   "RINGKERNEL_CLANG_RESOURCE_DIR=" + quote(RINGKERNEL_CLANG_RESOURCE_DIR));
  EXPECT_EQ(good.output.find("file not found"), std::string::npos) << good.output;
  EXPECT_NE(good.status, 2) << good.output;
}

// The success path needs the backend (renderHeader/writeOutputs and the templates).
TEST_F(CliTest, SuccessWritesOutputsDepfileAndStamp) {
  const std::string header = write("dir with space/messages.h", kGoodHeader);
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " --depfile " +
                                     quote(path("deps/messages.d")) + " --stamp " + quote(path("stamp")) +
                                     " " + quote(header));
  ASSERT_EQ(result.status, 0) << result.output;
  for (const char* file : {"out/messages.rk.h", "out/messages.rk.cuh", "out/messages.rk.json"}) {
    EXPECT_TRUE(fs::exists(path(file))) << file;
  }
  EXPECT_TRUE(fs::exists(path("stamp")));
  std::ifstream depfile(path("deps/messages.d"));
  std::stringstream text;
  text << depfile.rdbuf();
  const std::string deps = text.str();
  // With --stamp the stamp is the depfile's target (it is the build rule's output).
  EXPECT_EQ(deps.rfind(fs::absolute(path("stamp")).string() + ":", 0), 0u) << deps;
  EXPECT_NE(deps.find("dir\\ with\\ space/messages.h"), std::string::npos) << deps;
  EXPECT_NE(deps.find("/include/stddef.h"), std::string::npos) << deps;
  EXPECT_NE(deps.find("cstdint"), std::string::npos) << deps;

  // An unchanged rerun keeps the depfile's mtime (written only when its content changes).
  const auto before = fs::last_write_time(path("deps/messages.d"));
  const Result again = runGenerator("--output-dir " + quote(path("out")) + " --depfile " +
                                    quote(path("deps/messages.d")) + " --stamp " + quote(path("stamp")) +
                                    " " + quote(header));
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_EQ(fs::last_write_time(path("deps/messages.d")), before);
}

// The .rk.h includes the header as the include path finds it, also through a symbolic link, and
// the manifest records the same spelling.
TEST_F(CliTest, GeneratedHeaderIncludesTheHeaderRelativeToAnIncludeDirectory) {
  const std::string header = write("real/include/net/commands.h", kGoodHeader);
  fs::create_directory_symlink(path("real"), path("link"));
  const Result result = runGenerator("--output-dir " + quote(path("build/gen")) + " " + quote(header) +
                                     " -- " + quote("-I" + path("link/include")));
  ASSERT_EQ(result.status, 0) << result.output;
  const std::string generated = readFile(path("build/gen/commands.rk.h"));
  EXPECT_NE(generated.find("#include \"net/commands.h\"\n"), std::string::npos) << generated;
  EXPECT_EQ(generated.find(dir_.string()), std::string::npos) << generated;
  EXPECT_NE(readFile(path("build/gen/commands.rk.json")).find("\"include\": \"net/commands.h\""),
            std::string::npos);
  // Without an include directory that holds it: relative to the output directory.
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("build/gen")) + " " + quote(header)).status, 0);
  EXPECT_NE(readFile(path("build/gen/commands.rk.h")).find("#include \"../../real/include/net/commands.h\""),
            std::string::npos);
}

// "<link>/.." is the parent of the link's target, not of the link: the depfile names files that exist.
TEST_F(CliTest, DepfileNamesFilesThatExistWhenIncludesGoThroughSymbolicLinks) {
  write("real/units.h", "#pragma once\n#include <cstdint>\nusing unit_t = std::int32_t;\n");
  fs::create_directories(path("real/deep"));
  fs::create_directory_symlink(path("real/deep"), path("lnk"));
  const std::string header =
      write("messages.h", "#include <units.h>\nstruct [[ringkernel::message]] U { unit_t a; };\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " --depfile " +
                                     quote(path("messages.d")) + " " + quote(header) + " -- " +
                                     quote("-I" + path("lnk/..")));
  ASSERT_EQ(result.status, 0) << result.output;
  const std::string deps = readFile(path("messages.d"));
  EXPECT_NE(deps.find(path("real/units.h")), std::string::npos) << deps;
  std::istringstream lines(deps);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0) continue;  // the target line
    std::string file = line.substr(2);
    if (file.ends_with(" \\")) file.resize(file.size() - 2);
    EXPECT_TRUE(fs::exists(file)) << file << " is in the depfile but does not exist\n" << deps;
  }
}

TEST_F(CliTest, TargetChangesTheLayout) {
  const std::string header = write("abi.h", "struct [[ringkernel::message]] Abi { long a; double d; };\n");
  const Result x64 = runGenerator("--output-dir " + quote(path("x64")) + " --target x86_64-linux-gnu " + quote(header));
  const Result x86 = runGenerator("--output-dir " + quote(path("x86")) + " --target i686-linux-gnu " + quote(header));
  ASSERT_EQ(x64.status, 0) << x64.output;
  ASSERT_EQ(x86.status, 0) << x86.output;
  auto read = [](const std::string& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const std::string manifest64 = read(path("x64/abi.rk.json"));
  const std::string manifest86 = read(path("x86/abi.rk.json"));
  EXPECT_NE(manifest64.find("x86_64"), std::string::npos);
  EXPECT_NE(manifest86.find("i686"), std::string::npos);
  EXPECT_NE(manifest64, manifest86);
}

TEST_F(CliTest, RegistryWithoutNameIsBadUsage) {
  const Result result = runGenerator("registry --output-dir " + quote(path("out")) + " " + quote(path("a.rk.json")));
  EXPECT_EQ(result.status, 2) << result.output;
}

TEST_F(CliTest, RegistryMergesManifests) {
  const std::string header = write("m.h", kGoodHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  const Result result = runGenerator("registry --name app --output-dir " + quote(path("out")) + " " +
                                     quote(path("out/m.rk.json")));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_TRUE(fs::exists(path("out/app.registry.rk.h")));
}

// With a relative include directory (-Iinc) the message a header includes was recorded with a relative
// location.file, and by its own header's manifest with an absolute one: the registry refused the two as
// "described differently by two manifests". Locations are absolute and normalised now.
TEST_F(CliTest, RegistryAcceptsAMessageIncludedThroughARelativeIncludeDirectory) {
  write("inc/geo/vec.h", "#pragma once\n#include <cstdint>\nnamespace geo { struct [[ringkernel::message]] Vec3 { float x, y, z; }; }\n");
  write("inc/app/cmd.h", "#pragma once\n#include \"geo/vec.h\"\nnamespace app { struct [[ringkernel::message]] Move { geo::Vec3 to; }; }\n");
  ASSERT_EQ(runGeneratorIn(dir_.string(), "--output-dir out/geo inc/geo/vec.h -- -std=c++20 -Iinc").status, 0);
  ASSERT_EQ(runGeneratorIn(dir_.string(), "--output-dir out/app inc/app/cmd.h -- -std=c++20 -Iinc").status, 0);
  const std::string absolute = "\"file\":\"" + path("inc/geo/vec.h") + "\"";
  EXPECT_NE(readFile(path("out/app/cmd.rk.json")).find(absolute), std::string::npos) << readFile(path("out/app/cmd.rk.json"));
  EXPECT_NE(readFile(path("out/geo/vec.rk.json")).find(absolute), std::string::npos);
  const Result result = runGeneratorIn(dir_.string(), "registry --name multi --output-dir out out/geo/vec.rk.json out/app/cmd.rk.json");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_TRUE(fs::exists(path("out/multi.registry.rk.h")));
}

// A registry step that fails (here: two headers give one type id) leaves no registry header of an
// earlier run behind when asked to, as the per-header step does; without the option it keeps it.
TEST_F(CliTest, FailedRegistryRemovesItsStaleHeaderOnRequest) {
  const std::string a = write("a.h", "struct [[ringkernel::message(id = 7)]] A { int x; };\n");
  const std::string b = write("b.h", "struct [[ringkernel::message(id = 8)]] B { int x; };\n");
  const std::string registry = "registry --name app --output-dir " + quote(path("out")) + " " +
                               quote(path("out/a.rk.json")) + " " + quote(path("out/b.rk.json"));
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(a) + " " + quote(b)).status, 0);
  ASSERT_EQ(runGenerator(registry).status, 0);
  ASSERT_TRUE(fs::exists(path("out/app.registry.rk.h")));

  write("b.h", "struct [[ringkernel::message(id = 7)]] B { int x; };\n");
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(b)).status, 0);
  const Result kept = runGenerator(registry);
  EXPECT_EQ(kept.status, 1) << kept.output;
  EXPECT_TRUE(fs::exists(path("out/app.registry.rk.h"))) << "removed without --remove-stale-outputs";

  const Result removed = runGenerator(registry + " --remove-stale-outputs");
  EXPECT_EQ(removed.status, 1) << removed.output;
  EXPECT_NE(removed.output.find("removed stale"), std::string::npos) << removed.output;
  EXPECT_FALSE(fs::exists(path("out/app.registry.rk.h")));
}

}  // namespace
