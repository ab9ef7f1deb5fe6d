// Copyright RingKernel authors.
// Runs the built ringkernel-gen with compiler arguments: after `--`, from --compile-args-file, and
// from a build directory's compile_commands.json (-p), including the commands of g++ targets, whose
// warning options and options clang does not know must not fail the run.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;
using Result = CliResult;

TEST_F(CliTest, CompilerArgumentsAfterDoubleDash) {
  const std::string header = write("def.h", "#ifndef NEEDED\n#error NEEDED is not defined\n#endif\n"
                                            "struct [[ringkernel::message]] D { int a; };\n");
  const Result without = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(without.status, 1) << without.output;
  const Result with = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- -DNEEDED");
  EXPECT_NE(with.status, 1) << with.output;
  EXPECT_NE(with.status, 2) << with.output;
}

// Printed locations are the ones clang itself prints (presumed: after #line, and <command line> for
// a -D macro), the same as the recorded ones; they were the physical ones (<built-in>:481:9).
TEST_F(CliTest, PrintedLocationsFollowLineDirectivesAndNameTheCommandLine) {
  const std::string header = write("loc.h", "#line 100 \"virtual.h\"\n"
                                            "struct [[ringkernel::message(kernel = K)]] A { int x; };\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- -DK=Add");
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("virtual.h:100:39: error: bad value 'K' (expands to 'Add')"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("<command line>:1:9: note: expanded from macro 'K'"), std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("<built-in>"), std::string::npos) << result.output;
}

TEST_F(CliTest, CompileArgsFileLinesAreArgumentsAsWritten) {
  // One argument per line, not shell words: a directory with a space, a definition with quotes.
  write("with space/sized.h", "#define SIZE 3\n");
  const std::string header = write("args.h", "#include \"sized.h\"\n"
                                             "static_assert(sizeof(LABEL) == 4, \"LABEL is the 3-char string\");\n"
                                             "struct [[ringkernel::message]] A { char text[SIZE]; };\n");
  const std::string args = write("compile.args", "-I" + path("with space") + "\r\n\n-DLABEL=\"x y\"\n");
  const Result ok = runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " + quote(args) + " " +
                                 quote(header) + " -- -std=c++20");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_TRUE(fs::exists(path("out/args.rk.h"))) << ok.output;

  const Result missing = runGenerator("--output-dir " + quote(path("out2")) + " --compile-args-file " +
                                      quote(path("nope.args")) + " " + quote(header));
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("cannot read --compile-args-file"), std::string::npos) << missing.output;
  const Result withBuildPath = runGenerator("--output-dir " + quote(path("out3")) + " --compile-args-file " +
                                            quote(args) + " -p " + quote(path("")) + " " + quote(header));
  EXPECT_EQ(withBuildPath.status, 2) << withBuildPath.output;
  EXPECT_FALSE(fs::exists(path("out2/args.rk.h")));
}

TEST_F(CliTest, CompileCommandsFromBuildDirectory) {
  const std::string header = write("src/def.h", "#ifndef NEEDED\n#error NEEDED is not defined\n#endif\n"
                                                "struct [[ringkernel::message]] D { int a; };\n");
  write("src/def.cpp", "#include \"def.h\"\n");
  write("build/compile_commands.json",
        "[{\"directory\": \"" + path("build") + "\", \"file\": \"" + path("src/def.cpp") +
            "\", \"command\": \"c++ -std=c++20 -DNEEDED -c " + path("src/def.cpp") + "\"}]\n");
  const Result result =
      runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.output.find("NEEDED is not defined"), std::string::npos) << result.output;
  EXPECT_NE(result.status, 1) << result.output;
  EXPECT_NE(result.status, 2) << result.output;
}

TEST_F(CliTest, CompileCommandsOfGccTargetsWithWerror) {
  const std::string header = write("src/def.h", "struct [[ringkernel::message]] D { int a; };\n");
  write("src/def.cpp", "#include \"def.h\"\n");
  // What a g++ target that links RingKernel::runtime and builds with -Werror has in its command.
  write("build/compile_commands.json",
        "[{\"directory\": \"" + path("build") + "\", \"file\": \"" + path("src/def.cpp") +
            "\", \"command\": \"c++ -std=c++20 -Wall -Werror -Wno-attributes=ringkernel:: -Wlogical-op -c " +
            path("src/def.cpp") + "\"}]\n");
  const Result result =
      runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.output.find("unknown warning option"), std::string::npos) << result.output;
  EXPECT_NE(result.status, 1) << result.output;
  EXPECT_NE(result.status, 2) << result.output;
}

/// A compile_commands.json for src/def.cpp whose command is `c++ <options> -c src/def.cpp`.
std::string compileCommands(const std::string& directory, const std::string& source,
                            const std::string& options) {
  return "[{\"directory\": \"" + directory + "\", \"file\": \"" + source + "\", \"command\": \"c++ " +
         options + " -c " + source + "\"}]\n";
}

// What g++ accepts and clang's driver does not, next to -Werror; -Xclang's value alone would be
// unknown to the driver as well, but it is the value of an option clang knows and must stay (the
// static_assert needs it). The note names each dropped option once for both headers.
constexpr const char* kGccOnlyOptions =
    "-std=c++20 -Wall -Werror -fconcepts-diagnostics-depth=2 -fno-allow-store-data-races "
    "-Xclang -fwchar-type=short -Xclang -fno-signed-wchar";
constexpr const char* kIgnoredNote =
    "ringkernel-gen: note: ignoring compiler options clang does not know: "
    "-fconcepts-diagnostics-depth=2 -fno-allow-store-data-races\n";

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST_F(CliTest, CompileCommandsWithOptionsClangDoesNotKnow) {
  const std::string a = write("src/a.h",
                              "static_assert(sizeof(wchar_t) == 2, \"-Xclang's value was kept\");\n"
                              "struct [[ringkernel::message]] A { int a; };\n");
  const std::string b = write("src/b.h", "struct [[ringkernel::message]] B { int b; };\n");
  write("src/def.cpp", "#include \"a.h\"\n#include \"b.h\"\n");
  write("build/compile_commands.json", compileCommands(path("build"), path("src/def.cpp"), kGccOnlyOptions));
  const Result result = runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) +
                                     " " + quote(a) + " " + quote(b));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_TRUE(fs::exists(path("out/a.rk.h"))) << result.output;
  EXPECT_TRUE(fs::exists(path("out/b.rk.h"))) << result.output;
  EXPECT_EQ(occurrences(result.output, kIgnoredNote), 1u) << result.output;
  EXPECT_EQ(result.output.find("unknown argument"), std::string::npos) << result.output;
}

TEST_F(CliTest, CompileCommandsWithOptionsClangDoesNotKnowStillReportRealErrors) {
  const std::string header =
      write("src/bad.h", "#include \"missing.h\"\nstruct [[ringkernel::message]] M { int a; };\n");
  write("src/def.cpp", "#include \"bad.h\"\n");
  write("build/compile_commands.json", compileCommands(path("build"), path("src/def.cpp"), kGccOnlyOptions));
  const Result result = runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) +
                                     " " + quote(header));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find(header + ":1:10: fatal error: 'missing.h' file not found"), std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("unknown argument"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(CliTest, OptionsClangDoesNotKnowAfterDoubleDashAndInCompileArgsFile) {
  const std::string header = write("def.h", "struct [[ringkernel::message]] D { int a; };\n");
  const std::string args = write("compile.args", "-fno-allow-store-data-races\n-Werror\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " +
                                     quote(args) + " " + quote(header) +
                                     " -- -std=c++20 -fconcepts-diagnostics-depth=2");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find(kIgnoredNote), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(path("out/def.rk.h"))) << result.output;
}

// -p without a usable compile_commands.json used to print "Running without flags." and succeed:
// the layouts then silently missed the target's definitions and flags.
TEST_F(CliTest, BuildPathWithoutACompilationDatabaseIsBadUsage) {
  const std::string header = write("p.h", "struct [[ringkernel::message]] P { int a; };\n");
  write("corrupt/compile_commands.json", "[{\"directory\": 5}");
  fs::create_directories(path("empty"));
  for (const std::string dir : {"corrupt", "empty"}) {
    const Result result =
        runGenerator("-p " + quote(path(dir)) + " --output-dir " + quote(path("out")) + " " + quote(header));
    EXPECT_EQ(result.status, 2) << dir << "\n" << result.output;
    EXPECT_NE(result.output.find("cannot load a compilation database"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(path("out"))) << dir;
  }
}

// --compile-args-file=<file> (one argument) is read like --compile-args-file <file>; given twice it
// is bad usage (the first one used to be dropped without a word).
TEST_F(CliTest, CompileArgsFileGivenWithEquals) {
  const std::string header = write("eq.h", "struct [[ringkernel::message]] E { char text[SIZE]; };\n");
  write("wrong.args", "-DSIZE=\n");
  const std::string args = write("eq.args", "-DSIZE=3\n");
  const Result ok = runGenerator("--output-dir " + quote(path("out")) + " -compile-args-file=" + quote(args) + " " +
                                 quote(header));
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(readFile(path("out/eq.rk.json")).find("\"extents\":[3]"), std::string::npos) << readFile(path("out/eq.rk.json"));
  const Result twice = runGenerator("--output-dir " + quote(path("out2")) + " --compile-args-file=" +
                                    quote(path("wrong.args")) + " -compile-args-file=" + quote(args) + " " + quote(header));
  EXPECT_EQ(twice.status, 2) << twice.output;
  EXPECT_NE(twice.output.find("ringkernel-gen: error: --compile-args-file is given 2 times; give it once"),
            std::string::npos)
      << twice.output;
  EXPECT_FALSE(fs::exists(path("out2")));
}

// -p with `--`: libTooling took the arguments after `--` as the whole command and never read the
// database (the -D it gives was silently missing). With --compile-args-file, a `-p` after `--` is a
// compiler argument, not the tool's -p.
TEST_F(CliTest, BuildPathWithDoubleDashIsBadUsage) {
  const std::string header = write("src/def.h", "#ifndef NEEDED\n#error NEEDED is not defined\n#endif\n"
                                                "struct [[ringkernel::message]] D { int a; };\n");
  write("build/compile_commands.json", compileCommands(path("build"), path("src/def.cpp"), "-std=c++20 -DNEEDED"));
  const Result result = runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " +
                                     quote(header) + " -- -DOTHER");
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen: error: -p cannot be combined with '--'"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("--extra-arg=<arg>"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(path("out")));

  const std::string args = write("compile.args", "-DNEEDED\n");
  const Result afterSeparator = runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " +
                                             quote(args) + " " + quote(header) + " -- -std=c++20 -p");
  EXPECT_EQ(afterSeparator.output.find("cannot be combined with -p"), std::string::npos) << afterSeparator.output;
  EXPECT_NE(afterSeparator.output.find("'-p'"), std::string::npos) << afterSeparator.output;  // clang's word
}

// A compile_commands.json that is not JSON: the YAML parser's error was printed twice, without the
// file's name, followed by "the compilation database gives it no compile command".
TEST_F(CliTest, MalformedCompilationDatabaseIsReportedOnceWithItsPath) {
  const std::string header = write("p.h", "struct [[ringkernel::message]] P { int a; };\n");
  write("build/compile_commands.json", "[\n");
  const Result result =
      runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find(path("build") + "/compile_commands.json:2:1: not valid JSON"), std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("YAML"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("no compile command"), std::string::npos) << result.output;
}

// `-x c++` given: the header is clang's main file and its #pragma once warned ("#pragma once in main
// file"), an error under -Werror.
TEST_F(CliTest, PragmaOnceWithAnExplicitLanguage) {
  const std::string header = write("once.h", "#pragma once\nstruct [[ringkernel::message]] O { int a; };\n");
  const Result result =
      runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- -x c++ -std=c++20 -Werror");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output.find("pragma once"), std::string::npos) << result.output;
}

// A header parsed as C gave "unknown attribute 'ringkernel::message'; the only one is
// ringkernel::message"; one parsed as C++17 was generated and the .rk.h then stopped the consumer's
// compile with #error. Both are refused at the header.
TEST_F(CliTest, HeaderParsedAsCOrOlderCxxIsRefused) {
  const std::string header = write("m.h", "struct [[ringkernel::message]] M { int a; };\n");
  const struct {
    std::string arguments;
    std::string says;
  } cases[] = {
      {"-x c -std=c2x", ":1:1: error: the compiler arguments make clang parse this header as C (c23), not C++"},
      {"-x c -std=c11", ":1:1: error: the compiler arguments make clang parse this header as C (c11), not C++"},
      // No -std: clang's default C standard (the generator's -std=c++20 must not be added to C).
      {"-x c", ":1:1: error: the compiler arguments make clang parse this header as C ("},
      {"-std=c++17", ":1:1: error: the compiler arguments make clang parse this header as C++ older than C++20 (c++17)"},
      {"-std=gnu++14", ":1:1: error: the compiler arguments make clang parse this header as C++ older than C++20 (gnu++14)"},
  };
  for (const auto& [arguments, says] : cases) {
    const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- " + arguments);
    EXPECT_EQ(result.status, 1) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(header + says), std::string::npos) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen needs C++20 or later"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("unknown attribute"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(path("out"))) << arguments;
  }
  EXPECT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " -- -std=gnu++2a").status, 0);
}

// clang's own error (an unknown --target, a file it cannot read) was followed by "X was not parsed
// (no compile command for it?)".
TEST_F(CliTest, NoSecondErrorAfterClangReportedWhyAHeaderWasNotParsed) {
  const std::string header = write("m.h", "struct [[ringkernel::message]] M { int a; };\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " --target=foo-bar-baz " + quote(header));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("unknown target triple 'foo-bar-baz'"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("was not parsed"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nothing was written (1 error in the input)"), std::string::npos) << result.output;
}

// A target with C++ and CUDA sources: libTooling gives a header the command of the source nearest
// to its name, here the nvcc command of messages_kernel.cu, and clang then parsed the header as
// CUDA (and failed in CUDA's headers). The header takes the C++ source's command instead.
std::string cudaCommand(const std::string& directory, const std::string& source) {
  return "{\"directory\": \"" + directory + "\", \"file\": \"" + source +
         "\", \"command\": \"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
         "--generate-code=arch=compute_90,code=[compute_90,sm_90] -x cu -c " + source + "\"}";
}

TEST_F(CliTest, CompileCommandsOfATargetWithCudaSourcesGiveTheHeaderTheCxxOnes) {
  const std::string header = write("src/messages.h", "#ifndef NEEDED\n#error NEEDED is not defined\n#endif\n"
                                                     "struct [[ringkernel::message]] M { int a; };\n");
  write("src/main.cpp", "#include \"messages.h\"\n");
  write("src/messages_kernel.cu", "#include \"messages.h\"\n");
  write("build/compile_commands.json",
        "[{\"directory\": \"" + path("build") + "\", \"file\": \"" + path("src/main.cpp") +
            "\", \"command\": \"c++ -std=c++20 -DNEEDED -c " + path("src/main.cpp") + "\"},\n" +
            cudaCommand(path("build"), path("src/messages_kernel.cu")) + "]\n");
  const Result result =
      runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output.find("NEEDED is not defined"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(path("out/messages.rk.h"))) << result.output;
}

// The C++ source's command names it relative to its directory ("../src/main.cpp", as Bear writes
// it) while "file" is absolute: the header still takes its place (clang parsed main.cpp instead).
TEST_F(CliTest, CompileCommandsWithARelativeSourceArgumentGiveTheHeaderTheirFlags) {
  const std::string header = write("src/messages.h", "#ifndef NEEDED\n#error NEEDED is not defined\n#endif\n"
                                                     "struct [[ringkernel::message]] M { int a; };\n");
  write("src/main.cpp", "#error main.cpp was parsed instead of the header\n");
  write("src/messages_kernel.cu", "#include \"messages.h\"\n");
  write("build/compile_commands.json",
        "[{\"directory\": \"" + path("build") + "\", \"file\": \"" + path("src/main.cpp") +
            "\", \"command\": \"c++ -std=c++20 -DNEEDED -c ../src/./main.cpp\"},\n" +
            cudaCommand(path("build"), path("src/messages_kernel.cu")) + "]\n");
  const Result result =
      runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output.find("was parsed instead"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(path("out/messages.rk.h"))) << result.output;
}

TEST_F(CliTest, CompileCommandsWithoutAnyCxxSourceAreBadUsage) {
  const std::string header = write("src/messages.h", "struct [[ringkernel::message]] M { int a; };\n");
  write("src/messages_kernel.cu", "#include \"messages.h\"\n");
  write("build/compile_commands.json", "[" + cudaCommand(path("build"), path("src/messages_kernel.cu")) + "]\n");
  const Result result =
      runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("is not a C++ one"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("give a C++ compiler's flags after `--`"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

}  // namespace
