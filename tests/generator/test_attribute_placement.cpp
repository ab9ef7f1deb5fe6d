// Copyright RingKernel authors.
// Where [[ringkernel::message]] may appear: on struct/class definitions only; everything else is an
// error at the attribute.
#include <gtest/gtest.h>

#include "frontend_harness.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::hasError;
using testing::positionOf;
using testing::runFrontendOn;

TEST(AttributePlacement, StructAndClassDefinitionsAreMessages) {
  const auto run = runFrontendOn("struct [[ringkernel::message]] S { int a; };\n"
                                 "class [[ringkernel::message]] C { public: int a; };\n");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_FALSE(run.message("S").isClass);
  EXPECT_TRUE(run.message("C").isClass);
}

TEST(AttributePlacement, UnannotatedStructsAreIgnored) {
  const auto run = runFrontendOn("struct Plain { int* p; };\nstruct [[ringkernel::message]] S { int a; };\n");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().messages.size(), 1u);
}

struct Misplaced {
  const char* source;
  const char* what;  // how the error names the declaration
};

void PrintTo(const Misplaced& bad, std::ostream* out) { *out << bad.source; }

class AttributeMisplaced : public ::testing::TestWithParam<Misplaced> {};

TEST_P(AttributeMisplaced, IsAnErrorAtTheAttribute) {
  const std::string source = std::string("#include <cstdint>\n") + GetParam().source;
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "ringkernel::message"),
                       {"[[ringkernel::message]] cannot be applied to", GetParam().what},
                       "struct [[ringkernel::message]] Name"));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

INSTANTIATE_TEST_SUITE_P(
    Declarations, AttributeMisplaced,
    ::testing::Values(Misplaced{"[[ringkernel::message]] int f();\n", "a function"},
                      Misplaced{"[[ringkernel::message]] int v;\n", "a variable"},
                      Misplaced{"enum [[ringkernel::message]] E { A };\n", "an enum"},
                      Misplaced{"enum class [[ringkernel::message]] E : int { A };\n", "an enum"},
                      Misplaced{"struct S { [[ringkernel::message]] int f; };\n", "a field"},
                      Misplaced{"namespace [[ringkernel::message]] n {}\n", "a namespace"},
                      Misplaced{"using T [[ringkernel::message]] = int;\n", "a type alias"},
                      Misplaced{"void g([[ringkernel::message]] int p);\n", "a parameter"},
                      Misplaced{"union [[ringkernel::message]] U { int a; float b; };\n",
                                "a union"}));

TEST(AttributePlacement, ForwardDeclarationIsAnError) {
  const std::string source = "struct [[ringkernel::message]] Later;\nstruct Later { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "ringkernel"),
                       {"on a declaration of 'Later' that is not its definition"},
                       "put the attribute on the definition"));
}

// clang drops an attribute on a redeclaration after the definition with only a warning, so the
// struct silently was no message (exit 0, nothing generated for it).
TEST(AttributePlacement, DeclarationAfterTheDefinitionIsAnError) {
  const std::string source = "struct Earlier { int a; };\nstruct [[ringkernel::message]] Earlier;\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "ringkernel"),
                       {"on a declaration of 'Earlier' after its definition has no effect"},
                       "put the attribute on the definition"));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

TEST(AttributePlacement, ForwardDeclarationBeforeAnnotatedDefinitionIsFine) {
  const auto run = runFrontendOn("struct Later;\nstruct [[ringkernel::message]] Later { int a; };\n");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("Later").fields.size(), 1u);
}

TEST(AttributePlacement, GivenTwiceIsAnError) {
  const std::string source =
      "struct [[ringkernel::message(id = 1), ringkernel::message(id = 2)]] Twice { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "ringkernel", 2),
                       {"given more than once on 'Twice'"}, "keep one attribute"));
}

TEST(AttributePlacement, MisspeltAttributeIsAnError) {
  // g++ and clang++ are told to ignore every ringkernel:: attribute, so only the tool can notice.
  const std::string source = "struct [[ringkernel::mesage(id = 3)]] Typo { int a; };\n"
                             "struct [[ringkernel :: message]] Spaced { int a; };\n";
  const auto run = runFrontendOn(source);
  // The fix is a fix-it writing `message` over `mesage` (test_fix_its.cpp).
  EXPECT_TRUE(hasError(run, positionOf(source, "ringkernel::mesage"), {"unknown attribute 'ringkernel::mesage'"}));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

// A namespace that misspells ringkernel (the CMake package's spelling RingKernel, a letter off)
// with the name message: compilers ignore it as another tool's attribute, so the message would not
// exist without a word; only the tool can say so.
TEST(AttributePlacement, MisspeltNamespaceIsAnError) {
  const std::string source = "struct [[RingKernel::message(id = 7)]] A { int a; };\n"
                             "struct [[ringkernels::message]] B { int a; };\n"
                             "struct [[ring_kernel :: mesage]] C { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "RingKernel::message"),
                       {"unknown attribute 'RingKernel::message'; did you mean 'ringkernel::message'?"}));
  EXPECT_TRUE(hasError(run, positionOf(source, "ringkernels::message"),
                       {"unknown attribute 'ringkernels::message'; did you mean 'ringkernel::message'?"}));
  EXPECT_TRUE(hasError(run, positionOf(source, "ring_kernel"),
                       {"unknown attribute 'ring_kernel::mesage'; did you mean 'ringkernel::message'?"}));
  EXPECT_EQ(errorCount(run), 3u) << run.printed;
}

// Other tools' attributes, and names in a near namespace that are not message, stay clang's warnings.
TEST(AttributePlacement, OtherUnknownAttributesStayWarnings) {
  const auto run = runFrontendOn("struct [[acme::tag]] A { int a; };\n"
                                 "struct [[rk::message]] B { int a; };\n"
                                 "struct [[ringkernels::layout]] D { int a; };\n"
                                 "struct [[ringkernel::message]] C { int a; };\n");
  EXPECT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().messages.size(), 1u);
}

TEST(AttributePlacement, BeforeTheStructKeywordIsAnError) {
  const std::string source = "[[ringkernel::message]] struct Early { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_GE(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, " Early"), {"misplaced attributes"}));
}

// A preprocessor directive among the arguments (valid C++: g++ takes one branch) used to be
// "expected an option name ..., found '#'" with a fix listing the option names. The arguments are
// read as written, so it is an error of its own at the directive, whose fix is the macro shape
// that the next test shows working.
TEST(AttributeErrors, ADirectiveInsideTheArgumentsIsAnErrorAtIt) {
  const std::string source = "#include <cstdint>\nstruct [[ringkernel::message(\n#ifdef FAST\n  priority = 200\n"
                             "#else\n  priority = 10\n#endif\n)]] Cond { std::int32_t x; };\n";
  const auto run = runFrontendOn(source, "x86_64-linux-gnu", {}, {"-DFAST"});
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "#ifdef"),
                       {"preprocessor directive '#ifdef' inside the arguments of [[ringkernel::message]]",
                        "not supported"},
                       "put the whole attribute in a macro defined under the condition"))
      << run.printed;
}

// The same between the attribute's name and its '(' (g++ takes it too): the error used to be
// "expected '(' or ']]' after the name of [[ringkernel::message]] in the source text, found '#'"
// with a fix about macros, at the name.
TEST(AttributeErrors, ADirectiveBetweenTheNameAndItsParenthesisIsAnErrorAtIt) {
  const std::string source = "struct [[ringkernel::message\n#if 1\n(id = 5)\n#endif\n]] M { int x; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "#if"),
                       {"preprocessor directive '#if' between the name of [[ringkernel::message]] and its '('",
                        "reads the attribute as written", "not supported"},
                       "put the whole attribute in a macro defined under the condition"))
      << run.printed;
  EXPECT_EQ(testing::findError(run, "expected '('"), nullptr) << run.printed;
}

TEST(AttributeOptions, AWholeAttributeMacroDefinedUnderAConditionTakesItsBranch) {
  const std::string source = "#include <cstdint>\n#ifdef FAST\n#define MSG_ATTR [[ringkernel::message(priority = 200)]]\n"
                             "#else\n#define MSG_ATTR [[ringkernel::message(priority = 10)]]\n#endif\n"
                             "struct MSG_ATTR Cond { std::int32_t x; };\n";
  const auto fast = runFrontendOn(source, "x86_64-linux-gnu", {}, {"-DFAST"});
  ASSERT_EQ(errorCount(fast), 0u) << fast.printed;
  EXPECT_EQ(fast.message("Cond").options.priority, 200);
  const auto slow = runFrontendOn(source);
  ASSERT_EQ(errorCount(slow), 0u) << slow.printed;
  EXPECT_EQ(slow.message("Cond").options.priority, 10);
}

}  // namespace
}  // namespace ringkernel::gen
