// Copyright RingKernel authors.
// The warning for a header without a [[ringkernel::message]] type goes through clang's diagnostics
// engine like any clang warning: the compiler arguments control it (-w silences it, -Werror makes it
// an error that fails the run as any error in the input does, -W[no-][error=]ringkernel-no-messages
// names it), and clang's "N warnings generated." counts it. It was printed after the parse, past
// the engine, so that -w and -Werror did nothing to it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;
using Result = CliResult;

constexpr const char* kGoodHeader =
    "#pragma once\n#include <cstdint>\nstruct [[ringkernel::message]] Ping { std::uint64_t id; };\n";
constexpr const char* kPlainHeader = "#pragma once\nstruct Forgotten { int a; };\n";
constexpr const char* kOutputs[] = {"out/good.rk.h", "out/plain.rk.h", "out/plain.rk.cuh", "out/plain.rk.json",
                                    "stamp"};

/// What is printed for `plain`, a header without a message whose outputs are named `stem`.rk.*.
std::string warningText(const std::string& plain, const char* level, const char* option,
                        const std::string& stem = "plain") {
  return plain + ":1:1: " + level + ": no [[ringkernel::message]] type in this header; its " + stem +
         ".rk.h declares no message [" + option + "]\n" + plain +
         ":1:1: note: fix: annotate each message struct (struct [[ringkernel::message]] Name { ... };), or stop "
         "listing this header\n";
}

class HeaderWithoutMessage : public CliTest {
 protected:
  /// good.h and plain.h into out/, with a stamp, then `tail` (" -- <compiler args>", say).
  Result run(const std::string& tail) {
    return runGenerator("--output-dir " + quote(path("out")) + " --stamp " + quote(path("stamp")) + " " +
                        quote(write("good.h", kGoodHeader)) + " " + quote(plain()) + tail);
  }
  std::string plain() { return write("plain.h", kPlainHeader); }
  /// Each run of a loop starts without the outputs and the stamp of the one before.
  void removeOutputs() {
    fs::remove_all(path("out"));
    fs::remove(path("stamp"));
  }
};

// The default: a warning with its fix note at the header (no source line), counted by clang's
// "1 warning generated."; the run succeeds and writes every output.
TEST_F(HeaderWithoutMessage, WarnsAtTheHeaderAndWrites) {
  const Result result = run("");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output, warningText(plain(), "warning", "-Wringkernel-no-messages") + "1 warning generated.\n");
  for (const char* file : kOutputs) EXPECT_TRUE(fs::exists(path(file))) << file;
}

// -w silences it as it silences clang's warnings, and so does its own -Wno-ringkernel-no-messages.
TEST_F(HeaderWithoutMessage, CompilerArgumentsSilenceIt) {
  for (const char* args : {" -- -w", " -- -Wno-ringkernel-no-messages", " -- -w -Werror",
                           " -- -w -Werror=ringkernel-no-messages", " -- -Wno-everything",
                           " -- -Werror=ringkernel-no-messages -Wno-ringkernel-no-messages"}) {
    removeOutputs();
    const Result result = run(args);
    EXPECT_EQ(result.status, 0) << args << "\n" << result.output;
    EXPECT_EQ(result.output, "") << args;
    for (const char* file : kOutputs) EXPECT_TRUE(fs::exists(path(file))) << args << ": " << file;
  }
}

// -Werror (or -Werror=ringkernel-no-messages) makes it an error: the run fails as for any error in
// the input (exit 1, nothing written, "[-Werror,...]" as clang names an error made of a warning).
TEST_F(HeaderWithoutMessage, WerrorMakesItAnErrorAndNothingIsWritten) {
  for (const char* args : {" -- -Werror", " -- -Werror=ringkernel-no-messages",
                           " -- -Wno-ringkernel-no-messages -Werror=ringkernel-no-messages",
                           " -- -Werror=ringkernel-no-messages -Wringkernel-no-messages",
                           " -- -Wno-error=ringkernel-no-messages -Werror=ringkernel-no-messages"}) {
    const Result result = run(args);
    EXPECT_EQ(result.status, 1) << args << "\n" << result.output;
    EXPECT_EQ(result.output, warningText(plain(), "error", "-Werror,-Wringkernel-no-messages") +
                                 "1 error generated.\n"
                                 "ringkernel-gen: nothing was written (1 error in the input)\n")
        << args;
    EXPECT_FALSE(fs::exists(path("out"))) << args << ": no output may be created on error";
    EXPECT_FALSE(fs::exists(path("stamp"))) << args;
  }
}

// An error like any other in the input: with --remove-stale-outputs, the outputs and the stamp an
// earlier run (without -Werror) left are deleted.
TEST_F(HeaderWithoutMessage, WerrorRemovesStaleOutputsOnRequest) {
  ASSERT_EQ(run("").status, 0);
  const Result result = run(" --remove-stale-outputs -- -Werror");
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find(warningText(plain(), "error", "-Werror,-Wringkernel-no-messages")), std::string::npos)
      << result.output;
  for (const char* file : kOutputs) {
    EXPECT_FALSE(fs::exists(path(file))) << file;
    EXPECT_NE(result.output.find("ringkernel-gen: removed stale " + path(file) + "\n"), std::string::npos) << file;
  }
}

// What keeps it a warning under -Werror, as for clang's own warnings: -Wno-error after it, or
// -Wno-error=ringkernel-no-messages (also after -Werror=ringkernel-no-messages).
TEST_F(HeaderWithoutMessage, NoErrorKeepsItAWarning) {
  for (const char* args : {" -- -Werror -Wno-error", " -- -Werror -Wno-error=ringkernel-no-messages",
                           " -- -Werror=ringkernel-no-messages -Wno-error=ringkernel-no-messages",
                           " -- -Wno-error=ringkernel-no-messages -Werror"}) {
    removeOutputs();
    const Result result = run(args);
    EXPECT_EQ(result.status, 0) << args << "\n" << result.output;
    EXPECT_EQ(result.output, warningText(plain(), "warning", "-Wringkernel-no-messages") + "1 warning generated.\n")
        << args;
    for (const char* file : kOutputs) EXPECT_TRUE(fs::exists(path(file))) << args << ": " << file;
  }
}

// Clang's "N warnings generated." after each header counts that header's warnings: two headers
// without a message each get "1 warning generated." (it said "2 warnings generated." after the
// second), and a header without warnings after them gets none (it repeated the run's total).
TEST_F(HeaderWithoutMessage, EachHeaderCountsItsOwnWarning) {
  const std::string first = write("first.h", kPlainHeader);
  const std::string second = write("second.h", kPlainHeader);
  const Result result =
      runGenerator("--output-dir " + quote(path("out")) + " " + quote(first) + " " + quote(second) + " " +
                   quote(write("good.h", kGoodHeader)));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output, warningText(first, "warning", "-Wringkernel-no-messages", "first") +
                               "1 warning generated.\n" +
                               warningText(second, "warning", "-Wringkernel-no-messages", "second") +
                               "1 warning generated.\n");
}

// The same for errors: each header's count after it, and the run's total (the sum) in the last line.
// A header without a message after them still gets its warning (the errors were another header's).
TEST_F(HeaderWithoutMessage, EachHeaderCountsItsOwnErrorsAndTheRunSumsThem) {
  const std::string one = write("one.h", "struct A { int a; }\n");
  const std::string two = write("two.h", "struct B { int b; }\nstruct C { int c; }\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(one) + " " + quote(two) +
                                     " " + quote(plain()));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find(warningText(plain(), "warning", "-Wringkernel-no-messages") + "1 warning generated.\n"),
            std::string::npos)
      << result.output;
  const std::size_t oneCount = result.output.find("\n1 error generated.\n");
  const std::size_t twoAt = result.output.find(two + ":");
  const std::size_t twoCount = result.output.find("\n2 errors generated.\n");
  ASSERT_NE(oneCount, std::string::npos) << result.output;
  ASSERT_NE(twoAt, std::string::npos) << result.output;
  EXPECT_LT(oneCount, twoAt) << result.output;
  EXPECT_LT(twoAt, twoCount) << result.output;
  EXPECT_EQ(result.output.find("3 errors generated."), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("\nringkernel-gen: nothing was written (3 errors in the input)\n"), std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

// A target that builds with -Werror passes it in its compile command (-p): the header without a
// message then fails the run there too.
TEST_F(HeaderWithoutMessage, WerrorFromTheCompileCommands) {
  const std::string header = write("src/plain.h", kPlainHeader);
  write("src/plain.cpp", "#include \"plain.h\"\n");
  write("build/compile_commands.json", "[{\"directory\": \"" + path("build") + "\", \"file\": \"" +
                                           path("src/plain.cpp") + "\", \"command\": \"c++ -std=c++20 -Wall -Werror -c " +
                                           path("src/plain.cpp") + "\"}]\n");
  const Result result =
      runGenerator("-p " + quote(path("build")) + " --output-dir " + quote(path("out")) + " " + quote(header));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find(warningText(header, "error", "-Werror,-Wringkernel-no-messages")), std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

// A header with errors gets no second word for having no message (the error says what is wrong):
// clang's own, or the one the tool makes of clang's warning for a misspelt attribute.
TEST_F(HeaderWithoutMessage, NotForAHeaderWithErrors) {
  for (const auto& [source, error] :
       {std::pair{"struct Forgotten { int a; }\n", "error: expected ';' after struct"},
        std::pair{"struct [[ringkernel::mesage]] Foo { int a; };\n", "error: unknown attribute 'ringkernel::mesage'"}}) {
    const std::string header = write("broken.h", source);
    const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header));
    EXPECT_EQ(result.status, 1) << result.output;
    EXPECT_NE(result.output.find(error), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("no [[ringkernel::message]]"), std::string::npos) << result.output;
  }
}

// An umbrella header (it only includes the headers that declare the messages): the fix used to be
// "annotate each message struct ..., or stop listing this header", which did not say that a header's
// messages are generated only from that header. It says so now, and a note at the first message of
// each included header names it.
TEST_F(HeaderWithoutMessage, AnUmbrellaHeaderNamesTheIncludedHeadersWithMessages) {
  const std::string real = write("real.h", kGoodHeader);
  const std::string all = write("all.h", "#pragma once\n#include \"real.h\"\n");
  const Result result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(all));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find(all + ":1:1: warning: no [[ringkernel::message]] type in this header"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find(all + ":1:1: note: fix: the messages are declared in headers this one includes (below), "
                                     "and a header's messages are generated only from that header itself: list those "
                                     "headers"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find(real + ":3:32: note: 'Ping' is a message of 'real.h' (1 message there), which this "
                                      "header includes"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("annotate each message struct"), std::string::npos) << result.output;
}

}  // namespace
