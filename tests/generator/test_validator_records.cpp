// Copyright RingKernel authors.
// DESIGN.md §4, record rules (bases, virtual, templates, local/anonymous, nesting, packing,
// trivially copyable) and id collisions inside one header.
#include <gtest/gtest.h>

#include "frontend_harness.h"
#include "ringkernel/message.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::hasError;
using testing::positionOf;
using testing::runFrontendOn;

struct BadRecord {
  const char* name;
  const char* source;
  const char* at;  // substring the error points at
  int occurrence;
  std::vector<std::string> reason;
  const char* fix;
};

void PrintTo(const BadRecord& bad, std::ostream* out) { *out << bad.name; }

class RecordRule : public ::testing::TestWithParam<BadRecord> {};

TEST_P(RecordRule, IsAnErrorNamingTheMessageReasonAndFix) {
  const BadRecord& bad = GetParam();
  const std::string source = std::string("#include <cstdint>\n") + bad.source;
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, bad.at, bad.occurrence), bad.reason, bad.fix));
  EXPECT_GE(errorCount(run), 1u);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Rules, RecordRule, ::testing::Values(
  BadRecord{"BaseClass", "struct [[ringkernel::message]] Base { int a; };\nstruct [[ringkernel::message]] Derived : Base { int b; };\n",
            "Base {", 2, {"message 'Derived' derives from 'Base'", "cannot have base classes"}, "make 'Base' a member instead"},
  BadRecord{"VirtualBase", "struct V { int a; };\nstruct [[ringkernel::message]] D : virtual V { int b; };\n",
            "virtual V", 1, {"message 'D' derives virtually from 'V'"}, "make 'V' a member"},
  BadRecord{"VirtualFunction", "struct [[ringkernel::message]] Poly { int a; virtual void run(); };\n",
            "run", 1, {"message 'Poly' has virtual function 'run'", "vtable"}, "remove 'virtual'"},
  BadRecord{"VirtualDestructor", "struct [[ringkernel::message]] Poly { int a; virtual ~Poly(); };\n",
            "~Poly", 1, {"message 'Poly' has virtual function"}, "remove 'virtual'"},
  BadRecord{"ClassTemplate", "template <class T> struct [[ringkernel::message]] Box { T v; };\n",
            "Box", 1, {"message 'Box' is a class template"}, "non-template struct"},
  BadRecord{"ExplicitSpecialization", "template <class T> struct Box { T v; };\ntemplate <> struct [[ringkernel::message]] Box<int> { int v; };\n",
            "Box<int>", 1, {"is a class template or a specialisation"}, "non-template struct"},
  BadRecord{"PartialSpecialization", "template <class T, class U> struct Pair {};\ntemplate <class T> struct [[ringkernel::message]] Pair<T, int> { T v; };\n",
            "Pair<T, int>", 1, {"is a class template or a specialisation"}, "non-template struct"},
  BadRecord{"MemberOfTemplate", "template <class T> struct Outer { struct [[ringkernel::message]] Inner { int a; }; };\n",
            "Inner", 1, {"message 'Outer::Inner' is declared inside a class template"}, "namespace scope"},
  BadRecord{"LocalStruct", "inline void f() { struct [[ringkernel::message]] Local { int a; }; }\n",
            "Local", 1, {"Local' is a local struct declared inside a function"}, "namespace scope"},
  BadRecord{"AnonymousStruct", "struct [[ringkernel::message]] { int a; } instance;\n",
            "struct [[ringkernel::message]] {", 1, {"anonymous struct cannot be a message"}, "give the struct a name"},
  BadRecord{"AnonymousNamespace", "namespace { struct [[ringkernel::message]] Hidden { int a; }; }\n",
            "Hidden", 1, {"message '(anonymous namespace)::Hidden' is declared in an anonymous namespace"}, "named namespace"},
  BadRecord{"NestedInNonMessage", "struct Holder { struct [[ringkernel::message]] Inner { int a; }; };\n",
            "Inner", 1, {"message 'Holder::Inner' is nested in 'Holder', which is not a [[ringkernel::message]]"}, "annotate 'Holder'"},
  BadRecord{"PackedAttribute", "struct __attribute__((packed)) [[ringkernel::message]] P { std::int32_t a; std::int32_t b; };\n",
            "P {", 1, {"message 'P' is __attribute__((packed))"}, "remove the packed attribute"},
  BadRecord{"PragmaPackLowersAlignment", "#pragma pack(push, 2)\nstruct [[ringkernel::message]] P { std::int32_t a; std::int32_t b; };\n#pragma pack(pop)\n",
            "P {", 1, {"message 'P' has alignment 2, below the 4 its fields need"}, "#pragma pack"},
  BadRecord{"UserProvidedDestructor", "struct [[ringkernel::message]] Owner { int a; ~Owner() {} };\n",
            "~Owner", 1, {"message 'Owner' is not trivially copyable", "user-provided destructor"}, "= default"},
  BadRecord{"UserProvidedCopy", "struct [[ringkernel::message]] Copier { int a; Copier() = default; Copier(const Copier&) {} };\n",
            "Copier(const", 1, {"not trivially copyable", "copy or move constructor"}, "= default"},
  BadRecord{"UserProvidedAssignment", "struct [[ringkernel::message]] Assigner { int a; Assigner& operator=(const Assigner&) { return *this; } };\n",
            "operator=", 1, {"not trivially copyable", "assignment operator"}, "= default"},
  // Decoders, queues and the registry create messages before filling them; without a default
  // constructor the generated code failed deep inside the codec headers.
  BadRecord{"NoDefaultConstructor", "struct [[ringkernel::message]] NoDef { explicit NoDef(int v) : a(v) {} int a; };\n",
            "NoDef(int", 1, {"message 'NoDef' is not default-constructible", "suppresses the implicit default one"}, "NoDef() = default;"},
  // A user-provided default constructor: T{} ran it in constant expressions (every encode and decode
  // failed to compile) and .rk.cuh, which copies no constructors, value-initialised differently.
  BadRecord{"UserProvidedDefaultConstructor", "namespace ct { struct [[ringkernel::message]] Ctor { std::int32_t v; Ctor() : v(3) {} }; }\n",
            "Ctor()", 1, {"message 'ct::Ctor' has a user-provided default constructor", ".rk.cuh does not copy it"},
            "default member initializers instead (std::int32_t v = 3;), or declare it Ctor() = default;"},
  BadRecord{"ConstexprDefaultConstructor", "struct [[ringkernel::message]] Ce { int v; constexpr Ce() : v(3) {} };\n",
            "Ce()", 1, {"message 'Ce' has a user-provided default constructor"}, "Ce() = default;"},
  BadRecord{"DefaultedOutsideTheClass", "struct [[ringkernel::message]] Out { int v; Out(); };\ninline Out::Out() = default;\n",
            "Out();", 1, {"message 'Out' has a user-provided default constructor"}, "Out() = default;"},
  BadRecord{"DeletedDefaultConstructor", "struct [[ringkernel::message]] Gone { Gone() = delete; int a; };\n",
            "Gone()", 1, {"message 'Gone' is not default-constructible", "its default constructor is deleted"}, "Gone() = default;"},
  // Every field ends within 4 GiB - 1, but the tail padding to the alignment does not.
  BadRecord{"TailPaddingBeyondFourGiB", "struct [[ringkernel::message]] Huge { std::uint64_t a; char rest[2][0x7FFFFFFB]; char tail; };\n",
            "Huge", 1, {"message 'Huge' is 4294967296 bytes", "more than the 4294967295"}, "several messages"},
  // Nested in the private or protected part of a message: the .rk.h named it from outside the class
  // and failed with "is private within this context". A message nested in a private one is reported
  // at the private one.
  BadRecord{"PrivateNestedMessage", "class [[ringkernel::message]] Reading {\n  struct [[ringkernel::message]] Sample { std::int32_t v; };\n public:\n  Sample sample;\n};\n",
            "Sample {", 1, {"message 'Reading::Sample' is private in 'Reading'", "from outside the class"}, "declare it after 'public:' in 'Reading'"},
  BadRecord{"ProtectedNestedMessage", "struct [[ringkernel::message]] Outer {\n protected:\n  struct [[ringkernel::message]] In { int v; };\n public:\n  In in;\n};\n",
            "In {", 1, {"message 'Outer::In' is protected in 'Outer'"}, "declare it after 'public:' in 'Outer'"},
  BadRecord{"InsideAPrivateNestedMessage", "struct [[ringkernel::message]] Top {\n private:\n  struct [[ringkernel::message]] Mid { struct [[ringkernel::message]] Leaf { int v; }; Leaf leaf; };\n public:\n  Mid mid;\n};\n",
            "Mid {", 1, {"message 'Top::Mid' is private in 'Top'"}, "after 'public:' in 'Top'"},
  // A packed field at an aligned offset was accepted; g++ refuses the references visit_fields binds to
  // it. Alone in its struct it lowers the struct's alignment, which used to be blamed on #pragma pack.
  BadRecord{"PackedFieldAtAnAlignedOffset", "struct [[ringkernel::message]] S { std::uint64_t stamp; std::uint32_t value __attribute__((packed)); std::uint32_t flags; };\n",
            "value", 1, {"field 'value' of message 'S' is __attribute__((packed))", "binds a reference to every field"}, "remove __attribute__((packed)) from the field"},
  BadRecord{"OnlyFieldPacked", "struct [[ringkernel::message]] F2 { std::uint32_t b __attribute__((packed)); };\n",
            "b __attribute__", 1, {"field 'b' of message 'F2' is __attribute__((packed))"}, "remove __attribute__((packed)) from the field"},
  BadRecord{"UnderAlignedTypedefLowersAlignment", "typedef std::int32_t i32a2 __attribute__((aligned(2)));\nstruct [[ringkernel::message]] U { i32a2 a; i32a2 b; };\n",
            "U {", 1, {"message 'U' has alignment 2, below the 4 its fields need", "field 'a' has type 'i32a2', a typedef declared __attribute__((aligned(2)))"},
            "remove the aligned attribute from typedef 'i32a2'"},
  // explicit T() = default: KernelMessage<T>{} copy-list-initialises its payload from {}, which an
  // explicit constructor refuses; this was accepted and KernelMessage::create and the dispatch failed.
  BadRecord{"ExplicitDefaultConstructor", "struct [[ringkernel::message]] Config { explicit Config() = default; std::int32_t level = 3; };\n",
            "Config()", 1, {"message 'Config' has an explicit default constructor", "from {}"}, "remove 'explicit': Config() = default;"},
  // Trivially copyable, yet not copyable by assignment or construction: KernelMessage::create failed.
  BadRecord{"DeletedCopyAssignment", "struct [[ringkernel::message]] Frozen { std::int32_t v; Frozen& operator=(const Frozen&) = delete; };\n",
            "operator=", 1, {"message 'Frozen' cannot be copied: its copy assignment operator is deleted"}, "remove the deleted copy assignment operator"},
  BadRecord{"MoveOnly", "struct [[ringkernel::message]] MoveOnly { MoveOnly() = default; MoveOnly(MoveOnly&&) = default; MoveOnly& operator=(MoveOnly&&) = default; std::int32_t v; };\n",
            "MoveOnly(MoveOnly&&)", 1, {"message 'MoveOnly' cannot be copied", "declares a move constructor", "implicitly deleted"},
            "MoveOnly(const MoveOnly&) = default;"},
  BadRecord{"MoveAssignmentOnly", "struct [[ringkernel::message]] Mv { Mv& operator=(Mv&&) = default; int v; };\n",
            "operator=", 1, {"message 'Mv' cannot be copied", "declares a move assignment operator", "implicitly deleted"}, "Mv(const Mv&) = default;"},
  BadRecord{"DeletedMoveConstructor", "struct [[ringkernel::message]] Dm { Dm() = default; Dm(const Dm&) = default; Dm& operator=(const Dm&) = default; Dm(Dm&&) = delete; int v; };\n",
            "Dm(Dm&&)", 1, {"message 'Dm' cannot be copied: its move constructor is deleted"}, "remove the deleted move constructor"},
  BadRecord{"PrivateCopyConstructor", "class [[ringkernel::message]] Pc { Pc(const Pc&) = default; public: Pc() = default; int v; };\n",
            "Pc(const", 1, {"message 'Pc' cannot be copied: its copy constructor is private"}, "make it public"},
  BadRecord{"PrivateDefaultConstructor", "struct [[ringkernel::message]] Pd { int v; private: Pd() = default; };\n",
            "Pd()", 1, {"message 'Pd'", "its default constructor is private"}, "make it public"},
  BadRecord{"ExplicitIdCollision", "struct [[ringkernel::message(id = 9)]] First { int a; };\nstruct [[ringkernel::message(id = 9)]] Second { int a; };\n",
            "Second", 1, {"message 'Second' has type id 0x00000009, the same as 'First'"}, "different explicit id"}
), [](const auto& info) { return std::string(info.param.name); });
// clang-format on

TEST(RecordRules, TypeIdCollisionNotesTheOtherType) {
  const std::string source = "struct [[ringkernel::message(id = 9)]] First { int a; };\n"
                             "struct [[ringkernel::message(id = 9)]] Second { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  bool noted = false;
  for (const RecordedDiagnostic& d : run.result.diagnostics) {
    noted = noted || (d.level == clang::DiagnosticsEngine::Note && d.line == 1 && d.column == 40 &&
                      d.message == "'First' is declared here");
  }
  EXPECT_TRUE(noted) << run.printed;
}

TEST(RecordRules, HashedTypeIdCollidesWithAnExplicitOne) {
  const std::string source = "struct [[ringkernel::message]] First { int a; };\n"
                             "struct [[ringkernel::message(id = " +
                             std::to_string(ringkernel::fnv1a32("First")) + ")]] Second { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "Second"), {"'Second'", "the same as 'First'"}));
}

TEST(RecordRules, KernelIdCollisionNamesBothTypes) {
  // "costarring" and "liquid" are a known FNV-1a 32 collision.
  ASSERT_EQ(ringkernel::fnv1a32("costarring"), ringkernel::fnv1a32("liquid"));
  const std::string source =
      "struct [[ringkernel::message(kernel = \"costarring\")]] A { int a; };\n"
      "struct [[ringkernel::message(kernel = \"liquid\")]] B { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "B {"),
                       {"message 'B' has kernel 'liquid'", "equals that of kernel 'costarring' of 'A'"},
                       "rename one of the kernels"));
}

TEST(RecordRules, NameHashingToTheReservedIdZeroNeedsAnExplicitId) {
  // Found by exhaustive search: FNV-1a 32 of "ZCL8rVv" is 0.
  ASSERT_EQ(ringkernel::fnv1a32("ZCL8rVv"), 0u);
  const std::string source = "struct [[ringkernel::message]] ZCL8rVv { int a; };\n"
                             "struct [[ringkernel::message(id = 1)]] Other { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "ZCL8rVv"),
                       {"message 'ZCL8rVv' hashes to type id 0, which is reserved"},
                       "give it an explicit id"));
  const auto fixed = runFrontendOn("struct [[ringkernel::message(id = 2)]] ZCL8rVv { int a; };\n");
  EXPECT_EQ(errorCount(fixed), 0u) << fixed.printed;
}

TEST(RecordRules, DefaultConstructibleMessagesWithOtherConstructorsAreAccepted) {
  const auto run = runFrontendOn("struct [[ringkernel::message]] Both { Both() = default; explicit Both(int v) : a(v) {} int a; };\n"
                                 "struct [[ringkernel::message]] Own { constexpr Own() = default; int a = 1; };\n");
  EXPECT_EQ(errorCount(run), 0u) << run.printed;
}

// What the refusals above must leave alone: public nested messages and enums (also in a class),
// defaulted public special members, an explicit constructor that is not the default one, aggregates.
TEST(RecordRules, PublicNestingAndDefaultedSpecialMembersAreAccepted) {
  const auto run = runFrontendOn(
      "#include <cstdint>\n"
      "class [[ringkernel::message]] Reading {\n public:\n  struct [[ringkernel::message]] Sample { std::int32_t v; };\n"
      "  enum class Unit : std::uint8_t { C, K };\n  Sample sample;\n  Unit unit;\n};\n"
      "struct [[ringkernel::message]] Plain { std::uint64_t a; std::uint32_t b; std::uint32_t c; };\n"
      "struct [[ringkernel::message]] Copyable { Copyable() = default; explicit Copyable(int x) : v(x) {}\n"
      "  Copyable(const Copyable&) = default; Copyable(Copyable&&) = default;\n"
      "  Copyable& operator=(const Copyable&) = default; Copyable& operator=(Copyable&&) = default;\n"
      "  ~Copyable() = default; int v = 1; };\n"
      "class [[ringkernel::message]] Cls { public: constexpr Cls() = default; int v; };\n"
      "typedef std::int32_t i32a8 __attribute__((aligned(8)));\n"
      "struct [[ringkernel::message]] Over { i32a8 a; std::int32_t b; };\n");
  EXPECT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("Reading::Sample").enclosingMessage, "Reading");
}

// An enum in the private or protected part of a message: the .rk.h named it from outside the class.
TEST(RecordRules, AnEnumNestedPrivatelyIsAnErrorAtTheField) {
  const std::string source = "#include <cstdint>\nstruct [[ringkernel::message]] Outer2 {\n private:\n"
                             "  enum class Hidden : std::uint8_t { A, B };\n public:\n  Hidden h = Hidden::B;\n};\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "h ="),
                       {"field 'h' of message 'Outer2' uses enum 'Outer2::Hidden', which is private in 'Outer2'"},
                       "declare the enum after 'public:' in 'Outer2'"));
}

TEST(RecordRules, SharedKernelNamesAreNoCollision) {
  const auto run = runFrontendOn("struct [[ringkernel::message]] AddRequest { int a; };\n"
                                 "struct [[ringkernel::message]] AddResponse { int a; };\n");
  EXPECT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("AddRequest").kernelId, run.message("AddResponse").kernelId);
}

TEST(RecordRules, RecordAndFieldErrorsAreReportedTogether) {
  const std::string source = "struct Base { int z; };\n"
                             "struct [[ringkernel::message]] D : Base { int* p; virtual void f(); };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 3u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "Base {", 2), {"derives from 'Base'"}));
  EXPECT_TRUE(hasError(run, positionOf(source, "p;"), {"field 'p'"}));
  EXPECT_TRUE(hasError(run, positionOf(source, "f()"), {"virtual function 'f'"}));
}

// A local message class is an error the per-declaration steps do not see in order; the messages
// after it are still checked and their errors reported, each once.
TEST(RecordRules, ErrorsAfterALocalMessageClassAreStillReported) {
  const std::string source = "inline void f() { struct [[ringkernel::message]] Local { int a; }; }\n"
                             "struct [[ringkernel::message]] Later { int* p; };\n"
                             "struct [[ringkernel::message]] Good { int a; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 2u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "Local"), {"Local' is a local struct declared inside a function"}));
  EXPECT_TRUE(hasError(run, positionOf(source, "p;"), {"field 'p' of message 'Later'"}));
}

// '$' in identifiers (a clang and g++ extension) used to be generated, after which the registry
// step refused the tool's own manifest ('"ns$1::Foo$Bar" is not a C++ qualified name'). Each name
// with a '$' that reaches the manifest is an error at its identifier, with the name without it.
TEST(RecordRules, ADollarInANameIsAnErrorAtEachIdentifier) {
  const std::string source =
      "#include <cstdint>\nnamespace ns$1 { struct [[ringkernel::message]] Foo$Bar { std::int32_t val$ue; }; }\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 3u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "ns$1"),
                       {"message 'ns$1::Foo$Bar' is declared in namespace 'ns$1', whose name has a '$'",
                        "compiler extension"},
                       "rename 'ns$1' without '$', e.g. 'ns_1'"));
  EXPECT_TRUE(hasError(run, positionOf(source, "Foo$Bar"), {"message 'ns$1::Foo$Bar' has a '$' in its name"},
                       "e.g. 'Foo_Bar'"));
  EXPECT_TRUE(hasError(run, positionOf(source, "val$ue"),
                       {"field 'val$ue' of message 'ns$1::Foo$Bar' has a '$' in its name"}, "e.g. 'val_ue'"));
  ASSERT_EQ(run.result.headers.size(), 1u);
  EXPECT_TRUE(run.result.headers[0].messages.empty());
}

// An enum's names reach the manifest too; each is reported once, however many fields use it.
TEST(RecordRules, ADollarInAnEnumsNamesIsReportedOnce) {
  const std::string source = "#include <cstdint>\nnamespace a$b { enum class E$ : std::uint8_t { x$ = 1, y }; }\n"
                             "struct [[ringkernel::message]] M { a$b::E$ e; a$b::E$ f; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 3u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "a$b"), {"enum 'a$b::E$' is declared in namespace 'a$b'"}, "'a_b'"));
  EXPECT_TRUE(hasError(run, positionOf(source, "E$"), {"enum 'a$b::E$' has a '$' in its name"}, "'E_'"));
  EXPECT_TRUE(hasError(run, positionOf(source, "x$"), {"enumerator 'x$' of enum 'a$b::E$'"}, "'x_'"));
}

// A namespace or class with a '$' around several messages and enums (or a message with a '$' around a
// nested one) used to be reported once per message and enum inside it, each error at the same
// identifier. It is one error per declaration of the scope: a reopened namespace is another place
// to rename, so it has its own.
TEST(RecordRules, ADollarInAScopeIsReportedOncePerDeclaration) {
  const std::string source = "#include <cstdint>\nnamespace a$b {\nenum class E : std::uint8_t { x };\n"
                             "struct [[ringkernel::message]] M { E e; };\nstruct [[ringkernel::message]] N { M m; };\n"
                             "struct [[ringkernel::message]] Out$er { struct [[ringkernel::message]] In { int i; }; In in; };\n}\n"
                             "namespace a$b { struct [[ringkernel::message]] Again { int a; }; }\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 3u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "a$b {\n"), {"namespace 'a$b', whose name has a '$'"}, "'a_b'"));
  EXPECT_TRUE(hasError(run, positionOf(source, "Out$er"), {"Out$er'", "'$'"}, "e.g. 'Out_er'"));
  EXPECT_TRUE(hasError(run, positionOf(source, "a$b { struct"), {"message 'a$b::Again' is declared in namespace 'a$b'"},
                       "'a_b'"));
  ASSERT_EQ(run.result.headers.size(), 1u);
  EXPECT_TRUE(run.result.headers[0].messages.empty());
}

}  // namespace
}  // namespace ringkernel::gen
