// Copyright RingKernel authors.
// DESIGN.md §4, field rules: every unsupported field is an error at the field that names the
// field, the reason and a fix; nothing is modelled for the message.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "frontend_harness.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::hasError;
using testing::positionOf;
using testing::runFrontendOn;

struct BadField {
  const char* name;         // test name
  const char* declarations; // before the message
  const char* field;        // the field declaration inside `struct [[...]] Bad { ...; }`
  const char* at;           // where the error points (a substring of `field`)
  std::vector<std::string> reason;
  const char* fix;
};

void PrintTo(const BadField& bad, std::ostream* out) { *out << bad.name; }

class FieldRule : public ::testing::TestWithParam<BadField> {};

TEST_P(FieldRule, IsAnErrorNamingFieldReasonAndFix) {
  const BadField& bad = GetParam();
  const std::string prefix = std::string("#include <cstdint>\n#include <string>\n#include <vector>\n"
                                         "#include <array>\n#include <atomic>\n#include <optional>\n") +
                             bad.declarations + "\nstruct [[ringkernel::message]] Bad {\n  int ok;\n  ";
  const std::string source = prefix + bad.field + ";\n};\n";
  const auto run = runFrontendOn(source);
  // The error points into the field line, after the prefix.
  testing::Position where = positionOf(source.substr(prefix.size()), bad.at);
  where.line += static_cast<unsigned>(std::count(prefix.begin(), prefix.end(), '\n'));
  where.column += 2;
  std::vector<std::string> expected = bad.reason;
  expected.push_back("message 'Bad'");
  EXPECT_TRUE(hasError(run, where, expected, bad.fix));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  ASSERT_EQ(run.result.headers.size(), 1u);
  for (const MessageModel& message : run.result.headers[0].messages) {
    EXPECT_NE(message.name, "Bad") << "a rejected message entered the model";
  }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Rules, FieldRule, ::testing::Values(
  BadField{"Pointer", "", "int* p", "p", {"field 'p'", "pointer type 'int *'"}, "index"},
  BadField{"FunctionPointer", "", "void (*callback)(int)", "callback", {"field 'callback'", "pointer type"}, "index"},
  BadField{"MemberPointer", "struct S { int m; };", "int S::* member", "member", {"field 'member'", "pointer type"}, "index"},
  BadField{"PointerArray", "", "const char* names[4]", "names", {"field 'names'", "pointer type"}, "index"},
  BadField{"Nullptr", "", "decltype(nullptr) n", "n;", {"field 'n'", "nullptr_t"}, "remove the field"},
  BadField{"Reference", "inline int g;", "int& r = g", "r", {"field 'r'", "is a reference"}, "store the value itself"},
  BadField{"BitField", "", "unsigned flags : 3", "flags", {"field 'flags'", "is a bit-field"}, "mask the bits"},
  // An unnamed bit-field was "field ''" with a fix to mask the bits of a field that has none.
  BadField{"UnnamedBitField", "", "std::uint32_t : 0", ": 0", {"message 'Bad' has an unnamed bit-field", "implementation-defined"},
           "fix: remove it; where the padding it adds matters, declare a named padding field (e.g. std::uint8_t padding[3])"},
  BadField{"UnionType", "union U { int a; float b; };", "U u", "u", {"field 'u'", "is a union 'U'"}, "tag field"},
  BadField{"AnonymousUnion", "", "union { int a; float b; }", "union", {"has an anonymous union member"}, "separate fields"},
  BadField{"AnonymousStruct", "", "struct { int a; }", "struct", {"has an anonymous struct member"}, "annotate it"},
  BadField{"LongDouble", "", "long double ld", "ld", {"field 'ld'", "'long double'"}, "use double"},
  BadField{"Int128", "", "__int128 big", "big", {"field 'big'", "128-bit integer"}, "two std::uint64_t"},
  BadField{"UInt128", "", "unsigned __int128 big", "big", {"field 'big'", "128-bit integer"}, "two std::uint64_t"},
  BadField{"WChar", "", "wchar_t w", "w;", {"field 'w'", "'wchar_t'", "differs between platforms"}, "char16_t or char32_t"},
  BadField{"Float16", "", "_Float16 h", "h", {"field 'h'", "half-precision"}, "use float"},
  BadField{"BFloat16", "", "__bf16 h", "h", {"field 'h'", "half-precision"}, "use float"},
  BadField{"Float128", "", "__float128 q", "q", {"field 'q'", "128-bit floating-point"}, "use double"},
  BadField{"String", "", "std::string name", "name", {"field 'name'", "standard library container"}, "char name[64]"},
  BadField{"Vector", "", "std::vector<int> items", "items", {"field 'items'", "standard library container"}, "fixed-size array"},
  // The fixes of std::array and atomics suggested `std::int32_t values[4]` and "the plain value type",
  // whatever the field; and an atomic was "a standard library container or handle".
  BadField{"StdArray", "", "std::array<int, 3> xs", "xs", {"field 'xs'", "standard library type"}, "fix: use a built-in array: std::int32_t xs[3]"},
  BadField{"StdArrayOfFloat", "", "std::array<float, 4> v", "v;", {"field 'v'", "has type 'std::array<float, 4>', a standard library type"}, "fix: use a built-in array: float v[4]"},
  BadField{"NestedStdArray", "", "std::array<std::array<float, 3>, 2> v", "v;", {"field 'v'", "standard library type"}, "fix: use a built-in array: float v[2][3]"},
  BadField{"ArrayOfStdArray", "", "std::array<std::uint8_t, 4> v[2]", "v[", {"field 'v'", "standard library type"}, "fix: use a built-in array: std::uint8_t v[2][4]"},
  BadField{"StdArrayOfMessage", "namespace app { struct [[ringkernel::message]] P { int x; }; }", "std::array<app::P, 2> ps", "ps", {"field 'ps'", "standard library type"}, "fix: use a built-in array: app::P ps[2]"},
  // The standard library type of an array of an alias used to be the array's ('Row[2]').
  BadField{"StdArrayAlias", "using Row = std::array<float, 3>;", "Row rows[2]", "rows", {"field 'rows'", "has type 'Row[2]', an array of 'std::array<float, 3>', a standard library type"},
           "fix: use a built-in array: float rows[2][3]"},
  BadField{"StdArrayTypedef", "using Grid = std::array<std::array<double, 4>, 2>;", "Grid g", "g;", {"field 'g'", "has type 'Grid' (aka 'std::array<std::array<double, 4>, 2>'), a standard library type"},
           "fix: use a built-in array: double g[2][4]"},
  // An empty std::array used to get the general hint (e.g. std::int32_t values[4]).
  BadField{"EmptyStdArray", "", "std::array<float, 0> z", "z;", {"field 'z'", "has type 'std::array<float, 0>', a standard library type"},
           "fix: remove the field: a std::array of 0 elements holds no data"},
  BadField{"StdArrayOfString", "", "std::array<std::string, 2> names", "names", {"field 'names'", "standard library type"}, "fix: use a built-in array of a supported element type, e.g. std::int32_t values[4]"},
  BadField{"Atomic", "", "std::atomic<int> counter", "counter", {"field 'counter'", "has type 'std::atomic<int>', an atomic; messages are copied as bytes, so it would not be atomic for the sender or the receiver"}, "fix: use the plain type: std::int32_t counter"},
  BadField{"AtomicArray", "", "std::atomic<unsigned long long> counts[3]", "counts", {"field 'counts'", "an atomic; messages are copied as bytes"}, "fix: use the plain type: std::uint64_t counts[3]"},
  BadField{"AtomicFlag", "", "std::atomic_flag flag", "flag;", {"field 'flag'", "has type 'std::atomic_flag', an atomic"}, "fix: use the plain type: bool flag"},
  BadField{"AtomicPointer", "", "std::atomic<int*> p", "p;", {"field 'p'", "an atomic"}, "fix: use the plain value type"},
  BadField{"Optional", "", "std::optional<int> maybe", "maybe", {"field 'maybe'", "standard library"}, "has_value"},
  BadField{"NotAnnotated", "struct Plain { int x; };", "Plain plain", "plain", {"field 'plain'", "'Plain', which is not a [[ringkernel::message]]"}, "struct [[ringkernel::message]] Plain"},
  BadField{"TemplateInstance", "template <class T> struct Box { T v; };", "Box<int> box", "box", {"field 'box'", "instance of a class template"}, "non-template struct"},
  BadField{"FlexibleArray", "", "int data[]", "data", {"field 'data'", "array without a fixed size"}, "constant size"},
  BadField{"ZeroLengthArray", "", "int none[0]", "none", {"field 'none'", "zero-length array"}, "at least one element"},
  BadField{"Const", "", "const int c = 1", "c =", {"field 'c'", "is const"}, "remove the qualifier"},
  BadField{"ConstArray", "", "const char tag[2] = {}", "tag", {"field 'tag'", "is const"}, "remove the qualifier"},
  BadField{"Volatile", "", "volatile int v", "v;", {"field 'v'", "is volatile"}, "remove the qualifier"},
  BadField{"Complex", "", "_Complex double z", "z", {"field 'z'", "complex type"}, "real and imaginary"},
  BadField{"Vector4", "typedef float float4 __attribute__((ext_vector_type(4)));", "float4 v", "v", {"field 'v'", "vector type"}, "fixed-size array"},
  BadField{"BitInt", "", "_BitInt(24) b", "b", {"field 'b'", "_BitInt"}, "fixed-width integer"},
  BadField{"Private", "", "private: int hidden", "hidden", {"field 'hidden'", "is private"}, "make it public"},
  BadField{"Protected", "", "protected: int guarded", "guarded", {"field 'guarded'", "is protected"}, "make it public"},
  BadField{"UnnamedEnum", "enum { Anon } ;", "decltype(Anon) e", "e;", {"field 'e'", "unnamed enum"}, "give the enum a name"},
  BadField{"EnumInNonMessage", "struct Holder { enum class Mode { A }; };", "Holder::Mode mode", "mode", {"field 'mode'", "nested in 'Holder'", "not a [[ringkernel::message]]"}, "move the enum to namespace scope"},
  BadField{"EnumInAnonymousNamespace", "namespace { enum class Hidden { A }; }", "Hidden h", "h", {"field 'h'", "neither in a named namespace nor at global scope"}, "named namespace"},
  BadField{"OpaqueEnum", "enum class Opaque : std::uint8_t;", "Opaque o", "o", {"field 'o'", "uses enum 'Opaque', whose enumerators are not visible"}, "include the header that defines the enum"},
  BadField{"EnumOverWcharT", "enum class Wide : wchar_t { A };", "Wide w", "w", {"field 'w'", "has enum type 'Wide' whose underlying type 'wchar_t' is not supported"}, "fixed-width underlying type"},
  BadField{"AtomicBuiltin", "", "_Atomic(std::int32_t) counter", "counter", {"field 'counter'", "has type '_Atomic(std::int32_t)', an atomic; messages are copied as bytes"}, "fix: use the plain type: std::int32_t counter"},
  BadField{"NonConstantInitializer", "inline int counter() { return 1; }", "int a = counter()", "counter()", {"field 'a'", "not a constant expression"}, "remove the default member initializer"},
  BadField{"ArrayInitializer", "", "int xs[2] = {1, 2}", "{1, 2}", {"field 'xs'", "not {}"}, "accept only {}"},
  BadField{"MessageInitializer", "struct [[ringkernel::message]] P { int x; };", "P p = {3}", "{3}", {"field 'p'", "not {}"}, "accept only {}"},
  BadField{"InfiniteInitializer", "", "float f = __builtin_inff()", "__builtin_inff", {"field 'f'", "not a finite number"}, "finite value"},
  BadField{"PackedField", "", "char c; int misaligned __attribute__((packed))", "misaligned",
           {"field 'misaligned'", "is __attribute__((packed)), which puts it at offset 5, not a multiple of its alignment 4"},
           "remove __attribute__((packed)) from the field, and reorder the fields or add explicit padding fields so that it starts at a multiple of 4"},
  // A typedef aligned below its type's natural alignment: the error used to list every possible cause.
  BadField{"UnderAlignedTypedef", "typedef std::int64_t under4_t __attribute__((aligned(4)));", "under4_t b", "b",
           {"field 'b'", "offset 4", "not a multiple of its alignment 8", "its type 'under4_t' is a typedef declared __attribute__((aligned(4)))"},
           "remove the aligned attribute from typedef 'under4_t' (or declare the field as std::int64_t), or reorder the fields or add explicit padding fields so that it starts at a multiple of 8"},
  // An unnamed struct type: the fix used to read "annotate it: struct [[ringkernel::message]]  { ... };".
  BadField{"UnnamedStructType", "", "struct { int a; } s", "s;", {"field 's'", "which is not a [[ringkernel::message]]"},
           "give the struct a name and annotate it: struct [[ringkernel::message]] Name { ... };"},
  BadField{"UnnamedTypedefStruct", "typedef struct { int a; } Anon;", "Anon s", "s;", {"field 's'", "'Anon', which is not a [[ringkernel::message]]"},
           "give the struct a name and annotate it"},
  // Generated field descriptors hold at most 8 extents and 32-bit offsets/sizes (field_descriptor):
  // these used to be accepted and give a .rk.h that does not compile (narrowing, too many initializers).
  BadField{"NineDimensions", "", "std::uint8_t cube[1][1][1][1][1][1][1][1][2]", "cube", {"field 'cube'", "array of 9 dimensions", "at most 8"}, "merge dimensions"},
  BadField{"BeyondFourGiB", "", "char huge[4][1u << 30]", "huge", {"field 'huge'", "ends at byte 4294967300", "beyond the 4294967295 bytes"}, "several messages"},
  // g++ 12 cannot match T[N] for N >= 2^31 (std::is_bounded_array is false): this was generated and
  // the .rk.h then failed to compile.
  BadField{"TwoToThe31Elements", "", "char a[2147483648]", "a[", {"field 'a'", "2147483648 elements in one dimension", "at most 2147483647"}, "split the dimension"},
  BadField{"TwoToThe31InAnInnerDimension", "", "char a[1][2147483648]", "a[", {"field 'a'", "2147483648 elements in one dimension"}, "split the dimension"},
  BadField{"NestedBeyondFourGiB", "struct [[ringkernel::message]] Block { char bytes[1u << 20]; };", "Block blocks[1u << 12]", "blocks", {"field 'blocks'", "ends at byte 4294967300"}, "several messages"}
), [](const auto& info) { return std::string(info.param.name); });
// clang-format on

TEST(FieldRules, PragmaPackMisalignsAField) {
  const std::string source = "#pragma pack(push, 1)\n"
                             "struct [[ringkernel::message]] Packed { char c; int value; };\n"
                             "#pragma pack(pop)\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "value"),
                       {"field 'value' of message 'Packed'", "offset 1", "alignment 4",
                        "#pragma pack(1) around the struct lowers it to 1"},
                       "remove the #pragma pack around the struct, or reorder the fields"));
}

// [[no_unique_address]] lets a field share bytes with others; it was reported late, from the
// renderer, with a doubled "ringkernel-gen: error: ...: error:" prefix and sometimes at the next field.
TEST(FieldRules, NoUniqueAddressIsAnErrorAtTheAttribute) {
  const std::string source =
      "struct [[ringkernel::message]] Empty {};\n"
      "struct [[ringkernel::message]] Tail { int a; [[no_unique_address]] Empty e; char c; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "no_unique_address"),
                       {"field 'e' of message 'Tail' is [[no_unique_address]]"},
                       "remove [[no_unique_address]]"))
      << run.printed;
}

TEST(FieldRules, AllBadFieldsOfOneMessageAreReported) {
  const std::string source =
      "struct [[ringkernel::message]] Many { int* p; long double ld; wchar_t w; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 3u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "p;"), {"field 'p'"}));
  EXPECT_TRUE(hasError(run, positionOf(source, "ld"), {"field 'ld'"}));
  EXPECT_TRUE(hasError(run, positionOf(source, "w;"), {"field 'w'"}));
}

TEST(FieldRules, AMessageUsingABadMessageIsNotModelled) {
  const std::string source = "struct [[ringkernel::message]] Inner { int* p; };\n"
                             "struct [[ringkernel::message]] Outer { Inner i; int x; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 1u) << run.printed;  // reported once, at Inner::p
  EXPECT_TRUE(hasError(run, positionOf(source, "p;"), {"field 'p' of message 'Inner'"}));
  ASSERT_EQ(run.result.headers.size(), 1u);
  EXPECT_TRUE(run.result.headers[0].messages.empty());
}

// 2^31 - 1 elements in a dimension is still fine (the generated code compiles with g++ and clang++).
TEST(FieldRules, TwoToThe31MinusOneElementsAreAccepted) {
  const auto run = runFrontendOn("struct [[ringkernel::message]] Big { char a[2147483647]; };\n");
  EXPECT_EQ(errorCount(run), 0u) << run.printed;
}

// A struct from a system header (CUDA's float3) cannot be annotated by the user: the fix used to
// be "annotate it: struct [[ringkernel::message]] float3 { ... };". It now offers a message of
// their own or an array of the struct's field type, aligned as the struct when that is more.
TEST(FieldRules, AStructFromAnotherHeaderGetsAFixTheUserCanApply) {
  const std::map<std::string, std::string> files = {
      {"/ringkernel-test/sys/vec.h", "struct vec3 { float x, y, z; };\n"
                                     "struct alignas(16) vec4 { float x, y, z, w; };\n"
                                     "struct mixed { float x; int n; };\n"},
      {"/ringkernel-test/mine.h", "struct Point { float x, y; };\n"}};
  const std::string source = "#include <vec.h>\n#include \"mine.h\"\n"
                             "struct [[ringkernel::message]] Pos { vec3 p; vec4 q[2]; mixed m; Point pt; };\n";
  const auto run = runFrontendOn(source, "x86_64-linux-gnu", files, {"-isystem", "/ringkernel-test/sys"});
  EXPECT_EQ(errorCount(run), 4u) << run.printed;
  const std::string system = ", which is not a [[ringkernel::message]] and is declared in a system header ('vec.h'), "
                             "so it cannot be one";
  const std::string own = "use a [[ringkernel::message]] struct of your own with the same fields";
  EXPECT_TRUE(hasError(run, positionOf(source, "p;"), {"field 'p'", "'vec3'" + system},
                       own + ", or an array of its fields' type: float p[3]"));
  EXPECT_TRUE(hasError(run, positionOf(source, "q["), {"field 'q'", system},
                       own + ", or an array of its fields' type: alignas(16) float q[2][4]"));
  const auto* mixed = testing::findError(run, "field 'm'");
  ASSERT_NE(mixed, nullptr) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "m;"), {"field 'm'", system}, own));
  EXPECT_EQ(testing::findNoteAfter(run, *mixed, "an array"), nullptr) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "pt;"), {"field 'pt'", "'Point', which is not a [[ringkernel::message]] (declared in 'mine.h')"},
                       "annotate it in 'mine.h' if that header is yours, else " + own));
}

/// The text of the fix note after the error about field `name` ("" when there is none).
std::string fixOf(const testing::FrontendRun& run, const std::string& name) {
  const auto* error = testing::findError(run, "field '" + name + "'");
  const auto* note = error == nullptr ? nullptr : testing::findNoteAfter(run, *error, "fix: ");
  return note == nullptr ? std::string() : note->message;
}

// The fix for a foreign struct keeps its values: a char[N] is a NUL-terminated string on the wire,
// so {char r, g, b} with r = 0 would lose g and b as `char c[3]` (the fix used to say so): its
// chars become the integer of char's signedness on the target. A struct of one field is that field
// (`double w`, not `double w[1]`).
TEST(FieldRules, AForeignStructOfCharsOrOfOneFieldGetsAFixThatKeepsItsValues) {
  const std::map<std::string, std::string> files = {
      {"/ringkernel-test/sys/rgb.h", "struct rgb { char r, g, b; };\nstruct wrap { double v; };\n"
                                     "struct one_char { char c; };\n"}};
  const std::string source = "#include <rgb.h>\nstruct [[ringkernel::message]] Px { rgb c; wrap w; wrap ws[4]; "
                             "one_char o; one_char os[2]; };\n";
  const std::string own = "fix: use a [[ringkernel::message]] struct of your own with the same fields, or ";
  for (const auto& [target, byte] : {std::pair<std::string, std::string>{"x86_64-linux-gnu", "std::int8_t"},
                                     {"aarch64-linux-gnu", "std::uint8_t"}}) {
    SCOPED_TRACE(target);
    const auto run = runFrontendOn(source, target, files, {"-isystem", "/ringkernel-test/sys"});
    EXPECT_EQ(errorCount(run), 5u) << run.printed;
    EXPECT_EQ(fixOf(run, "c"), own + "an array of its fields' type: " + byte + " c[3]") << run.printed;
    EXPECT_EQ(fixOf(run, "w"), own + "its field's type: double w") << run.printed;
    EXPECT_EQ(fixOf(run, "ws"), own + "its field's type: double ws[4]") << run.printed;
    EXPECT_EQ(fixOf(run, "o"), own + "its field's type: char o") << run.printed;
    EXPECT_EQ(fixOf(run, "os"), own + "its field's type: " + byte + " os[2]") << run.printed;
  }
}

// std::array<char, N> holds N values, but its fix used to be `char c[N]`, a NUL-terminated string on
// the wire (a 0 first loses the rest): as for a foreign struct of chars, the fix is the integer of
// char's signedness on the target. signed and unsigned char arrays keep their own type.
TEST(FieldRules, AStdArrayOfCharGetsTheFixedWidthByteArrayOfCharsSignedness) {
  const std::string source = "#include <array>\nstruct [[ringkernel::message]] B { std::array<char, 4> c; "
                             "std::array<std::array<char, 3>, 2> cc; std::array<signed char, 2> s; "
                             "std::array<unsigned char, 2> u; };\n";
  const std::string notChar = "fix: use a built-in array (not of char: a char array is a NUL-terminated string on the wire): ";
  for (const auto& [flag, byte] : {std::pair<std::string, std::string>{"-fsigned-char", "std::int8_t"},
                                   {"-funsigned-char", "std::uint8_t"}}) {
    SCOPED_TRACE(flag);
    const auto run = runFrontendOn(source, "x86_64-linux-gnu", {}, {flag});
    EXPECT_EQ(errorCount(run), 4u) << run.printed;
    EXPECT_EQ(fixOf(run, "c"), notChar + byte + " c[4]") << run.printed;
    EXPECT_EQ(fixOf(run, "cc"), notChar + byte + " cc[2][3]") << run.printed;
    EXPECT_EQ(fixOf(run, "s"), "fix: use a built-in array: std::int8_t s[2]") << run.printed;
    EXPECT_EQ(fixOf(run, "u"), "fix: use a built-in array: std::uint8_t u[2]") << run.printed;
  }
}

// A typedef of an unnamed struct (glibc's div_t) is a struct from another header too: the fix used
// to be "give the struct a name and annotate it", which the user cannot do to a system header. So is
// one that only an alias declaration names (using PointU = struct { ... };): clang gives it the alias
// as its name for linkage too.
TEST(FieldRules, ATypedefOrAliasOfAnUnnamedStructFromAnotherHeaderGetsTheForeignStructFix) {
  const std::map<std::string, std::string> files = {
      {"/ringkernel-test/mine.h", "typedef struct { float x, y; } PointT;\nusing PointU = struct { double u, v, w; };\n"}};
  const std::string source = "#include <cstdlib>\n#include \"mine.h\"\n"
                             "struct [[ringkernel::message]] Q { div_t d2; PointT pt; PointU pu; };\n";
  const auto run = runFrontendOn(source, "x86_64-linux-gnu", files, {"-I/ringkernel-test"});
  EXPECT_EQ(errorCount(run), 3u) << run.printed;
  EXPECT_TRUE(hasError(run, positionOf(source, "pu;"), {"field 'pu'", "(declared in 'mine.h')"},
                       "give the struct a name and annotate it in 'mine.h' if that header is yours, else use a "
                       "[[ringkernel::message]] struct of your own with the same fields, or an array of its "
                       "fields' type: double pu[3]"));
  EXPECT_TRUE(hasError(run, positionOf(source, "d2;"),
                       {"field 'd2'", "'div_t', which is not a [[ringkernel::message]] and is declared in a system header"},
                       "use a [[ringkernel::message]] struct of your own with the same fields, or an array of its "
                       "fields' type: std::int32_t d2[2]"));
  EXPECT_TRUE(hasError(run, positionOf(source, "pt;"), {"field 'pt'", "(declared in 'mine.h')"},
                       "give the struct a name and annotate it in 'mine.h' if that header is yours, else use a "
                       "[[ringkernel::message]] struct of your own with the same fields, or an array of its "
                       "fields' type: float pt[2]"));
}

}  // namespace
}  // namespace ringkernel::gen
