// Copyright RingKernel authors.
// Errors for values of id, kernel and priority written as names: at the use, with a note at every
// macro definition the value came through; expansions that are no single literal or name; names
// that are no macro (kernel does not evaluate constants). direction and format words are never
// expanded. Names of constants for id and priority: test_attribute_value_constant*.cpp.
#include <gtest/gtest.h>

#include "value_macro_support.h"

namespace ringkernel::gen {
namespace {

using testing::definitionOf;
using testing::errorCount;
using testing::hasError;
using testing::hasNote;
using testing::notesExpansion;
using testing::runFrontendOn;
using testing::valueAt;

bool noModel(const testing::FrontendRun& run) {
  return run.result.headers.empty() || run.result.headers.front().messages.empty();
}

struct BadMacro {
  const char* definitions;  // lines before the struct
  const char* key;
  const char* written;      // the macro name used as the value
  std::vector<std::string> message;
  const char* fix;
  std::vector<std::string> noted;  // macros with an "expanded from" note at their #define
};

void PrintTo(const BadMacro& bad, std::ostream* out) { *out << bad.definitions; }

class ValueMacroErrors : public ::testing::TestWithParam<BadMacro> {};

TEST_P(ValueMacroErrors, AtTheUseWithNotesAtTheDefinitions) {
  const BadMacro& bad = GetParam();
  const std::string source = std::string(bad.definitions) + "struct [[ringkernel::message(" + bad.key +
                             " = " + bad.written + ")]] Bad { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, valueAt(source, bad.key, bad.written), bad.message, bad.fix));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  for (const std::string& name : bad.noted) EXPECT_TRUE(notesExpansion(run, source, name));
  EXPECT_TRUE(noModel(run));
}

INSTANTIATE_TEST_SUITE_P(
    Expansions, ValueMacroErrors,
    ::testing::Values(
        // Not a single literal: what it expands to, that only one literal is read, the fix.
        BadMacro{"#define ID 0x4000 + 1\n", "id", "ID",
                 {"bad value 'ID' for 'id'", "macro 'ID' expands to '0x4000 + 1', which is not a single literal",
                  "only an unsigned 32-bit integer literal, the name of an enumerator or integral constant, or "
                  "an object-like macro that expands to a single one of these",
                  "does not evaluate expressions"},
                 "define the macro as a literal (#define ID 0x4001) or write the literal (id = 0x4001)", {"ID"}},
        BadMacro{"#define ID\n", "id", "ID", {"macro 'ID' expands to nothing"}, "#define ID 0x4001", {"ID"}},
        BadMacro{"#define ID() 5\n", "id", "ID", {"'ID' is a function-like macro", "object-like macro"},
                 "#define ID 0x4001", {"ID"}},
        BadMacro{"#define K \"Tele\" \"metry\"\n", "kernel", "K",
                 {"macro 'K' expands to '\"Tele\" \"metry\"', which is not a single literal",
                  "only a string literal"},
                 "(kernel = \"Add\")", {"K"}},
        BadMacro{"#define BASE 1 << 4\n#define PRIO BASE\n", "priority", "PRIO",
                 {"macro 'PRIO' (through 'BASE') expands to '1 << 4'", "an integer literal from 0 to 255"},
                 "(priority = 200)", {"PRIO", "BASE"}},
        BadMacro{"#define ID (1)(2)\n", "id", "ID", {"expands to '(1)(2)'", "not a single literal"}, "", {"ID"}},
        BadMacro{"#define A B\n#define B A\n", "id", "A", {"macro 'A' expands to itself (A -> B -> A)"},
                 "#define A 0x4001", {"A", "B"}},
        BadMacro{"#define ID F\n#define F(x) x\n", "id", "ID",
                 {"macro 'ID' expands to 'F', which is a function-like macro"}, "", {"ID", "F"}},
        // A single token: the key's own check, at the use, with the notes.
        BadMacro{"#define ZERO 0\n", "id", "ZERO", {"bad value 'ZERO' (expands to '0') for 'id'", "type id 0 is reserved"},
                 "non-zero", {"ZERO"}},
        BadMacro{"#define BIG (0x100000000)\n#define ID BIG\n", "id", "ID",
                 {"bad value 'ID' (expands to '0x100000000') for 'id'", "does not fit in 32 bits"}, "0xFFFFFFFF",
                 {"ID", "BIG"}},
        BadMacro{"#define ID \"7\"\n", "id", "ID",
                 {"bad value 'ID' (expands to '\"7\"') for 'id'", "expected an unsigned 32-bit integer literal"},
                 "non-zero", {"ID"}},
        BadMacro{"#define ID kId\n", "id", "ID", {"bad value 'ID' (expands to 'kId') for 'id'", "no enumerator or constant named 'kId'"},
                 "non-zero", {"ID"}},
        BadMacro{"#define PRIO 256\n", "priority", "PRIO", {"bad value 'PRIO' (expands to '256')", "out of range 0-255"},
                 "0 to 255", {"PRIO"}},
        BadMacro{"#define K 5\n", "kernel", "K", {"bad value 'K' (expands to '5') for 'kernel'", "expected a string literal"},
                 "kernel = \"Add\"", {"K"}},
        BadMacro{"#define K \"a b\"\n", "kernel", "K",
                 {"bad value 'K' (expands to '\"a b\"') for 'kernel'", "not a valid kernel name"}, "letters", {"K"}}));

// A name as the value of kernel is no macro: the error says what is accepted and that constants
// are not evaluated for kernel (id and priority do evaluate them: test_attribute_value_constants.cpp).
TEST(ValueMacroErrors, KernelConstantsAreNotEvaluated) {
  const std::string source = R"(constexpr const char* kKernel = "Telemetry";
#define KERNEL_NAME kKernel
struct [[ringkernel::message(kernel = kKernel)]] Bad { int a; };
struct [[ringkernel::message(kernel = KERNEL_NAME)]] Worse { int a; };
)";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 2u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "kernel", "kKernel"),
                       {"bad value 'kKernel' for 'kernel': expected a string literal, or an object-like",
                        "'kKernel' is no macro at this point",
                        "does not evaluate constants for 'kernel' (only id and priority"},
                       "(#define MY_KERNEL \"Add\")"));
  EXPECT_TRUE(hasError(run, valueAt(source, "kernel", "KERNEL_NAME"),
                       {"bad value 'KERNEL_NAME' (expands to 'kKernel') for 'kernel'",
                        "does not evaluate constants for 'kernel'"},
                       "kernel = \"Add\""));
  EXPECT_TRUE(notesExpansion(run, source, "KERNEL_NAME"));
  EXPECT_EQ(run.printed.find("macros are not expanded"), std::string::npos) << run.printed;
}

// A macro defined only after the attribute, or #undef'd before it, is no macro there; an #undef'd
// one gets a note at the definition that is no longer in effect.
TEST(ValueMacroErrors, MacroDefinedAfterTheAttribute) {
  const std::string source = R"(#define GONE_ID 3
#undef GONE_ID
struct [[ringkernel::message(id = LATE_ID)]] A { int a; };
struct [[ringkernel::message(id = GONE_ID)]] B { int a; };
#define LATE_ID 5
)";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 2u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "LATE_ID"), {"'LATE_ID' is no macro at this point"}, "#define MY_ID"));
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "GONE_ID"), {"'GONE_ID' is no macro at this point"}, "#define MY_ID"));
  EXPECT_TRUE(hasNote(run, definitionOf(source, "GONE_ID"), "'GONE_ID' is #undef'd before the attribute"));
}

// `ID((3, 4))`: one error for the function-like macro; its arguments are skipped (commas inside
// included), the next option is read.
TEST(ValueMacroErrors, FunctionLikeMacroCallIsOneError) {
  const std::string source = "#define ID(x) x\nstruct [[ringkernel::message(id = ID((3, 4)), priority = 7, bogus)]] Bad { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 2u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "ID"), {"'ID' is a function-like macro"}, "#define ID 0x4001"));
  EXPECT_TRUE(hasError(run, testing::positionOf(source, "bogus"), {"unknown key 'bogus'"}));
}

// A -D macro: the note is at its definition on the command line.
TEST(ValueMacroErrors, CommandLineMacro) {
  const std::string source = "struct [[ringkernel::message(id = BAD_ID)]] Bad { int a; };\n";
  const auto run = runFrontendOn(source, "x86_64-linux-gnu", {}, {"-DBAD_ID=1+1"});
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "BAD_ID"), {"macro 'BAD_ID' expands to '1+1'"}, "#define BAD_ID"));
  bool noted = false;
  for (const RecordedDiagnostic& d : run.result.diagnostics) {
    noted = noted || (d.level == clang::DiagnosticsEngine::Note && d.file == "<command line>" &&
                      d.message == "expanded from macro 'BAD_ID'");
  }
  EXPECT_TRUE(noted) << run.printed;
}

TEST(ValueMacroErrors, BuiltinMacro) {
  const std::string source = "struct [[ringkernel::message(id = __LINE__)]] Bad { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "__LINE__"), {"'__LINE__' is a builtin macro"}, "or write the literal"));
}

// direction and format take words; a word that names a macro is read as the word (not expanded).
TEST(ValueMacroErrors, DirectionAndFormatWordsAreNotExpanded) {
  const std::string source = R"(#define DIR input
#define FMT map
struct [[ringkernel::message(direction = DIR, format = FMT)]] Bad { int a; };
)";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 2u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "direction", "DIR"), {"bad value 'DIR' for 'direction'"}, "input, output"));
  EXPECT_TRUE(hasError(run, valueAt(source, "format", "FMT"), {"bad value 'FMT' for 'format'"}, "array, map"));
  EXPECT_EQ(run.printed.find("expanded from macro"), std::string::npos) << run.printed;
}

// A chain of 32 macros is read; one more is an error at the use (not a deep recursion).
TEST(ValueMacroErrors, ChainsLongerThan32MacrosAreAnError) {
  const auto chain = [](int length) {
    std::string definitions;
    for (int i = 1; i < length; ++i) {
      definitions += "#define M" + std::to_string(i) + " M" + std::to_string(i + 1) + "\n";
    }
    return definitions + "#define M" + std::to_string(length) + " 0x4007\n" +
           "struct [[ringkernel::message(id = M1)]] Deep { int a; };\n";
  };
  const auto ok = runFrontendOn(chain(32));
  EXPECT_EQ(errorCount(ok), 0u) << ok.printed;
  EXPECT_EQ(ok.message("Deep").typeId, 0x4007u);
  const std::string source = chain(33);
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "M1"), {"bad value 'M1' for 'id'", "macro 'M1' nests more than 32 macros"}));
  EXPECT_TRUE(noModel(run));
}

}  // namespace
}  // namespace ringkernel::gen
