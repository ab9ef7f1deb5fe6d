// Layout corpus: every scalar kind, char and byte arrays.
#pragma once
#include <cstddef>
#include <cstdint>

namespace corpus {

struct [[ringkernel::message]] Ping { std::uint64_t id; };

struct [[ringkernel::message]] AllIntegers {
  std::int8_t i8;
  std::uint8_t u8;
  std::int16_t i16;
  std::uint16_t u16;
  std::int32_t i32;
  std::uint32_t u32;
  std::int64_t i64;
  std::uint64_t u64;
};

struct [[ringkernel::message]] BuiltinIntegers {
  signed char sc;
  unsigned char uc;
  short s;
  unsigned short us;
  int i;
  unsigned u;
  long l;
  unsigned long ul;
  long long ll;
  unsigned long long ull;
};

struct [[ringkernel::message]] FloatingPoint { float f; double d; float g; };

struct [[ringkernel::message]] Flags { bool on; bool off; char letter; };

struct [[ringkernel::message]] Text { char name[16]; char tag[3]; std::uint16_t length; };

// Integers on the wire, their arrays arrays of ints (not str, not bin), from .rk.h and .rk.cuh alike
// (layout_checks/character_wire.h).
struct [[ringkernel::message]] UnicodeChars { char8_t u8[3]; char8_t one; char16_t u16[2]; char32_t u32; };

// Fields named like C++20's contextual keywords: nvcc warned (3189) at the layout checks of .rk.cuh.
struct [[ringkernel::message]] ContextualKeywords { std::int32_t import; std::int32_t module; };

struct [[ringkernel::message]] Blob { std::byte raw[7]; std::uint8_t bytes[5]; std::uint32_t crc; };

struct [[ringkernel::message]] Defaults {
  std::int32_t count = 42;
  bool enabled = true;
  double ratio = 0.5;
  char grade = 'B';
};

struct [[ringkernel::message]] Empty {};

}  // namespace corpus
