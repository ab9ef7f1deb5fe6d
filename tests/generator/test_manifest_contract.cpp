// Copyright RingKernel authors.
// What the manifest tells a peer that is not C++ (docs/generator.md, "The manifest (.rk.json) for
// non-C++ peers"): char8_t has a kind of its own (its arrays are arrays of ints, those of
// std::uint8_t bin), and every enumerator carries the integer the wire carries as a JSON number,
// exact over the whole int64 and uint64 range, next to its C++ spelling.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "frontend_harness.h"
#include "manifest.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::runFrontendOn;
using Json = nlohmann::json;

const Json* find(const Json& list, const std::string& qualifiedName) {
  for (const Json& item : list) {
    if (item["qualified_name"] == qualifiedName) return &item;
  }
  ADD_FAILURE() << "no " << qualifiedName << " in the manifest";
  return nullptr;
}

const Json& field(const Json& manifest, const std::string& message, const std::string& name) {
  const Json* m = find(manifest["messages"], message);
  for (const Json& f : (*m)["fields"]) {
    if (f["name"] == name) return f;
  }
  throw std::runtime_error("no field " + name);
}

/// The enumerators of `qualifiedName` in the manifest, by name.
std::map<std::string, Json> enumerators(const Json& manifest, const std::string& qualifiedName) {
  std::map<std::string, Json> out;
  for (const Json& e : (*find(manifest["enums"], qualifiedName))["enumerators"]) out[e["name"]] = e;
  return out;
}

constexpr const char* kCharacters = R"(#include <cstdint>
#include <cstddef>
struct [[ringkernel::message]] Characters {
  char8_t u8[4]; char8_t one; std::uint8_t bytes[4]; unsigned char uc[2]; std::byte raw[2]; char text[4];
  char16_t u16[2]; char32_t u32;
};)";

TEST(ManifestContract, Char8HasAKindOfItsOwn) {
  const auto run = runFrontendOn(kCharacters);
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.field("Characters", "u8").kind, FieldKind::Char8);
  EXPECT_EQ(run.field("Characters", "one").underlying, FieldKind::Char8);
  EXPECT_EQ(run.field("Characters", "bytes").kind, FieldKind::UInt8);
  const Json manifest = Json::parse(manifestJson(run.header()));
  const std::pair<const char*, const char*> kinds[] = {
      {"u8", "char8"},  {"one", "char8"},     {"bytes", "uint8"},  {"uc", "uint8"},
      {"raw", "byte"},  {"text", "character"}, {"u16", "uint16"}, {"u32", "uint32"}};
  for (const auto& [name, kind] : kinds) {
    EXPECT_EQ(field(manifest, "Characters", name)["kind"], kind) << name;
    EXPECT_EQ(field(manifest, "Characters", name)["underlying"], kind) << name;
  }
  EXPECT_EQ(manifest["schema_version"], 2);
  // The registry step reads the kind back.
  HeaderModel back;
  std::string error;
  ASSERT_TRUE(readManifest(manifestJson(run.header()), "c.rk.json", back, error)) << error;
  EXPECT_EQ(back.messages[0].fields[0].kind, FieldKind::Char8);
  EXPECT_EQ(manifestJson(back), manifestJson(run.header()));
}

TEST(ManifestContract, AnEnumOnChar8IsAnEnumerationOverChar8) {
  const auto run = runFrontendOn(R"(enum class Octet : char8_t { nul, top = 0xff };
struct [[ringkernel::message]] Octets { Octet one; Octet many[2]; };)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.field("Octets", "many").kind, FieldKind::Enumeration);
  EXPECT_EQ(run.field("Octets", "many").underlying, FieldKind::Char8);
  const Json manifest = Json::parse(manifestJson(run.header()));
  EXPECT_EQ((*find(manifest["enums"], "Octet"))["underlying"], "char8");
  EXPECT_EQ(enumerators(manifest, "Octet")["top"]["wire_value"], 255);
}

// Builtin types only: the aarch64 parse has no <cstdint>.
constexpr const char* kEnums = R"(enum class Min : long long { lowest = -9223372036854775807LL - 1, highest = 9223372036854775807LL };
enum class Max : unsigned long long { zero, highest = 18446744073709551615ull };
enum class Latin : signed char { e_acute = -23, a = 'a' };
enum class Plain : char { high = '\xe9', low = 'z' };
enum class Flag : bool { no, yes };
enum Unscoped : unsigned { big = 0x80000000u };
struct [[ringkernel::message]] Enums { Min min; Max max; Latin latin; Plain plain; Flag flag; Unscoped u; };)";

TEST(ManifestContract, EnumeratorsCarryTheirWireValueAsAJsonInteger) {
  for (const char* target : {"x86_64-linux-gnu", "aarch64-linux-gnu"}) {  // plain char unsigned on the second
    SCOPED_TRACE(target);
    const auto run = runFrontendOn(kEnums, target);
    ASSERT_EQ(errorCount(run), 0u) << run.printed;
    const std::string text = manifestJson(run.header());
    // Exact in the text (no double rounding) and through nlohmann::json.
    EXPECT_NE(text.find(R"("wire_value":-9223372036854775808)"), std::string::npos);
    EXPECT_NE(text.find(R"("wire_value":18446744073709551615)"), std::string::npos);
    const Json manifest = Json::parse(text);
    auto min = enumerators(manifest, "Min");
    EXPECT_EQ(min["lowest"]["value"], "(-9223372036854775807LL - 1)");  // the C++ spelling stays
    EXPECT_EQ(min["lowest"]["wire_value"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(min["highest"]["wire_value"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
    auto max = enumerators(manifest, "Max");
    EXPECT_TRUE(max["highest"]["wire_value"].is_number_unsigned());
    EXPECT_EQ(max["highest"]["wire_value"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(max["zero"]["wire_value"], 0);
    auto latin = enumerators(manifest, "Latin");
    EXPECT_EQ(latin["e_acute"]["wire_value"], -23);
    EXPECT_EQ(latin["a"]["wire_value"], 97);
    // A plain char travels as signed char everywhere (docs/wire-format.md section 3).
    auto plain = enumerators(manifest, "Plain");
    EXPECT_EQ(plain["high"]["value"], "'\\xe9'");
    EXPECT_EQ(plain["high"]["wire_value"], -23);
    EXPECT_EQ(plain["low"]["wire_value"], 122);
    auto flag = enumerators(manifest, "Flag");  // an enum on bool is an int on the wire
    EXPECT_EQ(flag["no"]["wire_value"], 0);
    EXPECT_EQ(flag["yes"]["wire_value"], 1);
    EXPECT_TRUE(flag["yes"]["wire_value"].is_number_integer());
    EXPECT_EQ(enumerators(manifest, "Unscoped")["big"]["wire_value"], 2147483648u);
    // The registry step reads them back, to the same text.
    HeaderModel back;
    std::string error;
    ASSERT_TRUE(readManifest(text, "e.rk.json", back, error)) << error;
    EXPECT_EQ(manifestJson(back), text);
  }
}

// The registry step reads back every manifest the front end writes: a non-ASCII kernel, by default
// and written out (the reader applies the attribute's kernel-name rule). Before, the attribute
// refused kernel = "Grüße", and a name with '$' was generated and then refused by the reader
// (test_validator_records.cpp: '$' is now refused at generation).
TEST(ManifestContract, TheReaderTakesBackNonAsciiKernels) {
  const std::string kernel = "Gr\xc3\xbc\xc3\x9f" "e";
  const auto run = runFrontendOn("namespace caf\xc3\xa9 { struct [[ringkernel::message]] " + kernel + " { int n; };\n"
                                 "struct [[ringkernel::message(kernel = \"" + kernel + "\")]] Other { int n; }; }\n");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const std::string text = manifestJson(run.header());
  HeaderModel back;
  std::string error;
  ASSERT_TRUE(readManifest(text, "k.rk.json", back, error)) << error;
  EXPECT_EQ(manifestJson(back), text);
}

}  // namespace
}  // namespace ringkernel::gen
