// Copyright RingKernel authors.
// An error about the value of id, priority or kernel underlines the whole value as written (its
// tokens, through the last one), as clang underlines a whole expression: a literal, a negative
// number, a qualified name, the name of a macro (at the use, where the macro is expanded) and a
// function-like macro with its arguments. The underline stays in the text that holds the attribute:
// a macro's definition, a macro's argument at the use, or a -D definition on the command line.
#include <gtest/gtest.h>

#include <cstring>

#include "value_macro_support.h"

namespace ringkernel::gen {
namespace {

using testing::findError;
using testing::runFrontendOn;
using testing::valueAt;

struct BadValue {
  std::string source;
  const char* message;  // a fragment of the error
  const char* key;      // the value is the first `<key> = <written>` of source
  const char* written;
};

void PrintTo(const BadValue& bad, std::ostream* out) { *out << bad.source; }

class ValueRanges : public ::testing::TestWithParam<BadValue> {};

TEST_P(ValueRanges, UnderlineTheWholeValue) {
  const BadValue& bad = GetParam();
  const auto run = runFrontendOn(bad.source);
  const RecordedDiagnostic* error = findError(run, bad.message);
  ASSERT_NE(error, nullptr) << run.printed;
  const testing::Position at = valueAt(bad.source, bad.key, bad.written);
  EXPECT_EQ(error->line, at.line);
  EXPECT_EQ(error->column, at.column);
  ASSERT_EQ(error->ranges.size(), 1u) << run.printed;
  const RecordedRange& range = error->ranges.front();
  EXPECT_EQ(range.line, at.line);
  EXPECT_EQ(range.column, at.column);
  EXPECT_EQ(range.endLine, at.line);
  EXPECT_EQ(range.endColumn, at.column + std::strlen(bad.written)) << run.printed;
  EXPECT_TRUE(error->fixIts.empty());
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, ValueRanges,
    ::testing::Values(
        // Literals.
        BadValue{"struct [[ringkernel::message(id = 0x1'0000'0000)]] A { int a; };\n",
                 "does not fit in 32 bits", "id", "0x1'0000'0000"},
        BadValue{"struct [[ringkernel::message(id = 0x1_0000_0000)]] A { int a; };\n",
                 "expected an unsigned 32-bit integer literal", "id", "0x1_0000_0000"},
        BadValue{"struct [[ringkernel::message(id = 0)]] A { int a; };\n", "type id 0 is reserved", "id", "0"},
        BadValue{"struct [[ringkernel::message(id = -17)]] A { int a; };\n", "negative", "id", "-17"},
        BadValue{"struct [[ringkernel::message(id = \"7\")]] A { int a; };\n", "expected an unsigned", "id",
                 "\"7\""},
        BadValue{"struct [[ringkernel::message(priority = 300)]] A { int a; };\n", "out of range 0-255",
                 "priority", "300"},
        BadValue{"struct [[ringkernel::message(kernel = 42)]] A { int a; };\n", "expected a string literal",
                 "kernel", "42"},
        BadValue{"struct [[ringkernel::message(kernel = \"a b\")]] A { int a; };\n", "not a valid kernel name",
                 "kernel", "\"a b\""},
        // Names, qualified or not, and what they name.
        BadValue{"struct Ids {};\nstruct [[ringkernel::message(id = Ids::kMissing)]] A { int a; };\n",
                 "bad value 'Ids::kMissing'", "id", "Ids::kMissing"},
        BadValue{"namespace ids { constexpr int kZero = 0; }\n"
                 "struct [[ringkernel::message(id = ::ids::kZero)]] A { int a; };\n",
                 "type id 0 is reserved", "id", "::ids::kZero"},
        BadValue{"enum class P { Low = -1 };\nstruct [[ringkernel::message(priority = P::Low)]] A { int a; };\n",
                 "negative", "priority", "P::Low"},
        BadValue{"struct [[ringkernel::message(kernel = kKernel)]] A { int a; };\n", "for 'kernel'", "kernel",
                 "kKernel"},
        // Macros: the name written at the use, whatever it expands to.
        BadValue{"#define ID 0x4000 + 1\nstruct [[ringkernel::message(id = ID)]] A { int a; };\n",
                 "expands to '0x4000 + 1'", "id", "ID"},
        BadValue{"#define BIG (0x100000000)\n#define TELEMETRY_ID BIG\n"
                 "struct [[ringkernel::message(id = TELEMETRY_ID)]] A { int a; };\n",
                 "does not fit in 32 bits", "id", "TELEMETRY_ID"},
        BadValue{"namespace Ids { constexpr int kZero = 0; }\n#define ZERO_ID Ids::kZero\n"
                 "struct [[ringkernel::message(id = ZERO_ID)]] A { int a; };\n",
                 "type id 0 is reserved", "id", "ZERO_ID"},
        BadValue{"#define ID(x) x\nstruct [[ringkernel::message(id = ID((3, 4)), priority = 7)]] A { int a; };\n",
                 "function-like macro", "id", "ID((3, 4))"},
        BadValue{"struct [[ringkernel::message(id = __LINE__)]] A { int a; };\n", "builtin macro", "id",
                 "__LINE__"},
        // The attribute in a macro's definition: the value there; in a macro's argument: at the use.
        BadValue{"#define RK [[ringkernel::message(priority = 300)]]\nstruct RK A { int a; };\n",
                 "out of range 0-255", "priority", "300"},
        BadValue{"#define DECLARE(d) d\nDECLARE(struct [[ringkernel::message(kernel = 42)]] A { int a; };)\n",
                 "expected a string literal", "kernel", "42"}));

// As clang prints it: the caret at the value's first character, '~' under the rest of it.
TEST(ValueRanges, PrintedUnderTheValue) {
  const auto run = runFrontendOn("struct Ids {};\nstruct [[ringkernel::message(id = Ids::kMissing)]] A { int a; };\n"
                                 "struct [[ringkernel::message(priority = 300)]] B { int a; };\n");
  EXPECT_NE(run.printed.find("/ringkernel-test/messages.h:2:35: error: bad value 'Ids::kMissing' for 'id'"),
            std::string::npos)
      << run.printed;
  EXPECT_NE(run.printed.find("    2 | struct [[ringkernel::message(id = Ids::kMissing)]] A { int a; };\n"
                             "      |                                   ^~~~~~~~~~~~~\n"),
            std::string::npos)
      << run.printed;
  EXPECT_NE(run.printed.find("    3 | struct [[ringkernel::message(priority = 300)]] B { int a; };\n"
                             "      |                                         ^~~\n"),
            std::string::npos)
      << run.printed;
}

// -D macros: the name at the use is underlined; a whole attribute defined by -D is underlined in the
// <command line> text that holds it, and nothing else is printed under it.
TEST(ValueRanges, CommandLineMacros) {
  const std::string source = "struct [[ringkernel::message(id = BAD_ID)]] A { int a; };\nstruct RK B { int a; };\n";
  const auto run = runFrontendOn(source, "x86_64-linux-gnu", {},
                                 {"-DBAD_ID=1+1", "-DRK=[[ringkernel::message(priority=300)]]"});
  EXPECT_NE(run.printed.find("    1 | struct [[ringkernel::message(id = BAD_ID)]] A { int a; };\n"
                             "      |                                   ^~~~~~\n"),
            std::string::npos)
      << run.printed;
  const RecordedDiagnostic* error = findError(run, "out of range 0-255");
  ASSERT_NE(error, nullptr) << run.printed;
  EXPECT_EQ(error->file, "<command line>");
  ASSERT_EQ(error->ranges.size(), 1u) << run.printed;
  EXPECT_EQ(error->ranges.front().endColumn - error->ranges.front().column, 3u) << run.printed;
  EXPECT_EQ(error->ranges.front().column, error->column);
  const std::string printed = "#define RK [[ringkernel::message(priority=300)]]\n";
  const std::size_t line = run.printed.find(printed);
  ASSERT_NE(line, std::string::npos) << run.printed;
  const std::size_t underline = run.printed.find("^~~\n", line);
  EXPECT_NE(underline, std::string::npos) << run.printed;
  EXPECT_EQ(run.printed.find_first_not_of(" |", run.printed.find('\n', line) + 1), underline) << run.printed;
}

}  // namespace
}  // namespace ringkernel::gen
