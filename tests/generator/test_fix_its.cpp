// Copyright RingKernel authors.
// Every "did you mean" of the generator (the attribute's name, its keys, the words of direction,
// format and causal) is also a clang fix-it: the replacement over exactly the wrong token, printed
// under the caret, except where the token is in a macro's definition (clang edits no macro).
#include <gtest/gtest.h>

#include <cstring>

#include "frontend_harness.h"

namespace ringkernel::gen {
namespace {

using testing::findError;
using testing::findNoteAfter;
using testing::positionOf;
using testing::runFrontendOn;

struct Suggestion {
  std::string source;
  const char* message;      // a fragment of the error
  const char* wrong;        // the token the fix-it replaces (its first occurrence in source)
  const char* replacement;
};

void PrintTo(const Suggestion& suggestion, std::ostream* out) { *out << suggestion.source; }

class SuggestionFixIts : public ::testing::TestWithParam<Suggestion> {};

TEST_P(SuggestionFixIts, ReplaceExactlyTheWrongToken) {
  const Suggestion& s = GetParam();
  const auto run = runFrontendOn(s.source);
  const RecordedDiagnostic* error = findError(run, s.message);
  ASSERT_NE(error, nullptr) << run.printed;
  ASSERT_EQ(error->fixIts.size(), 1u) << run.printed;
  const RecordedFixIt& fixIt = error->fixIts.front();
  const testing::Position at = positionOf(s.source, s.wrong);
  EXPECT_EQ(fixIt.line, at.line);
  EXPECT_EQ(fixIt.column, at.column);
  EXPECT_EQ(fixIt.endLine, at.line);
  EXPECT_EQ(fixIt.endColumn, at.column + std::strlen(s.wrong));
  EXPECT_EQ(fixIt.text, s.replacement);
  EXPECT_TRUE(run.result.headers.empty() || run.result.headers.front().messages.empty());
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, SuggestionFixIts,
    ::testing::Values(
        Suggestion{"struct [[ringkernel::message(prioirty = 3)]] A { int a; };\n",
                   "unknown key 'prioirty' in [[ringkernel::message]]; did you mean 'priority'?", "prioirty",
                   "priority"},
        Suggestion{"struct [[ringkernel::message(ID = 3)]] A { int a; };\n", "did you mean 'id'?", "ID",
                   "id"},
        Suggestion{"struct [[ringkernel::message(id = 1,\n    direction = inptu)]] A { int a; };\n",
                   "bad value 'inptu' for 'direction'; did you mean 'input'?", "inptu", "input"},
        Suggestion{"struct [[ringkernel::message(format = Map)]] A { int a; };\n",
                   "for 'format'; did you mean 'map'?", "Map", "map"},
        Suggestion{"struct [[ringkernel::message(causal = ture)]] A { int a; };\n",
                   "for 'causal'; did you mean 'true'?", "ture", "true"},
        Suggestion{"struct [[ringkernel::mesage(id = 3)]] A { int a; };\n",
                   "unknown attribute 'ringkernel::mesage'", "mesage", "message"},
        Suggestion{"struct [[ringkernel ::  Message]] A { int a; };\n",
                   "unknown attribute 'ringkernel::Message'", "Message", "message"},
        // A misspelt namespace: the fix-it rewrites it and the name together.
        Suggestion{"struct [[RingKernel::message(id = 3)]] A { int a; };\n",
                   "unknown attribute 'RingKernel::message'; did you mean 'ringkernel::message'?",
                   "RingKernel::message", "ringkernel::message"},
        Suggestion{"struct [[ringkernl::mesage]] A { int a; };\n",
                   "unknown attribute 'ringkernl::mesage'; did you mean 'ringkernel::message'?",
                   "ringkernl::mesage", "ringkernel::message"},
        // In a macro's argument the tokens are written at the use: that is where the fix goes.
        Suggestion{"#define DECLARE(d) d\n"
                   "DECLARE(struct [[ringkernel::message(format = mpa)]] A { int a; };)\n",
                   "did you mean 'map'?", "mpa", "map"},
        Suggestion{"#define DECLARE(d) d\nDECLARE(struct [[ringkernel::mesage]] A { int a; };)\n",
                   "unknown attribute 'ringkernel::mesage'", "mesage", "message"}));

// Clang's printer shows the replacement under the caret, which underlines the whole token; the
// note says what the fix-it does not (the valid keys) and does not repeat the source line.
TEST(SuggestionFixIts, PrintedUnderTheCaret) {
  const auto run = runFrontendOn("struct [[ringkernel::message(prioirty = 3)]] Bar { int a; };\n");
  EXPECT_NE(run.printed.find("/ringkernel-test/messages.h:1:30: error: unknown key 'prioirty' in "
                             "[[ringkernel::message]]; did you mean 'priority'?\n"
                             "    1 | struct [[ringkernel::message(prioirty = 3)]] Bar { int a; };\n"
                             "      |                              ^~~~~~~~\n"
                             "      |                              priority\n"
                             "/ringkernel-test/messages.h:1:30: note: fix: valid keys are id, kernel, "
                             "direction, priority, causal, format\n"),
            std::string::npos)
      << run.printed;
}

// For the attribute's name the fix-it says it all: no note.
TEST(SuggestionFixIts, MisspeltAttributeNameHasTheFixItInsteadOfTheNote) {
  const auto run = runFrontendOn("struct [[ringkernel::mesage]] Foo { int a; };\n");
  EXPECT_NE(run.printed.find("/ringkernel-test/messages.h:1:10: error: unknown attribute "
                             "'ringkernel::mesage'; the only one is ringkernel::message, and compilers "
                             "ignore every ringkernel:: attribute\n"
                             "    1 | struct [[ringkernel::mesage]] Foo { int a; };\n"
                             "      |          ^~~~~~~~~~~~~~~~~~\n"
                             "      |                      message\n"),
            std::string::npos)
      << run.printed;
  EXPECT_EQ(run.printed.find("note:"), std::string::npos) << run.printed;
  EXPECT_EQ(testing::errorCount(run), 1u);
}

// No likely typo, no fix-it: the note gives the fix, without repeating the source line.
TEST(SuggestionFixIts, NoneWithoutASuggestion) {
  const std::string source = "struct [[ringkernel::message(bogus = 1, direction = sideways)]] A { int a; };\n"
                             "struct [[ringkernel::msg]] B { int a; };\n";
  const auto run = runFrontendOn(source);
  for (const auto& [message, note] :
       {std::pair{"unknown key 'bogus'", "valid keys are"},
        std::pair{"bad value 'sideways'", "write one of input"},
        std::pair{"unknown attribute 'ringkernel::msg'", "write [[ringkernel::message]]"}}) {
    const RecordedDiagnostic* error = findError(run, message);
    ASSERT_NE(error, nullptr) << run.printed;
    EXPECT_TRUE(error->fixIts.empty()) << message;
    EXPECT_NE(findNoteAfter(run, *error, note), nullptr) << message << "\n" << run.printed;
  }
  EXPECT_EQ(run.printed.find("did you mean"), std::string::npos) << run.printed;
  // The caret underlines the whole token.
  EXPECT_NE(run.printed.find("      | " + std::string(29, ' ') + "^~~~~\n"), std::string::npos)
      << run.printed;
  // The source line under each of its errors (two on line 1), not again under the notes at the same
  // place.
  const auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = run.printed.find(needle); at != std::string::npos;
         at = run.printed.find(needle, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count("    1 | "), 2u) << run.printed;
  EXPECT_EQ(count("    2 | "), 1u) << run.printed;
}

// A fix-it in a macro's definition would change every use of the macro (clang refuses those): the
// question stays in the message, the note gives the fix.
TEST(SuggestionFixIts, NoneInAMacroDefinition) {
  for (const char* source : {"#define RK [[ringkernel::message(direction = outptu)]]\nstruct RK A { int a; };\n",
                             "#define RK [[ringkernel::mesage]]\nstruct RK A { int a; };\n",
                             "#define RK(n) struct [[ringkernel::message(ID = 1)]] n\nRK(A) { int a; };\n"}) {
    const auto run = runFrontendOn(source);
    ASSERT_EQ(testing::errorCount(run), 1u) << run.printed;
    const RecordedDiagnostic* error = findError(run, "");
    ASSERT_NE(error, nullptr);
    EXPECT_TRUE(error->fixIts.empty()) << run.printed;
    EXPECT_NE(findNoteAfter(run, *error, "fix: "), nullptr) << run.printed;
  }
  const auto commandLine = runFrontendOn("struct RK A { int a; };\n", "x86_64-linux-gnu", {},
                                         {"-DRK=[[ringkernel::message(format=mpa)]]"});
  const RecordedDiagnostic* error = findError(commandLine, "did you mean 'map'?");
  ASSERT_NE(error, nullptr) << commandLine.printed;
  EXPECT_TRUE(error->fixIts.empty()) << commandLine.printed;
}

}  // namespace
}  // namespace ringkernel::gen
