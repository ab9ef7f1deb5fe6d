// Copyright RingKernel authors.
// Compiled by the tests codec.not_a_message.*: encode, decode and max_encoded_size of a struct that
// is no [[ringkernel::message]] (or whose generated <stem>.rk.h is not included) must fail with the
// static_assert that names the fix, as KernelMessage<T> does, not with a bare constraint failure
// ("the expression 'is_message_v<T> [with T = Plain]' evaluated to 'false'"); of a KernelMessage<U>
// (an envelope) with the one that names the envelope codec's function. RK_ENCODE, RK_DECODE,
// RK_MAX_SIZE, RK_ENVELOPE_ENCODE, RK_ENVELOPE_DECODE, RK_ENVELOPE_MAX_SIZE: one call each. Without a
// macro it compiles cleanly: a message with (handwritten) traits still takes the codec's constrained
// overloads. RK_UNQUALIFIED must compile too: an unqualified encode/decode of a KernelMessage<U>
// picks the caller's own unconstrained encode/decode template that argument-dependent lookup finds
// in U's namespace, over the codec's fallback (which ADL finds in namespace ringkernel), as it did
// before the fallback existed; no ambiguity.
#include <cstddef>
#include <cstdint>

#include "handwritten_traits.h"
#include "ringkernel/codec.h"
#include "ringkernel/kernel_message.h"  // after codec.h: its KernelMessage declaration comes first

struct Plain {  // no [[ringkernel::message]]
  std::int32_t value;
};

#if defined(RK_ENCODE)
ringkernel::codec_result encode_plain(const Plain& plain, std::uint8_t* out, std::size_t capacity) {
  return ringkernel::encode(plain, out, capacity);
}
#elif defined(RK_DECODE)
ringkernel::codec_result decode_plain(const std::uint8_t* in, std::size_t size, Plain& plain) {
  return ringkernel::decode(in, size, plain);
}
#elif defined(RK_MAX_SIZE)
std::size_t max_size_plain() { return ringkernel::max_encoded_size<Plain>; }
#elif defined(RK_ENVELOPE_ENCODE)
ringkernel::codec_result encode_envelope_wrongly(const ringkernel::KernelMessage<codec_test::Point>& m,
                                                 std::uint8_t* out, std::size_t capacity) {
  return ringkernel::encode(m, out, capacity);
}
#elif defined(RK_ENVELOPE_DECODE)
ringkernel::codec_result decode_envelope_wrongly(const std::uint8_t* in, std::size_t size,
                                                 ringkernel::KernelMessage<codec_test::Point>& m) {
  return ringkernel::decode(in, size, m);
}
#elif defined(RK_ENVELOPE_MAX_SIZE)
std::size_t max_size_envelope_wrongly() { return ringkernel::max_encoded_size<ringkernel::KernelMessage<codec_test::Point>>; }
#elif defined(RK_UNQUALIFIED)
namespace codec_test {  // the namespace of the payload type: ADL finds these for KernelMessage<Point>
template <class T>
int encode(const T&, std::uint8_t*, std::size_t) {
  return 1;
}
template <class T>
int decode(const std::uint8_t*, std::size_t, T&) {
  return 2;
}
}  // namespace codec_test
using ringkernel::decode;  // a using-declaration too: the codec's overloads by name lookup as well as ADL
using ringkernel::encode;
int unqualified_calls(std::uint8_t* buffer, std::size_t size) {
  ringkernel::KernelMessage<codec_test::Point> m{};
  const int encoded = encode(m, buffer, size);         // codec_test::encode
  const int encoded_prvalue = encode(ringkernel::KernelMessage<codec_test::Point>{}, buffer, size);
  const int decoded = decode(buffer, size, m);         // codec_test::decode
  codec_test::Point p{};
  const ringkernel::codec_result r = encode(p, buffer, size);  // a message: still the codec's
  return encoded + encoded_prvalue + decoded + static_cast<int>(r.size);
}
#else
static_assert(ringkernel::max_encoded_size<codec_test::Point> > 0);
ringkernel::codec_result round_trip(const codec_test::Point& point, codec_test::Point& back) {
  std::uint8_t buffer[ringkernel::max_encoded_size<codec_test::Point>];
  const ringkernel::codec_result encoded = ringkernel::encode(point, buffer, sizeof buffer);
  return encoded.status == ringkernel::codec_status::ok ? ringkernel::decode(buffer, encoded.size, back) : encoded;
}
#endif
