// Copyright RingKernel authors.
// Writes the bytes manifest_client_test.py decodes: for each message of messages/manifest_client.h,
// one line "<qualified name> <payload hex> <envelope hex>" (ringkernel::encode and encode_envelope of
// the values below, which the Python test expects field by field).
#include <cstdio>
#include <cstring>
#include <vector>

#include "manifest_client.rk.h"
#include "ringkernel/codec.h"
#include "ringkernel/envelope_codec.h"

namespace {

using namespace manifest_client;

Everything everything() {
  Everything m{};
  m.flag = true;
  m.letter = 'k';
  m.i8 = -128;
  m.i16 = -300;
  m.i32 = -2147483647 - 1;
  m.i64 = -9223372036854775807LL - 1;
  m.u8 = 200;
  m.u16 = 65535;
  m.u32 = 4294967295u;
  m.u64 = 18446744073709551615ull;
  m.f32 = 1.5f;
  m.f64 = -0.1;
  m.c8 = 0xe9;
  m.c16 = 0x263a;
  m.c32 = 0x1f600;
  m.one_byte = std::byte{0x7f};
  std::memcpy(m.text, "h\xc3\xa9llo", 6);  // "héllo", shorter than the array: NUL-padded
  m.utf8[0] = 0xc3;
  m.utf8[1] = 0xa9;
  m.bytes[0] = 0;
  m.bytes[1] = 1;
  m.bytes[2] = 0xfe;
  m.bytes[3] = 0xff;
  m.uc[0] = 'a';
  m.raw[2] = std::byte{0x80};
  m.wide[0] = 0x3b1;
  m.wide[1] = 0x3c9;
  m.bits[1] = true;
  m.color = Color::blue;
  m.offsets[0] = Offset::lowest;
  m.offsets[1] = Offset::highest;
  m.huge = Huge::top;
  m.latin = Latin::e_acute;
  m.power = Switch::on;
  m.octet = Octet::top;
  m.palette[0][0] = Color::red;
  m.palette[0][1] = Color::green;
  m.palette[1][0] = Color::blue;
  m.palette[1][1] = Color::red;
  m.corner = Point{-1.0f, 2.25f};
  m.path[0] = Point{0.5f, 0.0f};
  m.path[1] = Point{3.0f, -4.0f};
  std::memcpy(m.tags[0].name, "alpha", 5);
  m.tags[0].weight = -7;
  std::memcpy(m.tags[1].name, "omega123", 8);  // fills the array: no NUL
  m.tags[1].weight = 300;
  for (int i = 0; i < 6; ++i) m.grid[i / 3][i % 3] = i * 1000 - 2500;
  std::memcpy(m.names[0], "ab", 2);
  std::memcpy(m.names[1], "cdefg", 5);
  m.planes[0][1] = 9;
  m.planes[1][2] = 0xff;
  m.code[0][1] = 0x41;
  m.code[1][0] = 0xff;
  m.samples[0] = 1e300;
  m.samples[1] = -2.5;
  return m;
}

Outer outer() {
  Outer m{};
  m.inner = everything();
  std::memcpy(m.tag.name, "tag", 3);
  m.tag.weight = 1;
  m.latins[0] = Latin::z;
  m.latins[1] = Latin::e_acute;
  m.switches[1] = Switch::on;
  m.c8s[0] = 'x';
  m.c8s[2] = 0x80;
  m.data[0] = 0xaa;
  m.data[1] = 0x55;
  m.scale = 0.1f;
  return m;
}

template <class T>
bool print(const T& value) {
  std::vector<std::uint8_t> payload(ringkernel::max_encoded_size<T>);
  const ringkernel::codec_result p = ringkernel::encode(value, payload.data(), payload.size());
  auto message = ringkernel::KernelMessage<T>::create_data(3, -1, value);
  message.header.sequence = 42;
  message.header.timestamp_us = 1700000000000000ull;
  if constexpr (ringkernel::message_traits<T>::causal) message.header.hlc.bits = (1700000000000000ull << 12) | 5u;
  std::vector<std::uint8_t> envelope(ringkernel::max_envelope_encoded_size<T>);
  const ringkernel::codec_result e = ringkernel::encode_envelope(message, envelope.data(), envelope.size());
  if (p.status != ringkernel::codec_status::ok || e.status != ringkernel::codec_status::ok) return false;
  std::printf("%s ", ringkernel::message_traits<T>::name);
  for (std::size_t i = 0; i < p.size; ++i) std::printf("%02x", payload[i]);
  std::printf(" ");
  for (std::size_t i = 0; i < e.size; ++i) std::printf("%02x", envelope[i]);
  std::printf("\n");
  return true;
}

}  // namespace

int main() {
  return print(everything()) && print(outer()) && print(Point{}) && print(Tag{}) ? 0 : 1;
}
