// Field types that depend on the configuration (not in the corpus registry): ringkernel-gen parses
// this header without any RK_OTHER_* macro; the tests generator_field_type_* compile its .rk.h with
// one of them, which changes the type of one field but not its size, and expect the type check of
// .rk.h to name that field and the type the tool saw (generator_field_type_same: without, it compiles).
#pragma once
#include <cstddef>
#include <cstdint>

namespace corpus::configured {

#ifdef RK_OTHER_SCALAR
using Stamp = float;
#else
using Stamp = std::uint32_t;
#endif

#ifdef RK_OTHER_WIDE
using Wide = unsigned long;  // the same size and signedness as unsigned long long on x86_64 Linux
#else
using Wide = unsigned long long;
#endif

enum class Mode : std::uint8_t { off, on };
enum class Flavor : std::uint8_t { sweet, sour };
#ifdef RK_OTHER_ENUM
using Choice = Flavor;
#else
using Choice = Mode;
#endif

struct [[ringkernel::message]] Point { std::int32_t x; std::int32_t y; };
struct [[ringkernel::message]] Size { std::int32_t width; std::int32_t height; };
#ifdef RK_OTHER_NESTED
using Corner = Size;
#else
using Corner = Point;
#endif

#ifdef RK_OTHER_ARRAY
using Cell = std::int16_t;
#else
using Cell = std::uint16_t;
#endif

struct [[ringkernel::message]] Sample {
  Stamp stamp;
  std::uint32_t count;
  Wide total;
  Choice choice;
  std::byte raw[3];
  bool valid;
  char8_t tag;
  Corner corner;
  Cell grid[2][3];
};

}  // namespace corpus::configured
