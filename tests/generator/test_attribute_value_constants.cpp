// Copyright RingKernel authors.
// Values of id and priority in [[ringkernel::message]] written as names of enumerators and integral
// constants (directly, qualified, or as what an object-like macro expands to): looked up as C++
// looks them up at the attribute and evaluated by clang, with the same model and generated files as
// the literal written directly. Errors: test_attribute_value_constant_errors.cpp.
#include <gtest/gtest.h>

#include "emit.h"
#include "value_macro_support.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::runFrontendOn;

TEST(AttributeValueConstants, ScopedAndUnscopedEnumerators) {
  const auto run = runFrontendOn(R"(#include <cstdint>
enum class MsgId : std::uint32_t { Telemetry = 0x4001, Order };
enum Priority : unsigned char { kLow = 1, kHigh = 200 };
struct [[ringkernel::message(id = MsgId::Telemetry, priority = kHigh)]] Telemetry { int x; };
struct [[ringkernel::message(id = MsgId::Order, priority = Priority::kLow)]] Order { int x; };
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("Telemetry").typeId, 0x4001u);
  EXPECT_EQ(run.message("Telemetry").options.priority, 200);
  EXPECT_EQ(run.message("Order").typeId, 0x4002u);
  EXPECT_EQ(run.message("Order").options.priority, 1);
}

TEST(AttributeValueConstants, ConstexprAndConstVariables) {
  const auto run = runFrontendOn(R"(#include <cstdint>
constexpr std::uint32_t kOrderId = 0x4002;
const int kConstId = 40 + 2;
static constexpr std::uint64_t kWide = 0xFFFFFFFFull;
namespace ids { inline constexpr unsigned char kHigh = 200; }
struct [[ringkernel::message(id = kOrderId, priority = ids::kHigh)]] Order { int x; };
struct [[ringkernel::message(id = kConstId)]] Const { int x; };
struct [[ringkernel::message(id = kWide)]] Wide { int x; };
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("Order").typeId, 0x4002u);
  EXPECT_EQ(run.message("Order").options.priority, 200);
  EXPECT_EQ(run.message("Const").typeId, 42u);
  EXPECT_EQ(run.message("Wide").typeId, 0xFFFFFFFFu);
}

// Static constexpr data members and enumerations inside classes are constants as at namespace scope;
// a class's earlier members are in scope for a message nested in it, as in C++.
TEST(AttributeValueConstants, ClassConstantsAndNestedEnumerations) {
  const auto run = runFrontendOn(R"(constexpr unsigned kId = 1;
struct Ids { static constexpr unsigned kOrder = 0x4100; enum Kind : unsigned { kFill = 0x4101 }; };
struct [[ringkernel::message(id = Ids::kOrder)]] Order { int x; };
struct [[ringkernel::message(id = Ids::kFill)]] Fill { int x; };
struct [[ringkernel::message(id = 0x4200)]] Outer {
  static constexpr unsigned kId = 0x4201;
  struct [[ringkernel::message(id = kId)]] Inner { int x; };
  Inner inner;
};
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("Order").typeId, 0x4100u);
  EXPECT_EQ(run.message("Fill").typeId, 0x4101u);
  EXPECT_EQ(run.message("Outer::Inner").typeId, 0x4201u);
}

// Unqualified names are found in the enclosing namespaces outward (inline namespaces, using
// declarations and directives as clang's lookup gives them), the innermost declaration first;
// qualified names, also from the global namespace, through namespace aliases and type aliases.
TEST(AttributeValueConstants, LookupThroughScopes) {
  const auto run = runFrontendOn(R"(constexpr unsigned kId = 1;
namespace proto {
inline namespace v2 { constexpr unsigned kV2 = 22; }
namespace detail { enum class E { A = 7 }; constexpr unsigned kUsed = 33; constexpr unsigned kAll = 44;
                   constexpr unsigned kDir = 55; }
using detail::kUsed;
using E2 = detail::E;
namespace d = detail;
}
namespace app {
constexpr unsigned kId = 2;
namespace inner {
struct [[ringkernel::message(id = kId)]] Inner { int x; };
struct [[ringkernel::message(id = ::kId)]] Global { int x; };
struct [[ringkernel::message(id = ::proto::kV2)]] Inline { int x; };
struct [[ringkernel::message(id = proto::kUsed)]] Using { int x; };
struct [[ringkernel::message(id = proto::E2::A)]] Alias { int x; };
struct [[ringkernel::message(id = proto::d::kAll)]] NamespaceAlias { int x; };
using namespace proto::detail;
struct [[ringkernel::message(id = kDir)]] Directive { int x; };
}
}
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("app::inner::Inner").typeId, 2u);
  EXPECT_EQ(run.message("app::inner::Global").typeId, 1u);
  EXPECT_EQ(run.message("app::inner::Inline").typeId, 22u);
  EXPECT_EQ(run.message("app::inner::Using").typeId, 33u);
  EXPECT_EQ(run.message("app::inner::Alias").typeId, 7u);
  EXPECT_EQ(run.message("app::inner::NamespaceAlias").typeId, 44u);
  EXPECT_EQ(run.message("app::inner::Directive").typeId, 55u);
}

// A declaration after the struct does not hide an earlier one of an outer scope, as in C++.
TEST(AttributeValueConstants, LaterDeclarationsDoNotCount) {
  const auto run = runFrontendOn(R"(constexpr unsigned kId = 5;
namespace app {
struct [[ringkernel::message(id = kId)]] A { int x; };
constexpr unsigned kId = 6;
struct [[ringkernel::message(id = kId)]] B { int x; };
}
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("app::A").typeId, 5u);
  EXPECT_EQ(run.message("app::B").typeId, 6u);
}

TEST(AttributeValueConstants, MacrosExpandingToNames) {
  const auto run = runFrontendOn(R"(namespace ids { enum class MsgId : unsigned { Telemetry = 0x4001, Other }; constexpr int kPrio = 9; }
using ids::kPrio;
#define TELEMETRY_ID ids::MsgId::Telemetry
#define GLOBAL_ID (::ids::MsgId::Other)
#define PRIO kPrio
#define PRIO_ALIAS PRIO
struct [[ringkernel::message(id = TELEMETRY_ID, priority = PRIO_ALIAS)]] A { int x; };
struct [[ringkernel::message(id = GLOBAL_ID)]] B { int x; };
)");
  ASSERT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("A").typeId, 0x4001u);
  EXPECT_EQ(run.message("A").options.priority, 9);
  EXPECT_EQ(run.message("B").typeId, 0x4002u);
}

std::vector<OutputFile> render(const HeaderModel& header) {
  std::vector<OutputFile> files;
  std::string error;
  EXPECT_TRUE(renderHeader(header, "out", RINGKERNEL_SOURCE_TEMPLATE_DIR, files, error)) << error;
  return files;
}

// The named spelling and the literal one give the same model and the same generated files. The
// sources keep every declaration at the same line and column (the files record locations).
TEST(AttributeValueConstants, SameOutputAsTheLiteral) {
  const std::string named = R"(enum class MsgId : unsigned { Telemetry = 0x4001 };
namespace app {
constexpr int kPrio = 200;
struct [[ringkernel::message(id = MsgId::Telemetry, priority = kPrio)]] SampleRequest { int x; double y; };
}
)";
  const std::string literal = R"(
namespace app {

struct [[ringkernel::message(id = 0x4001          , priority = 200  )]] SampleRequest { int x; double y; };
}
)";
  const auto namedRun = runFrontendOn(named);
  const auto literalRun = runFrontendOn(literal);
  ASSERT_EQ(errorCount(namedRun), 0u) << namedRun.printed;
  ASSERT_EQ(errorCount(literalRun), 0u) << literalRun.printed;
  const MessageModel& a = namedRun.message("app::SampleRequest");
  const MessageModel& b = literalRun.message("app::SampleRequest");
  EXPECT_EQ(a.typeId, 0x4001u);
  EXPECT_EQ(a.typeId, b.typeId);
  EXPECT_EQ(a.options.id, b.options.id);
  EXPECT_EQ(a.options.priority, b.options.priority);
  const std::vector<OutputFile> namedFiles = render(namedRun.header());
  const std::vector<OutputFile> literalFiles = render(literalRun.header());
  ASSERT_EQ(namedFiles.size(), literalFiles.size());
  ASSERT_FALSE(namedFiles.empty());
  for (std::size_t i = 0; i < namedFiles.size(); ++i) {
    EXPECT_EQ(namedFiles[i].path, literalFiles[i].path);
    EXPECT_EQ(namedFiles[i].text(), literalFiles[i].text()) << namedFiles[i].path;
  }
}

}  // namespace
}  // namespace ringkernel::gen
