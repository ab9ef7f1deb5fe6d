// Copyright RingKernel authors.
// Values of id, kernel and priority in [[ringkernel::message]] written as object-like macros:
// replaced by their expansion where the attribute is (nested, parenthesised, -D, redefined later),
// with the same model and generated files as the literal written directly.
#include <gtest/gtest.h>

#include "emit.h"
#include "names.h"
#include "value_macro_support.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::runFrontendOn;

TEST(AttributeValueMacros, IdMacro) {
  const auto run = runFrontendOn("#define TELEMETRY_ID 42\n"
                                 "struct [[ringkernel::message(id = TELEMETRY_ID)]] A { int x; };\n");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").options.id, 42u);
  EXPECT_EQ(run.message("A").typeId, 42u);
}

// A definition continued with a backslash-newline right before or inside its token is read as C++
// joins it (the token used to be read with the backslash and line break in it and refused).
TEST(AttributeValueMacros, DefinitionSplitByBackslashNewline) {
  const auto run = runFrontendOn("#define SPLIT_ID \\\n0x4\\\n2\n"
                                 "#define SPLIT_KERNEL \"Sp\\\nlit\"\n"
                                 "struct [[ringkernel::message(id = SPLIT_ID, kernel = SPLIT_KERNEL)]] A { int x; };\n");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").options.id, 0x42u);
  EXPECT_EQ(run.message("A").options.kernel, "Split");
}

TEST(AttributeValueMacros, NestedMacros) {
  const auto run = runFrontendOn(R"(#define BASE_ID 0x4001
#define TELEMETRY_ID BASE_ID
#define ALIAS_ID TELEMETRY_ID
#define PAREN_ALIAS_ID (OTHER_BASE_ID)
#define OTHER_BASE_ID (0x4002)
struct [[ringkernel::message(id = ALIAS_ID)]] A { int x; };
struct [[ringkernel::message(id = PAREN_ALIAS_ID)]] B { int x; };
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").typeId, 0x4001u);
  EXPECT_EQ(run.message("B").typeId, 0x4002u);
}

TEST(AttributeValueMacros, ParenthesisedLiterals) {
  const auto run = runFrontendOn(R"(#define ID_A (0x4001)
#define ID_B ((7u))
#define PRIO ( 200 )
#define KERNEL ("Telemetry")
struct [[ringkernel::message(id = ID_A, priority = PRIO, kernel = KERNEL)]] A { int x; };
struct [[ringkernel::message(id = ID_B)]] B { int x; };
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").typeId, 0x4001u);
  EXPECT_EQ(run.message("A").options.priority, 200);
  EXPECT_EQ(run.message("A").kernel, "Telemetry");
  EXPECT_EQ(run.message("B").typeId, 7u);
}

TEST(AttributeValueMacros, CommandLineDefinitions) {
  const auto run = runFrontendOn(
      "struct [[ringkernel::message(id = TELEMETRY_ID, kernel = TELEMETRY_KERNEL, "
      "priority = TELEMETRY_PRIORITY)]] A { int x; };\n",
      "x86_64-linux-gnu", {},
      {"-DTELEMETRY_ID=0x51", "-DTELEMETRY_KERNEL=\"Telemetry\"", "-DTELEMETRY_PRIORITY=9"});
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").typeId, 0x51u);
  EXPECT_EQ(run.message("A").kernel, "Telemetry");
  EXPECT_EQ(run.message("A").options.priority, 9);
}

// The definition in effect where the attribute is counts, not the last one of the header.
TEST(AttributeValueMacros, DefinitionAtTheAttribute) {
  const auto run = runFrontendOn(R"(#define MSG_ID 5
#define MSG_KERNEL "First"
struct [[ringkernel::message(id = MSG_ID, kernel = MSG_KERNEL)]] A { int x; };
#undef MSG_ID
#undef MSG_KERNEL
#define MSG_ID 6
#define MSG_KERNEL "Second"
struct [[ringkernel::message(id = MSG_ID, kernel = MSG_KERNEL)]] B { int x; };
#undef MSG_ID
#define MSG_ID 0
#undef MSG_KERNEL
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").typeId, 5u);
  EXPECT_EQ(run.message("A").kernel, "First");
  EXPECT_EQ(run.message("B").typeId, 6u);
  EXPECT_EQ(run.message("B").kernel, "Second");
}

TEST(AttributeValueMacros, KernelAndPriorityMacros) {
  const auto run = runFrontendOn(R"(#define TELEMETRY_KERNEL "Telemetry.v2"
#define TELEMETRY_PRIORITY 0xff
struct [[ringkernel::message(kernel = TELEMETRY_KERNEL, priority = TELEMETRY_PRIORITY)]] SampleRequest { int x; };
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  const MessageModel& message = run.message("SampleRequest");
  EXPECT_EQ(message.options.kernel, "Telemetry.v2");
  EXPECT_EQ(message.kernel, "Telemetry.v2");
  EXPECT_EQ(message.kernelId, fnv1a32("Telemetry.v2"));
  EXPECT_EQ(message.options.priority, 255);
}

// A macro value in an attribute that itself comes from a macro is expanded where that macro is
// used (as the preprocessor does), so the value's macro may be defined after the attribute's one.
TEST(AttributeValueMacros, AttributeInAMacroBody) {
  const auto run = runFrontendOn(R"(#define TELEMETRY_MESSAGE [[ringkernel::message(id = TELEMETRY_ID)]]
#define TELEMETRY_ID 77
struct TELEMETRY_MESSAGE A { int x; };
#undef TELEMETRY_ID
#define TELEMETRY_ID 78
struct TELEMETRY_MESSAGE B { int x; };
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").typeId, 77u);
  EXPECT_EQ(run.message("B").typeId, 78u);
}

std::vector<OutputFile> render(const HeaderModel& header) {
  std::vector<OutputFile> files;
  std::string error;
  EXPECT_TRUE(renderHeader(header, "out", RINGKERNEL_SOURCE_TEMPLATE_DIR, files, error)) << error;
  return files;
}

// The macro spelling and the literal one give the same model and the same generated files. The
// sources keep every declaration at the same line and column (the files record locations).
TEST(AttributeValueMacros, SameOutputAsTheLiteral) {
  const std::string viaMacros = R"(#define TELEMETRY_ID (0x4001)
#define TELEMETRY_KERNEL "Telemetry"
#define TELEMETRY_PRIORITY 200
namespace app {
struct [[ringkernel::message(id = TELEMETRY_ID, kernel = TELEMETRY_KERNEL, priority = TELEMETRY_PRIORITY)]] SampleRequest { int x; double y; };
struct [[ringkernel::message(kernel = TELEMETRY_KERNEL)]] SampleResponse { long sum; };
}
)";
  const std::string literal = R"(


namespace app {
struct [[ringkernel::message(id = 0x4001      , kernel = "Telemetry"     , priority = 200               )]] SampleRequest { int x; double y; };
struct [[ringkernel::message(kernel = "Telemetry"     )]] SampleResponse { long sum; };
}
)";
  const auto macroRun = runFrontendOn(viaMacros);
  const auto literalRun = runFrontendOn(literal);
  ASSERT_EQ(errorCount(macroRun), 0u) << macroRun.printed;
  ASSERT_EQ(errorCount(literalRun), 0u) << literalRun.printed;
  for (const char* name : {"app::SampleRequest", "app::SampleResponse"}) {
    const MessageModel& a = macroRun.message(name);
    const MessageModel& b = literalRun.message(name);
    EXPECT_EQ(a.typeId, b.typeId) << name;
    EXPECT_EQ(a.kernel, b.kernel) << name;
    EXPECT_EQ(a.kernelId, b.kernelId) << name;
    EXPECT_EQ(a.options.id, b.options.id) << name;
    EXPECT_EQ(a.options.kernel, b.options.kernel) << name;
    EXPECT_EQ(a.options.priority, b.options.priority) << name;
  }
  EXPECT_EQ(macroRun.message("app::SampleRequest").typeId, 0x4001u);
  const std::vector<OutputFile> macroFiles = render(macroRun.header());
  const std::vector<OutputFile> literalFiles = render(literalRun.header());
  ASSERT_EQ(macroFiles.size(), literalFiles.size());
  ASSERT_FALSE(macroFiles.empty());
  for (std::size_t i = 0; i < macroFiles.size(); ++i) {
    EXPECT_EQ(macroFiles[i].path, literalFiles[i].path);
    EXPECT_EQ(macroFiles[i].text(), literalFiles[i].text()) << macroFiles[i].path;
  }
}

}  // namespace
}  // namespace ringkernel::gen
