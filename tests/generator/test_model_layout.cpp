// Copyright RingKernel authors.
// Layouts computed by the frontend equal what the host compiler (x86_64) lays out for the very same
// source: each case is compiled into this test and parsed by the frontend from its spelling.
// i686 differences (long, long long and double alignment) are checked against the i386 SysV ABI.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "frontend_harness.h"

// Defines the case in namespace `ns` for the host compiler and keeps its spelling for the frontend.
#define RK_LAYOUT_CASE(ns, ...)    \
  namespace layout::ns {           \
  __VA_ARGS__                      \
  }                                \
  namespace layout_source {        \
  constexpr const char* ns = #__VA_ARGS__; \
  }

// clang-format off
RK_LAYOUT_CASE(scalars,
  struct [[ringkernel::message]] Scalars { bool b; char c; std::int16_t s; std::int32_t i; std::int64_t l; float f; double d; std::uint8_t u8; };)
RK_LAYOUT_CASE(padding,
  struct [[ringkernel::message]] Padded { char a; double b; char c; std::int32_t d; char e; };)
RK_LAYOUT_CASE(tail_padding,
  struct [[ringkernel::message]] Tail { std::int64_t a; char b; };)
RK_LAYOUT_CASE(arrays,
  struct [[ringkernel::message]] Arrays { char name[13]; std::uint16_t values[3]; double grid[2][3]; std::int8_t cube[2][2][2]; };)
RK_LAYOUT_CASE(nested,
  struct [[ringkernel::message]] Point { float x, y; };
  struct [[ringkernel::message]] Segment { char tag; Point from, to; Point path[4]; };)
RK_LAYOUT_CASE(deep_nesting,
  struct [[ringkernel::message]] A { std::int8_t v; };
  struct [[ringkernel::message]] B { A a; std::int64_t w; A more[3]; };
  struct [[ringkernel::message]] C { B b[2]; char z; };)
RK_LAYOUT_CASE(enums,
  enum class Small : std::uint8_t { One = 1 };
  enum class Wide : std::int64_t { Min = -5 };
  enum Plain { PlainA, PlainB };
  struct [[ringkernel::message]] Enums { Small s; Wide w; Plain p; Small many[3]; };)
RK_LAYOUT_CASE(struct_alignas,
  struct [[ringkernel::message]] alignas(32) Aligned { std::int32_t a; char b; };)
RK_LAYOUT_CASE(field_alignas,
  struct [[ringkernel::message]] FieldAligned { char a; alignas(16) std::int32_t b; char c; alignas(8) char d[3]; };)
RK_LAYOUT_CASE(nested_aligned,
  struct [[ringkernel::message]] alignas(16) Vec { float x, y, z; };
  struct [[ringkernel::message]] Holder { char tag; Vec v; Vec vs[2]; };)
RK_LAYOUT_CASE(namespaces,
  namespace outer { namespace inner { struct [[ringkernel::message]] Deep { std::uint32_t a; std::uint64_t b; }; } }
  struct [[ringkernel::message]] UsesDeep { char c; outer::inner::Deep d; };)
RK_LAYOUT_CASE(message_in_message,
  struct [[ringkernel::message]] Outer { struct [[ringkernel::message]] Inner { std::int16_t x; }; Inner i; std::int32_t n; Inner pair[2]; };)
RK_LAYOUT_CASE(chars,
  struct [[ringkernel::message]] Chars { char c; signed char sc; unsigned char uc; char8_t c8; char16_t c16; char32_t c32; std::byte b; };)
RK_LAYOUT_CASE(empty,
  struct [[ringkernel::message]] Empty {};)
RK_LAYOUT_CASE(only_bytes,
  struct [[ringkernel::message]] Bytes { std::byte data[7]; };)
RK_LAYOUT_CASE(builtin_ints,
  struct [[ringkernel::message]] Builtins { short s; unsigned short us; int i; unsigned u; long l; unsigned long ul; long long ll; unsigned long long ull; };)
RK_LAYOUT_CASE(class_keyword,
  class [[ringkernel::message]] Klass { public: double d; std::int8_t tail[5]; };)
RK_LAYOUT_CASE(initializers,
  struct [[ringkernel::message]] Defaults { std::int32_t a = 5; double b = 0.25; bool c = true; char d[4] = {}; };)
RK_LAYOUT_CASE(typedefs,
  using Meters = double; typedef std::uint16_t Port;
  struct [[ringkernel::message]] Typedefs { Meters m; Port p[2]; Port q; };)
RK_LAYOUT_CASE(mixed_big,
  struct [[ringkernel::message]] Mixed { bool flags[3]; double d; std::uint16_t s; std::int64_t big[2][2]; float f; char text[9]; };)
// clang-format on

namespace ringkernel::gen {
namespace {

/// What the host compiler says about one message.
struct HostLayout {
  std::string name;  // qualified name as the frontend sees it (no layout:: prefix)
  std::size_t size;
  std::size_t alignment;
  std::vector<std::pair<std::string, std::size_t>> offsets;
};

#define RK_FIELD(T, f) std::pair<std::string, std::size_t>(#f, offsetof(T, f))
#define RK_HOST(ns, T, ...) HostLayout{#T, sizeof(layout::ns::T), alignof(layout::ns::T), {__VA_ARGS__}}

struct LayoutCase {
  const char* name;
  const char* source;
  std::vector<HostLayout> expected;
};

std::vector<LayoutCase> layoutCases() {
  using namespace layout;
  return {
      {"scalars", layout_source::scalars,
       {RK_HOST(scalars, Scalars, RK_FIELD(scalars::Scalars, b), RK_FIELD(scalars::Scalars, c),
                RK_FIELD(scalars::Scalars, s), RK_FIELD(scalars::Scalars, i),
                RK_FIELD(scalars::Scalars, l), RK_FIELD(scalars::Scalars, f),
                RK_FIELD(scalars::Scalars, d), RK_FIELD(scalars::Scalars, u8))}},
      {"padding", layout_source::padding,
       {RK_HOST(padding, Padded, RK_FIELD(padding::Padded, a), RK_FIELD(padding::Padded, b),
                RK_FIELD(padding::Padded, c), RK_FIELD(padding::Padded, d),
                RK_FIELD(padding::Padded, e))}},
      {"tail_padding", layout_source::tail_padding,
       {RK_HOST(tail_padding, Tail, RK_FIELD(tail_padding::Tail, a), RK_FIELD(tail_padding::Tail, b))}},
      {"arrays", layout_source::arrays,
       {RK_HOST(arrays, Arrays, RK_FIELD(arrays::Arrays, name), RK_FIELD(arrays::Arrays, values),
                RK_FIELD(arrays::Arrays, grid), RK_FIELD(arrays::Arrays, cube))}},
      {"nested", layout_source::nested,
       {RK_HOST(nested, Point, RK_FIELD(nested::Point, x), RK_FIELD(nested::Point, y)),
        RK_HOST(nested, Segment, RK_FIELD(nested::Segment, tag), RK_FIELD(nested::Segment, from),
                RK_FIELD(nested::Segment, to), RK_FIELD(nested::Segment, path))}},
      {"deep_nesting", layout_source::deep_nesting,
       {RK_HOST(deep_nesting, A, RK_FIELD(deep_nesting::A, v)),
        RK_HOST(deep_nesting, B, RK_FIELD(deep_nesting::B, a), RK_FIELD(deep_nesting::B, w),
                RK_FIELD(deep_nesting::B, more)),
        RK_HOST(deep_nesting, C, RK_FIELD(deep_nesting::C, b), RK_FIELD(deep_nesting::C, z))}},
      {"enums", layout_source::enums,
       {RK_HOST(enums, Enums, RK_FIELD(enums::Enums, s), RK_FIELD(enums::Enums, w),
                RK_FIELD(enums::Enums, p), RK_FIELD(enums::Enums, many))}},
      {"struct_alignas", layout_source::struct_alignas,
       {RK_HOST(struct_alignas, Aligned, RK_FIELD(struct_alignas::Aligned, a),
                RK_FIELD(struct_alignas::Aligned, b))}},
      {"field_alignas", layout_source::field_alignas,
       {RK_HOST(field_alignas, FieldAligned, RK_FIELD(field_alignas::FieldAligned, a),
                RK_FIELD(field_alignas::FieldAligned, b), RK_FIELD(field_alignas::FieldAligned, c),
                RK_FIELD(field_alignas::FieldAligned, d))}},
      {"nested_aligned", layout_source::nested_aligned,
       {RK_HOST(nested_aligned, Vec, RK_FIELD(nested_aligned::Vec, x),
                RK_FIELD(nested_aligned::Vec, y), RK_FIELD(nested_aligned::Vec, z)),
        RK_HOST(nested_aligned, Holder, RK_FIELD(nested_aligned::Holder, tag),
                RK_FIELD(nested_aligned::Holder, v), RK_FIELD(nested_aligned::Holder, vs))}},
      {"namespaces", layout_source::namespaces,
       {HostLayout{"outer::inner::Deep", sizeof(namespaces::outer::inner::Deep),
                   alignof(namespaces::outer::inner::Deep),
                   {RK_FIELD(namespaces::outer::inner::Deep, a),
                    RK_FIELD(namespaces::outer::inner::Deep, b)}},
        RK_HOST(namespaces, UsesDeep, RK_FIELD(namespaces::UsesDeep, c),
                RK_FIELD(namespaces::UsesDeep, d))}},
      {"message_in_message", layout_source::message_in_message,
       {HostLayout{"Outer::Inner", sizeof(message_in_message::Outer::Inner),
                   alignof(message_in_message::Outer::Inner),
                   {RK_FIELD(message_in_message::Outer::Inner, x)}},
        RK_HOST(message_in_message, Outer, RK_FIELD(message_in_message::Outer, i),
                RK_FIELD(message_in_message::Outer, n), RK_FIELD(message_in_message::Outer, pair))}},
      {"chars", layout_source::chars,
       {RK_HOST(chars, Chars, RK_FIELD(chars::Chars, c), RK_FIELD(chars::Chars, sc),
                RK_FIELD(chars::Chars, uc), RK_FIELD(chars::Chars, c8), RK_FIELD(chars::Chars, c16),
                RK_FIELD(chars::Chars, c32), RK_FIELD(chars::Chars, b))}},
      {"empty", layout_source::empty, {RK_HOST(empty, Empty)}},
      {"only_bytes", layout_source::only_bytes,
       {RK_HOST(only_bytes, Bytes, RK_FIELD(only_bytes::Bytes, data))}},
      {"builtin_ints", layout_source::builtin_ints,
       {RK_HOST(builtin_ints, Builtins, RK_FIELD(builtin_ints::Builtins, s),
                RK_FIELD(builtin_ints::Builtins, us), RK_FIELD(builtin_ints::Builtins, i),
                RK_FIELD(builtin_ints::Builtins, u), RK_FIELD(builtin_ints::Builtins, l),
                RK_FIELD(builtin_ints::Builtins, ul), RK_FIELD(builtin_ints::Builtins, ll),
                RK_FIELD(builtin_ints::Builtins, ull))}},
      {"class_keyword", layout_source::class_keyword,
       {RK_HOST(class_keyword, Klass, RK_FIELD(class_keyword::Klass, d),
                RK_FIELD(class_keyword::Klass, tail))}},
      {"initializers", layout_source::initializers,
       {RK_HOST(initializers, Defaults, RK_FIELD(initializers::Defaults, a),
                RK_FIELD(initializers::Defaults, b), RK_FIELD(initializers::Defaults, c),
                RK_FIELD(initializers::Defaults, d))}},
      {"typedefs", layout_source::typedefs,
       {RK_HOST(typedefs, Typedefs, RK_FIELD(typedefs::Typedefs, m), RK_FIELD(typedefs::Typedefs, p),
                RK_FIELD(typedefs::Typedefs, q))}},
      {"mixed_big", layout_source::mixed_big,
       {RK_HOST(mixed_big, Mixed, RK_FIELD(mixed_big::Mixed, flags), RK_FIELD(mixed_big::Mixed, d),
                RK_FIELD(mixed_big::Mixed, s), RK_FIELD(mixed_big::Mixed, big),
                RK_FIELD(mixed_big::Mixed, f), RK_FIELD(mixed_big::Mixed, text))}},
  };
}

void PrintTo(const LayoutCase& layoutCase, std::ostream* out) { *out << layoutCase.name; }

class HostLayoutAgreement : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(HostLayoutAgreement, SizesAlignmentsAndOffsetsMatchTheHostCompiler) {
  const LayoutCase& layoutCase = GetParam();
  const std::string source =
      std::string("#include <cstddef>\n#include <cstdint>\n") + layoutCase.source + "\n";
  const auto run = testing::runFrontendOn(source, "x86_64-linux-gnu");
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  ASSERT_EQ(run.header().messages.size(), layoutCase.expected.size());
  for (const HostLayout& host : layoutCase.expected) {
    const MessageModel& model = run.message(host.name);
    EXPECT_EQ(model.size, host.size) << host.name;
    EXPECT_EQ(model.alignment, host.alignment) << host.name;
    ASSERT_EQ(model.fields.size(), host.offsets.size()) << host.name;
    for (std::size_t i = 0; i < host.offsets.size(); ++i) {
      EXPECT_EQ(model.fields[i].name, host.offsets[i].first) << host.name;
      EXPECT_EQ(model.fields[i].offset, host.offsets[i].second)
          << host.name << "::" << host.offsets[i].first;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, HostLayoutAgreement, ::testing::ValuesIn(layoutCases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ModelLayout, FieldSizesExtentsAndAlignments) {
  const auto run = testing::runFrontendOn(std::string("#include <cstdint>\n") +
                                          layout_source::field_alignas + "\n" +
                                          layout_source::arrays + "\n");
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  const FieldModel& b = run.field("FieldAligned", "b");
  EXPECT_EQ(b.alignment, 16u);
  EXPECT_EQ(b.naturalAlignment, alignof(std::int32_t));
  EXPECT_EQ(b.size, sizeof(std::int32_t));
  const FieldModel& d = run.field("FieldAligned", "d");
  EXPECT_EQ(d.alignment, 8u);
  EXPECT_EQ(d.naturalAlignment, 1u);
  EXPECT_EQ(d.extents, (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(run.message("FieldAligned").naturalAlignment, 16u);

  const FieldModel& grid = run.field("Arrays", "grid");
  EXPECT_EQ(grid.extents, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(grid.size, sizeof(layout::arrays::Arrays::grid));
  EXPECT_EQ(grid.elementSize, sizeof(double));
  EXPECT_EQ(grid.kind, FieldKind::Float64);
  const FieldModel& cube = run.field("Arrays", "cube");
  EXPECT_EQ(cube.extents, (std::vector<std::uint64_t>{2, 2, 2}));
  EXPECT_EQ(cube.size, 8u);
  EXPECT_EQ(run.field("Arrays", "name").kind, FieldKind::Character);
}

TEST(ModelLayout, StructAlignasIsAboveTheNaturalAlignment) {
  const auto run = testing::runFrontendOn(std::string("#include <cstdint>\n") +
                                          layout_source::struct_alignas + "\n");
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("Aligned").alignment, 32u);
  EXPECT_EQ(run.message("Aligned").naturalAlignment, 4u);
  EXPECT_EQ(run.message("Aligned").size, 32u);
}

// Builtin types only: the i686 C++ headers are not installed on a plain x86_64 machine.
constexpr const char* kAbiProbe =
    "struct [[ringkernel::message]] Abi { long a; double d; long long ll; char c; unsigned long ul; };\n";

TEST(ModelLayout, X86_64LongIs64Bit) {
  const auto run = testing::runFrontendOn(kAbiProbe, "x86_64-linux-gnu");
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().targetTriple, "x86_64-unknown-linux-gnu");
  EXPECT_EQ(run.field("Abi", "a").kind, FieldKind::Int64);
  EXPECT_EQ(run.field("Abi", "ul").kind, FieldKind::UInt64);
  EXPECT_EQ(run.field("Abi", "d").offset, 8u);
  EXPECT_EQ(run.field("Abi", "ll").offset, 16u);
  EXPECT_EQ(run.field("Abi", "c").offset, 24u);
  EXPECT_EQ(run.message("Abi").size, 40u);
  EXPECT_EQ(run.message("Abi").alignment, 8u);
}

TEST(ModelLayout, I686LongIs32BitAndDoubleIsFourByteAlignedInStructs) {
  const auto run = testing::runFrontendOn(kAbiProbe, "i686-linux-gnu");
  ASSERT_EQ(testing::errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.header().targetTriple, "i686-unknown-linux-gnu");
  EXPECT_EQ(run.field("Abi", "a").kind, FieldKind::Int32);
  EXPECT_EQ(run.field("Abi", "a").size, 4u);
  EXPECT_EQ(run.field("Abi", "ul").kind, FieldKind::UInt32);
  EXPECT_EQ(run.field("Abi", "d").offset, 4u);   // i386 SysV: double aligned to 4 in structs
  EXPECT_EQ(run.field("Abi", "ll").offset, 12u);
  EXPECT_EQ(run.field("Abi", "c").offset, 20u);
  EXPECT_EQ(run.message("Abi").size, 28u);
  EXPECT_EQ(run.message("Abi").alignment, 4u);
}

}  // namespace
}  // namespace ringkernel::gen
