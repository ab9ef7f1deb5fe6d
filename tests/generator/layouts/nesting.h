// Layout corpus: nested messages (as fields, nested declarations, deeper namespaces, global scope).
#pragma once
#include <cstddef>
#include <cstdint>

struct [[ringkernel::message]] GlobalPoint { std::int32_t x; std::int32_t y; };

namespace corpus::deep::er {

struct [[ringkernel::message]] Segment { GlobalPoint from; GlobalPoint to; std::uint8_t width; };
struct [[ringkernel::message]] Polyline { Segment segments[3]; std::uint32_t count; };

struct [[ringkernel::message]] Outer {
  struct [[ringkernel::message]] Inner { std::uint16_t a; std::uint8_t b; };
  Inner first;
  Inner pair[2];
  double weight;
};

}  // namespace corpus::deep::er

// Inline namespaces stay inline in .rk.cuh, so corpus::Versioned and tagged::Tagged name these types
// in device code as they do with the original header (an inline outermost namespace included).
namespace corpus {
inline namespace v2 {
struct [[ringkernel::message]] Versioned { std::uint32_t revision; };
}  // namespace v2
}  // namespace corpus
inline namespace corpus_abi {
namespace tagged {
enum class Tag : std::uint8_t { a, b };
struct [[ringkernel::message]] Tagged { Tag tag; std::uint16_t value; };
}  // namespace tagged
}  // namespace corpus_abi

// A message in a namespace named std (only ::std is reserved; its own outer namespace, since a
// corpus::std would capture every std:: in namespace corpus): .rk.cuh spells its fixed-width types
// from the global namespace (::std::int32_t), which a plain std::int32_t there would not name; so
// are the default values it writes (::std::byte{7}).
namespace shadowing::std {
enum class Level : ::std::int16_t { low = -1, high = 1 };
struct [[ringkernel::message]] InStd {
  ::std::int32_t count;
  Level level;
  ::std::uint8_t bytes[3];
  ::std::byte flag{7};
};
}  // namespace shadowing::std
