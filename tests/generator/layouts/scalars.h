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

struct [[ringkernel::message]] Blob { std::byte raw[7]; std::uint8_t bytes[5]; std::uint32_t crc; };

struct [[ringkernel::message]] Defaults {
  std::int32_t count = 42;
  bool enabled = true;
  double ratio = 0.5;
  char grade = 'B';
};

struct [[ringkernel::message]] Empty {};

}  // namespace corpus
