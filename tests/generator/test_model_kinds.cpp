// Copyright RingKernel authors.
// Field kinds, enums, nested messages (also from other headers), ordering, default initializers
// and the header-level facts of the model (include spelling, stem, files read).
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend_harness.h"
#include "ringkernel/message.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::runFrontendOn;

TEST(ModelKinds, ScalarKindsByCanonicalType) {
  const auto run = runFrontendOn(R"(#include <cstdint>
#include <cstddef>
using Alias = unsigned short;
struct [[ringkernel::message]] Kinds {
  bool b; char c; signed char sc; unsigned char uc; char8_t c8; char16_t c16; char32_t c32;
  std::byte by; short s; Alias us; int i; unsigned u; long long ll; unsigned long long ull;
  std::int8_t i8; std::uint64_t u64; float f; double d;
};)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const std::vector<std::pair<const char*, FieldKind>> expected = {
      {"b", FieldKind::Boolean},  {"c", FieldKind::Character}, {"sc", FieldKind::Int8},
      {"uc", FieldKind::UInt8},   {"c8", FieldKind::Char8},    {"c16", FieldKind::UInt16},
      {"c32", FieldKind::UInt32}, {"by", FieldKind::Byte},     {"s", FieldKind::Int16},
      {"us", FieldKind::UInt16},  {"i", FieldKind::Int32},     {"u", FieldKind::UInt32},
      {"ll", FieldKind::Int64},   {"ull", FieldKind::UInt64},  {"i8", FieldKind::Int8},
      {"u64", FieldKind::UInt64}, {"f", FieldKind::Float32},   {"d", FieldKind::Float64}};
  for (const auto& [name, kind] : expected) {
    const FieldModel& field = run.field("Kinds", name);
    EXPECT_EQ(field.kind, kind) << name;
    EXPECT_EQ(field.underlying, kind) << name;
    const std::string_view own(name);
    // .rk.cuh keeps the Unicode character types: std::uint8_t[N] would be bin on the wire, char8_t[N] is not
    // (char8_t has a kind of its own, whose fixed-width spelling is char8_t).
    const std::string spelled = own == "c16" ? "char16_t" : own == "c32" ? "char32_t" : fixedWidthType(kind);
    EXPECT_EQ(field.typeName, spelled) << name;
    EXPECT_TRUE(field.referencedType.empty()) << name;
  }
}

// .rk.h asserts that every compiled field has the type the parse resolved (sourceType, element type):
// the canonical type, not the fixed-width spelling of .rk.cuh, and valid from any scope.
TEST(ModelKinds, SourceTypeIsTheResolvedElementType) {
  const auto run = runFrontendOn(R"(#include <cstdint>
#include <cstddef>
namespace app {
using Stamp = std::uint32_t;
enum class Mode : std::uint8_t { off, on };
struct [[ringkernel::message]] Point { std::int32_t x; };
struct [[ringkernel::message]] Types {
  Stamp stamp; unsigned long long ull; long l; char8_t c8; signed char sc; char c; bool b;
  std::byte raw[4]; Mode mode; Point corner; float grid[2][3];
};
})");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const std::vector<std::pair<const char*, const char*>> expected = {
      {"stamp", "unsigned int"}, {"ull", "unsigned long long"}, {"l", "long"},
      {"c8", "char8_t"},         {"sc", "signed char"},         {"c", "char"},
      {"b", "bool"},             {"raw", "::std::byte"},         {"mode", "::app::Mode"},
      {"corner", "::app::Point"}, {"grid", "float"}};
  for (const auto& [name, type] : expected) {
    EXPECT_EQ(run.field("app::Types", name).sourceType, type) << name;
  }
}

TEST(ModelKinds, EnumsCarryTheirUnderlyingKindAndEnumerators) {
  const auto run = runFrontendOn(R"(#include <cstdint>
namespace app {
enum class Small : std::int8_t { Neg = -3, Pos = 4 };
enum Unscoped { U0, U1 = 0x80000000u };
enum class Big : unsigned long long { Max = 18446744073709551615ull };
enum class Flag : bool { No, Yes };
struct [[ringkernel::message]] Uses { Small s; Unscoped u; Big b[2]; Flag f; Small again; };
}
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().enums.size(), 4u);  // Small once, in order of first use
  EXPECT_EQ(run.header().enums.front().qualifiedName, "app::Small");

  const EnumModel& small = run.enumeration("app::Small");
  EXPECT_TRUE(small.scoped);
  EXPECT_EQ(small.name, "Small");
  EXPECT_EQ(small.namespaces, (std::vector<std::string>{"app"}));
  EXPECT_EQ(small.underlying, FieldKind::Int8);
  ASSERT_EQ(small.enumerators.size(), 2u);
  EXPECT_EQ(small.enumerators[0].name, "Neg");
  EXPECT_EQ(small.enumerators[0].value, "-3");
  EXPECT_EQ(small.enumerators[1].value, "4");

  const EnumModel& unscoped = run.enumeration("app::Unscoped");
  EXPECT_FALSE(unscoped.scoped);
  EXPECT_EQ(unscoped.underlying, FieldKind::UInt32);
  EXPECT_EQ(unscoped.enumerators[1].value, "2147483648u");
  EXPECT_EQ(run.enumeration("app::Big").underlying, FieldKind::UInt64);
  EXPECT_EQ(run.enumeration("app::Big").enumerators[0].value, "18446744073709551615ull");
  EXPECT_EQ(run.enumeration("app::Flag").enumerators[1].value, "true");

  const FieldModel& s = run.field("app::Uses", "s");
  EXPECT_EQ(s.kind, FieldKind::Enumeration);
  EXPECT_EQ(s.underlying, FieldKind::Int8);
  EXPECT_EQ(s.typeName, "::app::Small");
  EXPECT_EQ(s.referencedType, "app::Small");
  EXPECT_EQ(run.field("app::Uses", "b").extents, (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(run.field("app::Uses", "b").underlying, FieldKind::UInt64);
}

// Only std::byte is a byte (bin on the wire): an enum of the user's that is also named `byte` is an
// enum (an integer on the wire, its enumerators in the model), in a namespace or at global scope.
TEST(ModelKinds, OnlyStdByteIsAByte) {
  const auto run = runFrontendOn(R"(#include <cstddef>
#include <cstdint>
namespace app { enum class byte : std::uint8_t { zero, one }; }
enum byte : std::int16_t { low = -1 };
struct [[ringkernel::message]] Raw { std::byte b[2]; app::byte a[2]; ::byte g; };)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.field("Raw", "b").kind, FieldKind::Byte);
  const FieldModel& a = run.field("Raw", "a");
  EXPECT_EQ(a.kind, FieldKind::Enumeration);
  EXPECT_EQ(a.underlying, FieldKind::UInt8);
  EXPECT_EQ(a.referencedType, "app::byte");
  const FieldModel& g = run.field("Raw", "g");
  EXPECT_EQ(g.kind, FieldKind::Enumeration);
  EXPECT_EQ(g.underlying, FieldKind::Int16);
  EXPECT_EQ(run.enumeration("app::byte").enumerators.size(), 2u);
  EXPECT_EQ(run.enumeration("byte").enumerators.size(), 1u);
}

TEST(ModelKinds, NestedMessagesAndEnumsInsideAMessage) {
  const auto run = runFrontendOn(R"(#include <cstdint>
namespace a::b {
struct [[ringkernel::message]] Outer {
  struct [[ringkernel::message(id = 5)]] Inner { std::int32_t x; };
  enum class Mode : std::uint8_t { Off, On };
  Inner inner; Mode mode; Inner more[2];
};
}
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const auto& messages = run.header().messages;
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].qualifiedName, "a::b::Outer::Inner");  // dependencies first
  EXPECT_EQ(messages[1].qualifiedName, "a::b::Outer");
  EXPECT_EQ(messages[0].enclosingMessage, "a::b::Outer");
  EXPECT_EQ(messages[0].namespaces, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(messages[1].enclosingMessage.empty());

  const FieldModel& inner = run.field("a::b::Outer", "inner");
  EXPECT_EQ(inner.kind, FieldKind::Message);
  EXPECT_EQ(inner.typeName, "::a::b::Outer::Inner");
  EXPECT_EQ(inner.messageTypeId, 5u);
  EXPECT_EQ(run.field("a::b::Outer", "more").messageTypeId, 5u);
  EXPECT_EQ(run.enumeration("a::b::Outer::Mode").enclosingMessage, "a::b::Outer");
}

TEST(ModelKinds, NestedMessageFromAnotherHeaderIsIncludedButNotOwned) {
  const std::map<std::string, std::string> files = {
      {"/ringkernel-test/common/vec.h",
       "#pragma once\nnamespace geo { struct [[ringkernel::message]] Vec3 { float x, y, z; };\n"
       "struct [[ringkernel::message]] Unused { int a; }; }\n"}};
  const auto run = runFrontendOn("#include \"common/vec.h\"\n"
                                 "struct [[ringkernel::message]] Body { geo::Vec3 position; };\n",
                                 "x86_64-linux-gnu", files);
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const auto& messages = run.header().messages;
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].qualifiedName, "geo::Vec3");
  EXPECT_FALSE(messages[0].fromThisHeader);
  EXPECT_EQ(messages[0].location.file, "/ringkernel-test/common/vec.h");
  EXPECT_EQ(messages[1].qualifiedName, "Body");
  EXPECT_TRUE(messages[1].fromThisHeader);
  EXPECT_EQ(run.field("Body", "position").messageTypeId, ringkernel::fnv1a32("geo::Vec3"));
  const auto& read = run.result.filesRead;
  EXPECT_NE(std::find(read.begin(), read.end(), "/ringkernel-test/common/vec.h"), read.end());
}

TEST(ModelKinds, DefaultMemberInitializersBecomeLiterals) {
  const auto run = runFrontendOn(R"(#include <cstdint>
#include <climits>
enum class Color : std::uint8_t { Red, Green = 5 };
constexpr int kBase = 40;
struct [[ringkernel::message]] Init {
  std::int32_t a = kBase + 2; std::uint32_t b = 7; std::int64_t c = -5; std::uint64_t d{9};
  float e = 1.5f; double f = 0.1; bool g = true; char h = 'a'; char q = '\''; Color i = Color::Green;
  Color j = static_cast<Color>(3); std::int32_t k = INT_MIN; std::int16_t l{}; char m[4] = {};
  std::int8_t n = -1; float o = 2; double p;
};)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const std::vector<std::pair<const char*, const char*>> expected = {
      {"a", "42"},        {"b", "7u"},       {"c", "-5LL"},
      {"d", "9ull"},      {"e", "1.5f"},     {"f", "0.10000000000000001"},
      {"g", "true"},      {"h", "'a'"},      {"q", "'\\''"},
      {"i", "::Color::Green"}, {"j", "static_cast<::Color>(3u)"},
      {"k", "(-2147483647 - 1)"}, {"l", "0"}, {"m", "{}"}, {"n", "-1"}, {"o", "2.0f"}, {"p", ""}};
  for (const auto& [name, literal] : expected) {
    EXPECT_EQ(run.field("Init", name).initializer, literal) << name;
  }
}

TEST(ModelHeader, IncludeSpellingStemTargetAndFilesRead) {
  const auto run = runFrontendOn("#include <stddef.h>\n#include <cstdint>\n"
                                 "struct [[ringkernel::message]] A { std::size_t n; };\n");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const HeaderModel& header = run.header();
  EXPECT_EQ(header.headerPath, testing::kHeaderPath);
  EXPECT_EQ(header.includeSpelling, "../messages.h");
  EXPECT_EQ(header.stem, "messages");
  EXPECT_EQ(header.targetTriple, "x86_64-unknown-linux-gnu");
  const auto& read = run.result.filesRead;
  EXPECT_TRUE(std::is_sorted(read.begin(), read.end()));
  EXPECT_NE(std::find(read.begin(), read.end(), testing::kHeaderPath), read.end());
  const bool builtinStddef = std::any_of(read.begin(), read.end(), [](const std::string& path) {
    return path.find("/clang/") != std::string::npos && path.ends_with("/include/stddef.h");
  });
  EXPECT_TRUE(builtinStddef) << "clang's builtin stddef.h was not read";
  for (const std::string& path : read) EXPECT_EQ(path.front(), '/') << path;
}

constexpr const char* kOneMessage = "struct [[ringkernel::message]] A { int n; };\n";

TEST(ModelHeader, IncludeSpellingIsRelativeToTheLongestIncludeDirectoryHoldingTheHeader) {
  // -I/ also holds it ("ringkernel-test/messages.h"); the longest directory gives the shortest.
  auto run = runFrontendOn(kOneMessage, "x86_64-linux-gnu", {}, {"-I/", "-I/ringkernel-test"});
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().includeSpelling, "messages.h");
  // Relative to the compile directory ("/"), with "." and ".." removed.
  run = runFrontendOn(kOneMessage, "x86_64-linux-gnu", {}, {"-Iringkernel-test/out/../."});
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().includeSpelling, "messages.h");
  run = runFrontendOn(kOneMessage, "x86_64-linux-gnu", {}, {"-iquote", "/ringkernel-test"});
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().includeSpelling, "messages.h");
}

TEST(ModelHeader, IncludeSpellingAvoidsANamesakeFoundFirst) {
  // "messages.h" would find shadow/messages.h first: the next spelling that finds this header wins.
  const std::map<std::string, std::string> files = {{"/ringkernel-test/shadow/messages.h", "\n"}};
  auto run = runFrontendOn(kOneMessage, "x86_64-linux-gnu", files,
                           {"-I/ringkernel-test/shadow", "-I/ringkernel-test", "-I/"});
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().includeSpelling, "ringkernel-test/messages.h");
  // No include directory finds it: the spelling relative to the output directory.
  run = runFrontendOn(kOneMessage, "x86_64-linux-gnu", files,
                      {"-I/ringkernel-test/shadow", "-I/ringkernel-test"});
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().includeSpelling, "../messages.h");
}

TEST(ModelHeader, MessagesOfOtherHeadersAreNotRootsAndGeneratorMacroIsDefined) {
  const std::map<std::string, std::string> files = {
      {"/ringkernel-test/other.h", "struct [[ringkernel::message]] Elsewhere { int a; };\n"}};
  const auto run = runFrontendOn("#include \"other.h\"\n#ifndef RINGKERNEL_GENERATOR\n#error no\n"
                                 "#endif\nstruct [[ringkernel::message]] Here { int a; };\n",
                                 "x86_64-linux-gnu", files);
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  ASSERT_EQ(run.header().messages.size(), 1u);
  EXPECT_EQ(run.header().messages[0].qualifiedName, "Here");
}

}  // namespace
}  // namespace ringkernel::gen
