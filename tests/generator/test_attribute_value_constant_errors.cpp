// Copyright RingKernel authors.
// Errors for values of id and priority written as names (test_attribute_value_constants.cpp): at
// the use, saying why the name is no usable constant (not found, declared after the struct,
// ambiguous, not a constant, not integral, a non-static data member, out of range with its value), with a fix
// and a note at the declaration; nothing is built.
#include <gtest/gtest.h>

#include "value_macro_support.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::hasError;
using testing::hasNote;
using testing::positionOf;
using testing::runFrontendOn;
using testing::valueAt;

bool noModel(const testing::FrontendRun& run) {
  return run.result.headers.empty() || run.result.headers.front().messages.empty();
}

struct BadName {
  const char* declarations;  // lines before the struct
  const char* key;
  const char* written;
  std::vector<std::string> message;
  const char* fix;
  const char* declared;  // text at which the "declared here" note is (its first occurrence), or ""
};

void PrintTo(const BadName& bad, std::ostream* out) { *out << bad.declarations << bad.written; }

class ConstantErrors : public ::testing::TestWithParam<BadName> {};

TEST_P(ConstantErrors, AtTheUseWithANoteAtTheDeclaration) {
  const BadName& bad = GetParam();
  const std::string source = std::string(bad.declarations) + "struct [[ringkernel::message(" + bad.key +
                             " = " + bad.written + ")]] Bad { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, valueAt(source, bad.key, bad.written), bad.message, bad.fix));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  if (*bad.declared != '\0') {
    EXPECT_TRUE(hasNote(run, positionOf(source, bad.declared), "declared here"));
  }
  EXPECT_TRUE(noModel(run));
}

INSTANTIATE_TEST_SUITE_P(
    Names, ConstantErrors,
    ::testing::Values(
        BadName{"", "id", "kMissing",
                {"bad value 'kMissing' for 'id': no enumerator or constant named 'kMissing' is declared "
                 "before the struct, and 'kMissing' is no macro at this point"},
                "check the spelling", ""},
        BadName{"namespace ids {}\n", "id", "ids::kMissing",
                {"no enumerator or constant named 'kMissing' is declared in namespace 'ids'"}, "non-zero", ""},
        BadName{"", "id", "nope::kId", {"no namespace, class or enumeration named 'nope'"}, "check the spelling", ""},
        BadName{"unsigned kMutable = 5;\n", "id", "kMutable",
                {"'kMutable' is a variable that is neither constexpr nor const"}, "constexpr unsigned int kMutable",
                "kMutable"},
        BadName{"int next();\nconst int kRuntime = next();\n", "priority", "kRuntime",
                {"bad value 'kRuntime' for 'priority'", "initializer is not a constant expression"},
                "0 to 255", "kRuntime"},
        BadName{"constexpr double kRate = 2.0;\n", "id", "kRate",
                {"'kRate' is a constant of type 'const double', not of integral or enumeration type"}, "", "kRate"},
        BadName{"constexpr const char* kName = \"x\";\n", "id", "kName", {"not of integral or enumeration type"}, "",
                "kName"},
        BadName{"unsigned id();\n", "id", "id", {"'id' is a function, not an enumerator or a constant"}, "", "id()"},
        BadName{"struct Ids {};\n", "id", "Ids", {"'Ids' is a type, not an enumerator or a constant"}, "", "Ids"},
        BadName{"enum class E { A = -1 };\n", "id", "E::A", {"bad value 'E::A' (= -1) for 'id': negative"},
                "non-zero", "A = -1"},
        BadName{"constexpr long kBig = 0x100000000;\n", "id", "kBig",
                {"bad value 'kBig' (= 4294967296) for 'id': does not fit in 32 bits"}, "", "kBig"},
        BadName{"enum E { kZero };\n", "id", "kZero", {"bad value 'kZero' (= 0) for 'id': type id 0 is reserved"},
                "", "kZero"},
        BadName{"constexpr int kPrio = 256;\n", "priority", "kPrio",
                {"bad value 'kPrio' (= 256) for 'priority': out of range 0-255"}, "", "kPrio"},
        BadName{"#define PRIO kNeg\nconstexpr int kNeg = -3;\n", "priority", "PRIO",
                {"bad value 'PRIO' (expands to 'kNeg', = -3) for 'priority': negative"}, "", "kNeg ="},
        BadName{"struct Ids { unsigned kId = 5; };\n", "id", "Ids::kId",
                {"'Ids::kId' is a non-static data member, not an enumerator or a constant"}, "", "kId"},
        BadName{"constexpr unsigned kId = 1;\nnamespace a { constexpr unsigned kDup = 1; }\n"
                "namespace b { constexpr unsigned kDup = 2; }\nusing namespace a;\nusing namespace b;\n",
                "id", "kDup", {"bad value 'kDup' for 'id': 'kDup' is ambiguous"}, "qualify the name", "",},
        BadName{"namespace n { constexpr unsigned kX = 1; }\n", "id", "n::kX::y",
                {"no namespace, class or enumeration named 'kX' is declared in namespace 'n'"}, "", ""},
        BadName{"typedef int Int;\n", "id", "Int::kX", {"'Int' is a type, not a namespace, class or enumeration"},
                "", "Int;"}));

// The struct's own members are not in scope for its attribute (C++ looks the name up outside).
TEST(ConstantErrorsInScope, OwnMembersAreNotInScope) {
  const std::string source =
      "struct [[ringkernel::message(id = kOwn)]] A { static constexpr unsigned kOwn = 5; int x; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "kOwn"), {"no enumerator or constant named 'kOwn'"}));
}

// An enclosing class's non-static member is found (as in C++) and refused, not skipped for an outer name.
TEST(ConstantErrorsInScope, EnclosingClassDataMemberIsAnError) {
  const std::string source = R"(constexpr unsigned kId = 1;
struct [[ringkernel::message]] Outer {
  unsigned kId = 2;
  struct [[ringkernel::message(id = kId)]] Inner { int x; };
  Inner inner;
};
)";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "kId"), {"'kId' is a non-static data member"}));
}

// Declared only after the struct: not found, as in C++ (the model may be built while clang parses,
// before the later declarations exist, or after; the error is the same). An enumeration defined
// after the struct has no enumerators there.
TEST(ConstantErrorsInScope, DeclaredAfterTheStruct) {
  const std::string source = R"(enum class MsgId : unsigned;
struct [[ringkernel::message(id = kLate)]] A { int x; };
struct [[ringkernel::message(id = MsgId::Late)]] B { int x; };
constexpr unsigned kLate = 5;
enum class MsgId : unsigned { Late = 6 };
struct [[ringkernel::message(id = kLate)]] C { int x; };
)";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 2u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "kLate"),
                       {"no enumerator or constant named 'kLate' is declared before the struct",
                        "'kLate' is no macro at this point"},
                       "declare it (include the header that declares it) before the struct"));
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "MsgId::Late"),
                       {"'MsgId' is a type, not a namespace, class or enumeration that is defined before "
                        "the struct"}));
  EXPECT_TRUE(hasNote(run, positionOf(source, "MsgId : unsigned;"), "'MsgId' declared here"));
}

// The same when the model is built after the whole parse, where the later declarations exist: a
// default member initializer that is not a literal (kBase + 1) stops the building during the parse
// (frontend.cpp, completeNow), so every message of this header is built at the end of the parse.
TEST(ConstantErrorsInScope, DeclaredAfterTheStructWhenBuiltAfterTheParse) {
  const std::string source = R"(constexpr int kBase = 1;
struct [[ringkernel::message]] First { int x = kBase + 1; };
struct [[ringkernel::message(id = kLate)]] A { int x; };
struct [[ringkernel::message(priority = Level::high)]] B { int x; };
constexpr unsigned kLate = 5;
struct Level { static constexpr int high = 200; };
struct [[ringkernel::message(id = kLate, priority = Level::high)]] C { int x; };
)";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 2u) << run.printed;
  EXPECT_TRUE(hasError(run, valueAt(source, "id", "kLate"),
                       {"no enumerator or constant named 'kLate' is declared before the struct"},
                       "declare it (include the header that declares it) before the struct"));
  EXPECT_TRUE(hasError(run, valueAt(source, "priority", "Level::high"),
                       {"no namespace, class or enumeration named 'Level' is declared before the struct"}));
}

}  // namespace
}  // namespace ringkernel::gen
