// Copyright RingKernel authors.
// readManifest on damaged manifests: every kind of bad value is refused with the manifest's name and
// the JSON path of the value (what `ringkernel-gen registry` prints), and JSON syntax errors carry
// the line and column of the offending character.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "backend_models.h"
#include "cpp_spelling.h"
#include "manifest.h"

namespace ringkernel::gen {
namespace {

using Json = nlohmann::ordered_json;

struct BadManifest {
  const char* name;
  std::function<void(Json&)> edit;
  std::string error;  // after "m.rk.json: "
};

void PrintTo(const BadManifest& bad, std::ostream* out) { *out << bad.name; }

class ManifestValue : public ::testing::TestWithParam<BadManifest> {};

TEST_P(ManifestValue, IsRefusedWithItsJsonPath) {
  Json root = Json::parse(manifestJson(testing::sampleHeader()));
  HeaderModel model;
  std::string error;
  ASSERT_TRUE(readManifest(root.dump(2), "m.rk.json", model, error)) << error;
  GetParam().edit(root);
  EXPECT_FALSE(readManifest(root.dump(2), "m.rk.json", model, error));
  EXPECT_EQ(error, "m.rk.json: " + GetParam().error);
}

const std::string kUpToUInt32 = "expected an unsigned integer up to 4294967295";
const std::string kNotAbsolute =
    "is not an absolute path that a quoted #include can spell (no '\"', '\\' or control character)";
const std::string kNotRelative =
    "is not a relative path that a quoted #include can spell (no '\"', '\\' or control character)";
// The kernel-name rule as the manifest reader states it (and the attribute's fix: test_names.cpp).
const std::string kNotAKernelName =
    "is not a kernel name (ASCII letters, digits, '_', '.', ':', '-' or printable non-ASCII characters in UTF-8, "
    "none invisible: no format characters such as bidirectional controls, no space characters such as U+00A0, "
    "no fillers or variation selectors such as U+3164 or U+FE0F): ";

// clang-format off
INSTANTIATE_TEST_SUITE_P(Values, ManifestValue, ::testing::Values(
  BadManifest{"WrongSchema", [](Json& j) { j["schema"] = "other"; },
              "schema: not a ringkernel manifest (expected \"ringkernel-manifest\")"},
  BadManifest{"HeaderNotAnObject", [](Json& j) { j["header"] = Json::array(); }, "header: expected an object"},
  BadManifest{"MissingTopLevelKey", [](Json& j) { j.erase("messages"); }, "top level: missing key \"messages\""},
  BadManifest{"MissingNestedKey", [](Json& j) { j["header"].erase("target"); }, "header: missing key \"target\""},
  BadManifest{"StemIsDot", [](Json& j) { j["header"]["stem"] = ".."; },
              "header.stem: \"..\" is not a file name without a directory"},
  // A bad string is shown as the manifest spells it (JSON escapes), so the error stays one line.
  BadManifest{"StemWithQuote", [](Json& j) { j["header"]["stem"] = "a\"b"; },
              "header.stem: \"a\\\"b\" is not a file name without a directory"},
  BadManifest{"StemWithNewlineAndQuote", [](Json& j) { j["header"]["stem"] = "a\n\"b\x01"; },
              "header.stem: \"a\\n\\\"b\\u0001\" is not a file name without a directory"},
  BadManifest{"StemWithDelete", [](Json& j) { j["header"]["stem"] = "a\x7f"; },
              "header.stem: \"a\\u007f\" is not a file name without a directory"},
  BadManifest{"StemNotThatOfThePath", [](Json& j) { j["header"]["stem"] = "other"; },
              "header.stem: \"other\" is not the stem of header.path \"/src/app.h\""},
  // What ringkernel-gen refuses in an input header's path (or never writes) is refused here too.
  BadManifest{"HeaderPathRelative", [](Json& j) { j["header"]["path"] = "src/app.h"; },
              "header.path: \"src/app.h\" " + kNotAbsolute},
  BadManifest{"HeaderPathWithNewline", [](Json& j) { j["header"]["path"] = "/src/a\npp.h"; },
              "header.path: \"/src/a\\npp.h\" " + kNotAbsolute},
  BadManifest{"HeaderPathWithQuote", [](Json& j) { j["header"]["path"] = "/src/a\"pp.h"; },
              "header.path: \"/src/a\\\"pp.h\" " + kNotAbsolute},
  BadManifest{"HeaderPathWithBackslash", [](Json& j) { j["header"]["path"] = "/src\\app.h"; },
              "header.path: \"/src\\\\app.h\" " + kNotAbsolute},
  BadManifest{"IncludeEmpty", [](Json& j) { j["header"]["include"] = ""; }, "header.include: \"\" " + kNotRelative},
  BadManifest{"IncludeAbsolute", [](Json& j) { j["header"]["include"] = "/src/app.h"; },
              "header.include: \"/src/app.h\" " + kNotRelative},
  BadManifest{"IncludeWithDelete", [](Json& j) { j["header"]["include"] = "app.h\x7f"; },
              "header.include: \"app.h\\u007f\" " + kNotRelative},
  BadManifest{"OptionKernelNotAKernelName", [](Json& j) { j["messages"][1]["options"]["kernel"] = "Sh\"ape\n"; },
              "messages[1].options.kernel: \"Sh\\\"ape\\n\" " + kNotAKernelName + "it has '\"', which is not a "
              "letter, a digit, '_', '.', ':' or '-'"},
  // A bidirectional control (here U+202E) hides what the name is and makes g++'s -Wbidi-chars fail
  // the generated files under -Werror: refused as the attribute refuses it, the code point named.
  BadManifest{"OptionKernelWithABidiControl", [](Json& j) { j["messages"][1]["options"]["kernel"] = "x\xe2\x80\xaey"; },
              "messages[1].options.kernel: \"x<U+202E>y\" " + kNotAKernelName + "it has U+202E, an "
              "invisible format character (such as a bidirectional control or a zero-width character), which "
              "would hide what the name is"},
  // A no-break space (Unicode Zs) looks like a plain space: refused as the attribute refuses it.
  BadManifest{"OptionKernelWithANoBreakSpace", [](Json& j) { j["messages"][1]["options"]["kernel"] = "a\xc2\xa0" "b"; },
              "messages[1].options.kernel: \"a<U+00A0>b\" " + kNotAKernelName + "it has U+00A0, a "
              "space character (Unicode Zs, such as a no-break space) that looks like a plain space, which would hide "
              "what the name is"},
  // A Hangul filler (U+3164) is printable and not Cf, yet shows as a blank: refused as the attribute refuses it.
  BadManifest{"OptionKernelWithAHangulFiller", [](Json& j) { j["messages"][1]["options"]["kernel"] = "x\xe3\x85\xa4y"; },
              "messages[1].options.kernel: \"x<U+3164>y\" " + kNotAKernelName + "it has U+3164, an "
              "invisible character (a filler, a variation selector or a blank pattern) that shows as nothing or as "
              "a blank, which would hide what the name is"},
  BadManifest{"KernelNotTheDefault", [](Json& j) { j["messages"][1]["kernel"] = "Elsewhere"; },
              "messages[1].kernel: \"Elsewhere\" is not the kernel of \"ShapeRequest\" (expected \"Shape\", the "
              "name without Request/Response/Message)"},
  BadManifest{"KernelNotTheOption", [](Json& j) { j["messages"][1]["options"]["kernel"] = "Draw"; },
              "messages[1].kernel: \"Shape\" is not the kernel of \"ShapeRequest\" (expected \"Draw\", from "
              "options.kernel)"},
  BadManifest{"KernelIdNotItsHash", [](Json& j) { j["messages"][0]["kernel_id"] = 7; },
              "messages[0].kernel_id: 0x00000007u is not the FNV-1a hash of kernel \"Point\" (" +
                  hexLiteral(fnv1a32("Point")) + ")"},
  BadManifest{"MessagesNotAnArray", [](Json& j) { j["messages"] = Json::object(); }, "messages: expected an array"},
  BadManifest{"MessageNotAnObject", [](Json& j) { j["messages"][0] = 5; }, "messages[0]: expected an object"},
  BadManifest{"NameNotAString", [](Json& j) { j["messages"][0]["name"] = 5; }, "messages[0].name: expected a string"},
  BadManifest{"FlagNotABoolean", [](Json& j) { j["messages"][0]["is_class"] = "yes"; },
              "messages[0].is_class: expected true or false"},
  BadManifest{"NamespaceNotAString", [](Json& j) { j["messages"][0]["namespaces"][0] = 3; },
              "messages[0].namespaces[0]: expected a string"},
  BadManifest{"InlineNamespaceOutOfRange", [](Json& j) { j["messages"][0]["inline_namespaces"] = Json::array({1}); },
              "messages[0].inline_namespaces[0]: expected an unsigned integer up to 0"},
  BadManifest{"InlineNamespacesRepeated", [](Json& j) { j["messages"][0]["inline_namespaces"] = Json::array({0, 0}); },
              "messages[0].inline_namespaces[1]: expected ascending indices below 1"},
  BadManifest{"InlineNamespaceWithoutNamespaces", [](Json& j) {
                j["messages"][0]["namespaces"] = Json::array();
                j["messages"][0]["inline_namespaces"] = Json::array({0});
              }, "messages[0].inline_namespaces[0]: expected ascending indices below 0"},
  // A hand-edited id (or a manifest whose registry would disagree with the .rk.h it includes).
  BadManifest{"TypeIdNotItsHash", [](Json& j) { j["messages"][0]["type_id"] = 4660; },
              "messages[0].type_id: 0x00001234u is not the type id of \"app::Point\" (expected 0x7357ddfeu, "
              "the FNV-1a hash of qualified_name)"},
  BadManifest{"TypeIdNotItsOption", [](Json& j) { j["messages"][1]["options"]["id"] = 7; },
              "messages[1].type_id: 0x380c95fau is not the type id of \"app::ShapeRequest\" (expected 0x00000007u, "
              "from options.id)"},
  BadManifest{"TypeIdZero", [](Json& j) { j["messages"][0]["type_id"] = 0; }, "messages[0].type_id: 0 is reserved"},
  BadManifest{"TypeIdTooLarge", [](Json& j) { j["messages"][0]["type_id"] = 4294967296ull; },
              "messages[0].type_id: " + kUpToUInt32},
  BadManifest{"KernelIdNegative", [](Json& j) { j["messages"][0]["kernel_id"] = -1; },
              "messages[0].kernel_id: " + kUpToUInt32},
  BadManifest{"SizeNotAnInteger", [](Json& j) { j["messages"][0]["size"] = 8.5; }, "messages[0].size: " + kUpToUInt32},
  BadManifest{"QualifiedNameEmpty", [](Json& j) { j["messages"][0]["qualified_name"] = ""; },
              "messages[0].qualified_name: \"\" is not a C++ qualified name"},
  BadManifest{"QualifiedNameTrailingColons", [](Json& j) { j["messages"][0]["qualified_name"] = "app::"; },
              "messages[0].qualified_name: \"app::\" is not a C++ qualified name"},
  BadManifest{"QualifiedNameLeadingDigit", [](Json& j) { j["messages"][0]["qualified_name"] = "app::1Point"; },
              "messages[0].qualified_name: \"app::1Point\" is not a C++ qualified name"},
  BadManifest{"QualifiedNameWithNewline", [](Json& j) { j["messages"][0]["qualified_name"] = "app::\nPoint"; },
              "messages[0].qualified_name: \"app::\\nPoint\" is not a C++ qualified name"},
  BadManifest{"UnknownDirection", [](Json& j) { j["messages"][1]["options"]["direction"] = "sideways"; },
              "messages[1].options.direction: unknown value \"sideways\""},
  BadManifest{"UnknownDirectionWithQuote", [](Json& j) { j["messages"][1]["options"]["direction"] = "in\"put\t"; },
              "messages[1].options.direction: unknown value \"in\\\"put\\t\""},
  BadManifest{"UnknownFormat", [](Json& j) { j["messages"][1]["options"]["format"] = "xml"; },
              "messages[1].options.format: unknown value \"xml\""},
  BadManifest{"PriorityAbove255", [](Json& j) { j["messages"][1]["options"]["priority"] = 256; },
              "messages[1].options.priority: expected an unsigned integer up to 255"},
  BadManifest{"OptionIdNotANumber", [](Json& j) { j["messages"][1]["options"]["id"] = "7"; },
              "messages[1].options.id: " + kUpToUInt32},
  BadManifest{"OptionKernelNotAString", [](Json& j) { j["messages"][1]["options"]["kernel"] = 7; },
              "messages[1].options.kernel: expected a string"},
  BadManifest{"UnknownFieldKind", [](Json& j) { j["messages"][0]["fields"][0]["kind"] = "int128"; },
              "messages[0].fields[0].kind: unknown value \"int128\""},
  BadManifest{"ExtentNegative", [](Json& j) { j["messages"][1]["fields"][2]["extents"][1] = -3; },
              "messages[1].fields[2].extents[1]: " + kUpToUInt32},
  BadManifest{"LocationLineAString", [](Json& j) { j["messages"][0]["fields"][1]["location"]["line"] = "10"; },
              "messages[0].fields[1].location.line: " + kUpToUInt32},
  BadManifest{"EnumeratorNotAnObject", [](Json& j) { j["enums"][0]["enumerators"][1] = Json::array(); },
              "enums[0].enumerators[1]: expected an object"},
  BadManifest{"EnumeratorWithoutWireValue", [](Json& j) { j["enums"][0]["enumerators"][1].erase("wire_value"); },
              "enums[0].enumerators[1]: missing key \"wire_value\""},
  BadManifest{"EnumeratorWireValueNegativeOnAnUnsignedEnum", [](Json& j) { j["enums"][0]["enumerators"][0]["wire_value"] = -1; },
              "enums[0].enumerators[0].wire_value: expected an integer from 0 to 255 (the enum's underlying kind is uint8)"},
  BadManifest{"EnumeratorWireValuePastItsUnderlyingKind", [](Json& j) { j["enums"][0]["enumerators"][1]["wire_value"] = 256; },
              "enums[0].enumerators[1].wire_value: expected an integer from 0 to 255 (the enum's underlying kind is uint8)"},
  BadManifest{"EnumeratorWireValueBelowASignedKind",
              [](Json& j) {
                j["enums"][0]["underlying"] = "int8";
                j["enums"][0]["enumerators"][0]["wire_value"] = -129;
              },
              "enums[0].enumerators[0].wire_value: expected an integer from -128 to 127 (the enum's underlying kind is int8)"},
  BadManifest{"EnumeratorWireValueTwoOnABoolEnum",
              [](Json& j) {
                j["enums"][0]["underlying"] = "boolean";
                j["enums"][0]["enumerators"][1]["wire_value"] = 2;
              },
              "enums[0].enumerators[1].wire_value: expected an integer from 0 to 1 (the enum's underlying kind is boolean)"},
  BadManifest{"EnumeratorWireValueAboveInt64OnASignedEnum",
              [](Json& j) {
                j["enums"][0]["underlying"] = "int8";
                j["enums"][0]["enumerators"][0]["wire_value"] = 9223372036854775808ull;
              },
              "enums[0].enumerators[0].wire_value: expected an integer from -128 to 127 (the enum's underlying kind is int8)"},
  BadManifest{"EnumeratorWireValueAString", [](Json& j) { j["enums"][0]["enumerators"][0]["wire_value"] = "0"; },
              "enums[0].enumerators[0].wire_value: expected an integer from 0 to 255 (the enum's underlying kind is uint8)"},
  BadManifest{"EnumUnderlyingUnknown", [](Json& j) { j["enums"][0]["underlying"] = "uint7"; },
              "enums[0].underlying: unknown value \"uint7\""}));
// clang-format on

TEST(BackendManifest, SyntaxErrorsNameTheLineAndColumn) {
  HeaderModel model;
  std::string error;
  EXPECT_FALSE(readManifest("{\n  \"schema\": x\n}\n", "m.rk.json", model, error));
  EXPECT_EQ(error.rfind("m.rk.json:2:13: not valid JSON: ", 0), 0u) << error;
  EXPECT_FALSE(readManifest("", "m.rk.json", model, error));
  EXPECT_EQ(error.rfind("m.rk.json:1:1: not valid JSON: ", 0), 0u) << error;
  EXPECT_FALSE(readManifest("{\"schema\": \"ringkernel-manifest\"}\n{}", "m.rk.json", model, error));
  EXPECT_EQ(error.rfind("m.rk.json:2:1: not valid JSON: ", 0), 0u) << error;
}

}  // namespace
}  // namespace ringkernel::gen
