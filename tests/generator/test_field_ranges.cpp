// Copyright RingKernel authors.
// An error about a field's type (unsupported, too many array dimensions, const or volatile, an enum
// that cannot be used) has its caret at the field's name and underlines the declaration from its
// type through its declarator, as clang does for a declaration; an error about a bit-field's width
// or a default member initializer underlines that expression.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "frontend_harness.h"

namespace ringkernel::gen {
namespace {

using testing::findError;
using testing::positionOf;
using testing::runFrontendOn;

struct BadField {
  const char* declarations;  // before the message
  const char* field;         // the field declaration inside `struct [[...]] Bad { ...; }`
  const char* message;       // a fragment of the error
  const char* name;          // where the caret is (its first occurrence in `field;`)
  const char* underlined;    // what is underlined (its first occurrence in `field;`)
};

void PrintTo(const BadField& bad, std::ostream* out) { *out << bad.field; }

class FieldRanges : public ::testing::TestWithParam<BadField> {};

TEST_P(FieldRanges, UnderlineTheDeclarationOrTheExpression) {
  const BadField& bad = GetParam();
  const std::string prefix = std::string("#include <cstdint>\n#include <string>\n") + bad.declarations +
                             "\nstruct [[ringkernel::message]] Bad {\n  ";
  const std::string source = prefix + bad.field + ";\n};\n";
  const auto run = runFrontendOn(source);
  const RecordedDiagnostic* error = findError(run, bad.message);
  ASSERT_NE(error, nullptr) << run.printed;
  const auto inField = [&](const char* needle) {
    testing::Position at = positionOf(std::string(bad.field) + ";", needle);
    at.line += static_cast<unsigned>(std::count(prefix.begin(), prefix.end(), '\n'));
    at.column += 2;
    return at;
  };
  const testing::Position caret = inField(bad.name);
  EXPECT_EQ(error->line, caret.line);
  EXPECT_EQ(error->column, caret.column);
  ASSERT_EQ(error->ranges.size(), 1u) << run.printed;
  const RecordedRange& range = error->ranges.front();
  const testing::Position begin = inField(bad.underlined);
  EXPECT_EQ(range.line, begin.line);
  EXPECT_EQ(range.column, begin.column);
  EXPECT_EQ(range.endLine, begin.line);
  EXPECT_EQ(range.endColumn, begin.column + std::strlen(bad.underlined)) << run.printed;
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, FieldRanges,
    ::testing::Values(
        BadField{"", "int* p", "pointer type", "p", "int* p"},
        BadField{"", "std::string name", "standard library container", "name", "std::string name"},
        BadField{"", "std::uint8_t cube[1][1][1][1][1][1][1][1][2]", "array of 9 dimensions", "cube",
                 "std::uint8_t cube[1][1][1][1][1][1][1][1][2]"},
        BadField{"", "volatile int v", "is volatile", "v;", "volatile int v"},
        BadField{"", "const int c = 1", "is const", "c =", "const int c"},
        BadField{"struct Holder { enum class Mode { A }; };", "Holder::Mode mode", "nested in 'Holder'", "mode",
                 "Holder::Mode mode"},
        BadField{"", "unsigned flags : 3", "is a bit-field", "flags", "3"},
        BadField{"inline int counter() { return 1; }", "int a = counter()", "not a constant expression",
                 "counter()", "counter()"},
        BadField{"", "int xs[2] = {1, 2}", "not {}", "{1, 2}", "{1, 2}"}));

// As clang prints a declaration's error: the caret at the name, '~' under the rest.
TEST(FieldRanges, PrintedUnderTheDeclaration) {
  const auto run = runFrontendOn("struct [[ringkernel::message]] Bad { int* p; };\n");
  EXPECT_NE(run.printed.find("/ringkernel-test/messages.h:1:43: error: field 'p' of message 'Bad'"), std::string::npos)
      << run.printed;
  EXPECT_NE(run.printed.find("    1 | struct [[ringkernel::message]] Bad { int* p; };\n"
                             "      |                                      ~~~~~^\n"),
            std::string::npos)
      << run.printed;
}

}  // namespace
}  // namespace ringkernel::gen
