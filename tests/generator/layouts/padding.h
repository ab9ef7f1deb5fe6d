// Layout corpus: padding holes, alignas on structs and on fields.
#pragma once
#include <cstdint>

namespace corpus::padding {

struct [[ringkernel::message]] Holes { std::uint8_t a; std::uint64_t b; std::uint8_t c; std::uint32_t d; std::uint8_t e; };
struct [[ringkernel::message]] TailPadding { std::uint64_t a; std::uint8_t b; };
struct alignas(32) [[ringkernel::message]] Aligned32 { std::uint32_t x; };
struct [[ringkernel::message]] FieldAligned { std::uint8_t a; alignas(16) std::uint32_t b; std::uint8_t c; };
struct alignas(64) [[ringkernel::message]] CacheLine { alignas(8) std::uint8_t flag; float values[3]; };
// A typedef that raises its type's alignment (GNU attribute): the check of the field's type in .rk.h
// (is_same_v<decltype(T::b), int>) made g++ warn -Wignored-attributes, an error under -Werror.
typedef std::int32_t aligned16_t __attribute__((aligned(16)));
struct [[ringkernel::message]] TypedefAligned { std::int8_t a; aligned16_t b; };
struct [[ringkernel::message]] MixedAlign { char c; double d; short s; alignas(4) char e[3]; bool f; };

}  // namespace corpus::padding
