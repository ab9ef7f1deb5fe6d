// Copyright RingKernel authors.
// FNV-1a 32 vectors, agreement with the runtime's constexpr fnv1a32, kernel name derivation, and
// the ids the frontend assigns.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "frontend_harness.h"
#include "names.h"
#include "ringkernel/message.h"

namespace ringkernel::gen {
namespace {

using testing::runFrontendOn;

TEST(Fnv1a32, PublishedTestVectors) {
  EXPECT_EQ(fnv1a32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1a32("a"), 0xe40c292cu);
  EXPECT_EQ(fnv1a32("foobar"), 0xbf9cf968u);
}

TEST(Fnv1a32, RuntimeConstexprAgreesAtCompileTime) {
  static_assert(ringkernel::fnv1a32("") == 0x811c9dc5u);
  static_assert(ringkernel::fnv1a32("a") == 0xe40c292cu);
  static_assert(ringkernel::fnv1a32("foobar") == 0xbf9cf968u);
  SUCCEED();
}

TEST(Fnv1a32, GeneratorMatchesRuntimeOnManyStrings) {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text.push_back(static_cast<char>((i * 37 + 11) % 256));  // includes bytes >= 0x80 and NUL
    EXPECT_EQ(fnv1a32(text), ringkernel::fnv1a32(text.data(), text.size())) << "length " << i + 1;
  }
  for (const char* name : {"app::AddRequest", "Add", "ns::deeply::Nested::Type", "\xff\xfe"}) {
    EXPECT_EQ(fnv1a32(name), ringkernel::fnv1a32(name, std::char_traits<char>::length(name)));
  }
}

TEST(KernelName, StripsOneKnownSuffix) {
  EXPECT_EQ(defaultKernelName("AddRequest"), "Add");
  EXPECT_EQ(defaultKernelName("AddResponse"), "Add");
  EXPECT_EQ(defaultKernelName("TickMessage"), "Tick");
  EXPECT_EQ(defaultKernelName("Ping"), "Ping");
  EXPECT_EQ(defaultKernelName("RequestResponse"), "Request");
}

TEST(KernelName, KeepsANameThatIsOnlyASuffix) {
  EXPECT_EQ(defaultKernelName("Request"), "Request");
  EXPECT_EQ(defaultKernelName("Message"), "Message");
  EXPECT_EQ(defaultKernelName("request"), "request");  // suffixes are case-sensitive
}

TEST(KernelName, OptionWins) {
  MessageOptions options;
  options.kernel = "Custom";
  EXPECT_EQ(kernelName(options, "AddRequest"), "Custom");
  EXPECT_EQ(kernelName(MessageOptions{}, "AddRequest"), "Add");
}

TEST(TypeId, ExplicitIdWinsOverHash) {
  MessageOptions options;
  EXPECT_EQ(typeId(options, "app::X"), fnv1a32("app::X"));
  options.id = 0x4001u;
  EXPECT_EQ(typeId(options, "app::X"), 0x4001u);
}

TEST(FrontendIds, DefaultsFollowTheQualifiedNameAndKernelName) {
  const auto run = runFrontendOn(R"(
namespace app::v1 {
struct [[ringkernel::message]] AddRequest { int a; };
struct [[ringkernel::message(kernel = "Mul", id = 77)]] MulMessage { int a; };
}
struct [[ringkernel::message]] GlobalResponse { int a; };
)");
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  const MessageModel& add = run.message("app::v1::AddRequest");
  EXPECT_EQ(add.typeId, ringkernel::fnv1a32("app::v1::AddRequest"));
  EXPECT_EQ(add.kernel, "Add");
  EXPECT_EQ(add.kernelId, ringkernel::fnv1a32("Add"));
  const MessageModel& mul = run.message("app::v1::MulMessage");
  EXPECT_EQ(mul.typeId, 77u);
  EXPECT_EQ(mul.kernel, "Mul");
  EXPECT_EQ(mul.kernelId, ringkernel::fnv1a32("Mul"));
  const MessageModel& global = run.message("GlobalResponse");
  EXPECT_EQ(global.typeId, ringkernel::fnv1a32("GlobalResponse"));
  EXPECT_EQ(global.kernel, "Global");
  EXPECT_TRUE(global.namespaces.empty());
}

TEST(FrontendIds, InlineNamespacesArePartOfTheQualifiedName) {
  const auto run = runFrontendOn(
      "namespace app { inline namespace v2 { struct [[ringkernel::message]] Ping { int a; }; } }\n");
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  const MessageModel& ping = run.message("app::v2::Ping");
  EXPECT_EQ(ping.typeId, ringkernel::fnv1a32("app::v2::Ping"));
  EXPECT_EQ(ping.namespaces, (std::vector<std::string>{"app", "v2"}));
  EXPECT_EQ(ping.inlineNamespaces, (std::vector<std::size_t>{1}));
}

// docs/generator.md's fourth vector: the id hashes the name's UTF-8 bytes, however the source
// spells it: literally in UTF-8, or with universal character names.
TEST(FrontendIds, NonAsciiNamesHashTheirUtf8BytesInEverySpelling) {
  const std::string utf8_name = "caf\xc3\xa9::Gr\xc3\xbc\xc3\x9f" "e";  // café::Grüße
  for (const char* source : {"namespace caf\xc3\xa9 { struct [[ringkernel::message]] Gr\xc3\xbc\xc3\x9f" "e { int a; }; }\n",
                             "namespace caf\\u00e9 { struct [[ringkernel::message]] Gr\\u00fc\\u00df" "e { int a; }; }\n"}) {
    const auto run = runFrontendOn(source);
    ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
    const MessageModel& m = run.message(utf8_name);
    EXPECT_EQ(m.qualifiedName, utf8_name) << source;
    EXPECT_EQ(m.typeId, 0xa5285c94u) << source;
  }
}

// One rule for default and explicit kernel names: non-ASCII characters (well-formed UTF-8) count
// as the type name's letters do. `kernel = "Grüße"` used to be "not a valid kernel name" while a
// type named Grüße got that very kernel by default.
TEST(KernelName, NonAsciiCharactersInWellFormedUtf8AreAllowed) {
  EXPECT_TRUE(isKernelName("Gr\xc3\xbc\xc3\x9f" "e"));
  EXPECT_TRUE(isKernelName("app.Gr\xc3\xbc\xc3\x9f" "e-v1"));
  EXPECT_TRUE(isKernelName(defaultKernelName("Gr\xc3\xbc\xc3\x9f" "eRequest")));
  EXPECT_FALSE(isKernelName("Gr\xfc\xdf" "e"));  // Latin-1 bytes, not UTF-8
  EXPECT_FALSE(isKernelName("Gr\xc3"));          // a truncated sequence
  EXPECT_FALSE(isKernelName("a b"));
  EXPECT_FALSE(isKernelName(""));
}

TEST(FrontendIds, ANonAsciiKernelWrittenOutIsTheDefaultOne) {
  const std::string kernel = "Gr\xc3\xbc\xc3\x9f" "e";
  const std::string source = "namespace caf\xc3\xa9 { struct [[ringkernel::message]] " + kernel + " { int n; };\n"
                             "struct [[ringkernel::message(kernel = \"" + kernel + "\")]] Other { int n; }; }\n";
  const auto run = runFrontendOn(source);
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("caf\xc3\xa9::" + kernel).kernel, kernel);
  EXPECT_EQ(run.message("caf\xc3\xa9::Other").kernel, kernel);
  EXPECT_EQ(run.message("caf\xc3\xa9::Other").kernelId, run.message("caf\xc3\xa9::" + kernel).kernelId);
}

// Format characters (Unicode Cf: bidirectional controls, zero-width characters) and code points that
// are not printable are refused in kernel names, each named by its code point: `kernel = "x<U+202E>y"`
// used to pass, and the generated .rk.h and registry then tripped g++'s -Wbidi-chars (-Werror).
TEST(KernelName, FormatAndNonPrintableCodePointsAreRefusedByName) {
  const std::map<std::string, std::string> refused = {
      {"x\xe2\x80\xaey", "U+202E"},  // RIGHT-TO-LEFT OVERRIDE
      {"x\xe2\x80\xaay", "U+202A"},  // LEFT-TO-RIGHT EMBEDDING
      {"x\xe2\x81\xa6y", "U+2066"},  // LEFT-TO-RIGHT ISOLATE
      {"x\xe2\x81\xa9y", "U+2069"},  // POP DIRECTIONAL ISOLATE
      {"x\xe2\x80\x8ey", "U+200E"},  // LEFT-TO-RIGHT MARK
      {"x\xe2\x80\x8fy", "U+200F"},  // RIGHT-TO-LEFT MARK
      {"x\xd8\x9cy", "U+061C"},      // ARABIC LETTER MARK
      {"x\xe2\x80\x8by", "U+200B"},  // ZERO WIDTH SPACE
      {"x\xe2\x80\x8dy", "U+200D"},  // ZERO WIDTH JOINER
      {"x\xef\xbb\xbfy", "U+FEFF"},  // ZERO WIDTH NO-BREAK SPACE
      {"x\xc2\x85y", "U+0085"},      // NEXT LINE, a C1 control
      {"x\xc2\x9fy", "U+009F"},
  };
  for (const auto& [name, codePoint] : refused) {
    EXPECT_FALSE(isKernelName(name)) << codePoint;
    EXPECT_NE(kernelNameProblem(name).find("it has " + codePoint + ", "), std::string::npos)
        << kernelNameProblem(name);
    EXPECT_EQ(visibleKernelName(name), "x<" + codePoint + ">y");
  }
  EXPECT_EQ(kernelNameProblem("Gr\xc3\xbc\xc3\x9f" "e"), "");
  EXPECT_EQ(visibleKernelName("Gr\xc3\xbc\xc3\x9f" "e"), "Gr\xc3\xbc\xc3\x9f" "e");
}

// Space separators (Unicode Zs) other than ' ' are printable but look like a plain space (or like
// nothing): `kernel = "a<U+00A0>b"` used to pass as a name that reads "a b". Each is refused by its
// code point, as format characters are, and shown as <U+00A0>.
TEST(KernelName, NonAsciiSpaceSeparatorsAreRefusedByName) {
  const std::map<std::string, std::string> refused = {
      {"x\xc2\xa0y", "U+00A0"},      // NO-BREAK SPACE
      {"x\xe1\x9a\x80y", "U+1680"},  // OGHAM SPACE MARK
      {"x\xe2\x80\x80y", "U+2000"},  // EN QUAD
      {"x\xe2\x80\x83y", "U+2003"},  // EM SPACE
      {"x\xe2\x80\x8ay", "U+200A"},  // HAIR SPACE
      {"x\xe2\x80\xafy", "U+202F"},  // NARROW NO-BREAK SPACE
      {"x\xe2\x81\x9fy", "U+205F"},  // MEDIUM MATHEMATICAL SPACE
      {"x\xe3\x80\x80y", "U+3000"},  // IDEOGRAPHIC SPACE
  };
  for (const auto& [name, codePoint] : refused) {
    EXPECT_FALSE(isKernelName(name)) << codePoint;
    EXPECT_NE(kernelNameProblem(name).find("it has " + codePoint + ", a space character (Unicode Zs"), std::string::npos)
        << kernelNameProblem(name);
    EXPECT_EQ(visibleKernelName(name), "x<" + codePoint + ">y");
  }
  // Neighbours that stay kernel-name characters: U+00A1, U+2010 (HYPHEN), U+3001.
  for (const std::string kept : {"x\xc2\xa1y", "x\xe2\x80\x90y", "x\xe3\x80\x81y"}) {
    EXPECT_TRUE(isKernelName(kept)) << kernelNameProblem(kept);
  }
}

// Printable code points that are neither format characters nor spaces yet show as nothing or as a
// blank (fillers, variation selectors, the blank Braille pattern) were accepted: "x<U+3164>y" reads
// "xy". Refused by code point and shown as <U+3164>; combining marks that show stay allowed.
TEST(KernelName, BlankFillersAndVariationSelectorsAreRefusedByName) {
  const std::map<std::string, std::string> refused = {
      {"x\xcd\x8fy", "U+034F"},          // COMBINING GRAPHEME JOINER
      {"x\xe1\x85\x9fy", "U+115F"},      // HANGUL CHOSEONG FILLER
      {"x\xe1\x85\xa0y", "U+1160"},      // HANGUL JUNGSEONG FILLER
      {"x\xe1\x9e\xb4y", "U+17B4"},      // KHMER VOWEL INHERENT AQ
      {"x\xe1\xa0\x8by", "U+180B"},      // MONGOLIAN FREE VARIATION SELECTOR ONE
      {"x\xe2\xa0\x80y", "U+2800"},      // BRAILLE PATTERN BLANK
      {"x\xe3\x85\xa4y", "U+3164"},      // HANGUL FILLER
      {"x\xef\xb8\x8fy", "U+FE0F"},      // VARIATION SELECTOR-16
      {"x\xef\xbe\xa0y", "U+FFA0"},      // HALFWIDTH HANGUL FILLER
      {"x\xf3\xa0\x84\x80y", "U+E0100"},  // VARIATION SELECTOR-17
  };
  for (const auto& [name, codePoint] : refused) {
    EXPECT_FALSE(isKernelName(name)) << codePoint;
    EXPECT_NE(kernelNameProblem(name).find("it has " + codePoint + ", an invisible character"), std::string::npos)
        << kernelNameProblem(name);
    EXPECT_EQ(visibleKernelName(name), "x<" + codePoint + ">y");
  }
  // Beyond U+FFFF the code point keeps all its digits (it was cut to four: U+E0041 read "U+0041").
  EXPECT_NE(kernelNameProblem("x\xf3\xa0\x81\x81y").find("it has U+E0041, an invisible format character"),
            std::string::npos)
      << kernelNameProblem("x\xf3\xa0\x81\x81y");  // TAG LATIN CAPITAL LETTER A (Cf)
  // Neighbours that show stay kernel-name characters: U+0308 (combining diaeresis), U+2801, U+3165.
  for (const std::string kept : {"u\xcc\x88y", "x\xe2\xa0\x81y", "x\xe3\x85\xa5y"}) {
    EXPECT_TRUE(isKernelName(kept)) << kernelNameProblem(kept);
  }
}

TEST(FrontendIds, AKernelNameWithANoBreakSpaceIsAnErrorNamingTheCodePoint) {
  const std::string source = "struct [[ringkernel::message(kernel = \"a\xc2\xa0" "b\")]] Nbsp { int n; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(testing::errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(testing::hasError(run, testing::positionOf(source, "\"a"),
                                {"bad value \"a<U+00A0>b\" for 'kernel': not a valid kernel name: it has U+00A0, "
                                 "a space character (Unicode Zs"},
                                "no space characters such as U+00A0"))
      << run.printed;
  EXPECT_TRUE(run.result.headers.empty() || run.result.headers[0].messages.empty());
}

// Kernel names are compared byte for byte, not as Unicode text: a composed and a decomposed 'ü' are
// two names (two kernels, two kernel ids); docs/generator.md says to write names in NFC.
TEST(KernelName, ComposedAndDecomposedCharactersAreTwoNames) {
  const std::string composed = "Gr\xc3\xbc\xc3\x9f" "e";      // U+00FC
  const std::string decomposed = "Gru\xcc\x88\xc3\x9f" "e";   // u + U+0308 COMBINING DIAERESIS
  EXPECT_TRUE(isKernelName(composed));
  EXPECT_TRUE(isKernelName(decomposed));
  EXPECT_NE(fnv1a32(composed), fnv1a32(decomposed));
}

TEST(FrontendIds, AKernelNameWithABidiControlIsAnErrorNamingTheCodePoint) {
  const std::string source = "struct [[ringkernel::message(kernel = \"x\xe2\x80\xaey\")]] Bidi { int n; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(testing::errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(testing::hasError(run, testing::positionOf(source, "\"x"),
                                {"bad value \"x<U+202E>y\" for 'kernel': not a valid kernel name: it has U+202E, "
                                 "an invisible format character"},
                                "no format characters such as bidirectional controls"))
      << run.printed;
  EXPECT_TRUE(run.result.headers.empty() || run.result.headers[0].messages.empty());
}

// The attribute's fix states the whole rule (kKernelNameRule, as the manifest reader does): it named
// format and space characters only, while fillers and variation selectors are refused too.
TEST(FrontendIds, AKernelNameWithAVariationSelectorIsAnErrorNamingTheCodePoint) {
  const std::string source = "struct [[ringkernel::message(kernel = \"x\xef\xb8\x8fy\")]] Vs { int n; };\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(testing::errorCount(run), 1u) << run.printed;
  EXPECT_TRUE(testing::hasError(run, testing::positionOf(source, "\"x"),
                                {"bad value \"x<U+FE0F>y\" for 'kernel': not a valid kernel name: it has U+FE0F, "
                                 "an invisible character (a filler, a variation selector or a blank pattern)"},
                                "write a non-empty string of ASCII letters, digits, '_', '.', ':', '-' or printable "
                                "non-ASCII characters in UTF-8, none invisible: no format characters such as "
                                "bidirectional controls, no space characters such as U+00A0, no fillers or variation "
                                "selectors such as U+3164 or U+FE0F, e.g. kernel = \"Add\""))
      << run.printed;
  EXPECT_TRUE(run.result.headers.empty() || run.result.headers[0].messages.empty());
}

}  // namespace
}  // namespace ringkernel::gen
