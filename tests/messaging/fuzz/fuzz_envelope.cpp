// Copyright RingKernel authors.
// libFuzzer target: decodes arbitrary bytes as the envelope of each messaging payload (array,
// causal, map and over-aligned payloads: KernelMessage<Tagged>, <Tick>, <Reading>, <Aligned16>) and
// peeks their type id.
// Sanitizers catch any out-of-bounds access; the checks below catch wrong results: a failed decode
// leaves the message untouched and reports an offset inside the input; a decoded envelope
// re-encodes canonically (every integer and length in its smallest form: smallest_forms.h of the
// codec fuzz targets) to bytes that decode again and re-encode to the same bytes, and the header
// it decoded is the input's (msgpack-c reads the accepted bytes as one array of at least 8 whose
// first 7 values equal the re-encoding's: no header value changed or dropped, such as the hlc of a
// non-causal type, which must be 0);
// peek_envelope_type_id writes the id only on success and agrees with decode_envelope (same failure
// at the same offset; wrong_message_type exactly when it reads another type's id).
// describe_decode_failure<KernelMessage<T>> (ringkernel/decode_diagnostic.h) says nothing when
// decode_envelope accepts the input and otherwise attributes its status and offset to a header element
// or payload value (its walk stops where decode_envelope did) and names them, in a bounded text.
// Every input also goes through the registry's dispatch_envelope, which must give what peek plus
// decode_envelope<T> for the registry's message T of the peeked id give: the same status and offset,
// one visitor call (with that T, and a message that re-encodes to the same bytes) exactly on success;
// describe_dispatch_failure<message_types> says nothing exactly then and otherwise carries
// dispatch_envelope's status and offset, attributed to a value (its walk stopped there too).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include <msgpack.h>

#include "decode_report_check.h"
#include "messaging.registry.rk.h"
#include "messaging_messages.rk.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/envelope_codec.h"
#include "smallest_forms.h"

namespace {

template <class T>
std::vector<std::uint8_t> encode(const ringkernel::KernelMessage<T>& m) {
  std::vector<std::uint8_t> out(ringkernel::max_envelope_encoded_size<T>);
  const ringkernel::codec_result r = ringkernel::encode_envelope(m, out.data(), out.size());
  if (r.status != ringkernel::codec_status::ok || r.size > out.size()) std::abort();
  out.resize(r.size);
  if (!fuzz_support::in_smallest_forms(out.data(), out.size())) std::abort();
  return out;
}

// msgpack-c reads `in` (the bytes decode_envelope accepted) and `once` (their re-encoding) each as
// one array, of at least 8 and of exactly 8 values, whose header values (the first 7) are equal.
bool same_header_values(const std::uint8_t* in, std::size_t in_size, const std::vector<std::uint8_t>& once) {
  msgpack_zone zone;
  msgpack_zone_init(&zone, 1024);
  msgpack_object a, b;
  std::size_t a_size = 0, b_size = 0;
  bool same = msgpack_unpack(reinterpret_cast<const char*>(in), in_size, &a_size, &zone, &a) == MSGPACK_UNPACK_SUCCESS &&
              msgpack_unpack(reinterpret_cast<const char*>(once.data()), once.size(), &b_size, &zone, &b) ==
                  MSGPACK_UNPACK_SUCCESS &&
              a_size == in_size && b_size == once.size() && a.type == MSGPACK_OBJECT_ARRAY &&
              b.type == MSGPACK_OBJECT_ARRAY && a.via.array.size >= 8 && b.via.array.size == 8;
  for (std::uint32_t i = 0; same && i < 7; ++i) same = msgpack_object_equal(a.via.array.ptr[i], b.via.array.ptr[i]);
  msgpack_zone_destroy(&zone);
  return same;
}

struct peeked {
  ringkernel::codec_result result;
  std::uint32_t type_id;
};

peeked peek(const std::uint8_t* data, std::size_t size) {
  constexpr std::uint32_t untouched = 0xdeadbeef;
  std::uint32_t type_id = untouched;
  const ringkernel::codec_result r = ringkernel::peek_envelope_type_id(data, size, type_id);
  if (r.size > size) std::abort();
  if (r.status != ringkernel::codec_status::ok && type_id != untouched) std::abort();  // written on failure
  return {r, type_id};
}

// decode_envelope<T>'s result `r` against the peek of the same bytes.
template <class T>
void check_agreement(const peeked& p, const ringkernel::codec_result& r) {
  const bool wrong_type = r.status == ringkernel::codec_status::wrong_message_type;
  if (p.result.status != ringkernel::codec_status::ok) {
    if (r.status != p.result.status || r.size != p.result.size) std::abort();
  } else if (p.type_id != ringkernel::message_traits<T>::type_id) {
    if (!wrong_type || r.size >= p.result.size) std::abort();
  } else if (wrong_type || (r.status == ringkernel::codec_status::ok && r.size < p.result.size)) {
    std::abort();
  }
}

// describe_decode_failure<KernelMessage<T>> against decode_envelope's result `r` for the same bytes.
template <class T>
void check_description(const std::uint8_t* data, std::size_t size, const ringkernel::codec_result& r) {
  ringkernel_test::check_decode_report(ringkernel::detail::diagnose_decode<ringkernel::KernelMessage<T>>(data, size), r,
                                       "decode_envelope");
}

template <class T>
void check_envelope(const std::uint8_t* data, std::size_t size, const peeked& p) {
  using Message = ringkernel::KernelMessage<T>;
  auto decoded = std::make_unique<Message>();
  std::memset(static_cast<void*>(decoded.get()), 0x5a, sizeof(Message));
  auto before = std::make_unique<Message>();
  std::memcpy(static_cast<void*>(before.get()), decoded.get(), sizeof(Message));
  const ringkernel::codec_result r = ringkernel::decode_envelope(data, size, *decoded);
  if (r.size > size) std::abort();
  check_agreement<T>(p, r);
  check_description<T>(data, size, r);
  if (r.status != ringkernel::codec_status::ok) {
    if (std::memcmp(before.get(), decoded.get(), sizeof(Message)) != 0) std::abort();  // written on failure
    return;
  }
  const std::vector<std::uint8_t> once = encode(*decoded);
  if (!same_header_values(data, r.size, once)) std::abort();
  auto again = std::make_unique<Message>();
  const ringkernel::codec_result r2 = ringkernel::decode_envelope(once.data(), once.size(), *again);
  if (r2.status != ringkernel::codec_status::ok || r2.size != once.size()) std::abort();
  if (encode(*again) != once) std::abort();
}

namespace reg = ringkernel::registry::messaging;

/// Calls f(message) with a zeroed message of the registry's type with this id; false for an id the
/// registry lacks.
template <class F>
bool with_registry_type(std::uint32_t type_id, F&& f) {
  alignas(64) static const std::uint8_t zeros[4096] = {};
  return reg::dispatch(type_id, zeros, [&](const auto& message) {
    static_assert(sizeof(message) <= sizeof zeros && alignof(decltype(message)) <= 64);
    f(message);
  });
}

// describe_dispatch_failure<message_types> against dispatch_envelope's result `got` for the same bytes.
void check_dispatch_description(const std::uint8_t* data, std::size_t size, const ringkernel::codec_result& got) {
  ringkernel_test::check_decode_report(ringkernel::detail::diagnose_dispatch<reg::message_types>(data, size), got,
                                       "dispatch_envelope");
}

// dispatch_envelope against peek + decode_envelope<T>, T the registry's message of the peeked id.
void check_dispatch(const std::uint8_t* data, std::size_t size, const peeked& p) {
  ringkernel::codec_result want = p.result;
  std::vector<std::uint8_t> want_encoded;
  if (p.result.status == ringkernel::codec_status::ok) {
    const bool known = with_registry_type(p.type_id, [&](const auto& zero) {
      using T = std::remove_cvref_t<decltype(zero)>;
      auto decoded = std::make_unique<ringkernel::KernelMessage<T>>();
      want = ringkernel::decode_envelope(data, size, *decoded);
      if (want.status == ringkernel::codec_status::ok) want_encoded = encode(*decoded);
    });
    if (!known) {
      // An id no message of the registry has: wrong_message_type at the id, as any other type's decode says.
      ringkernel::KernelMessage<messaging_test::Tagged> other{};
      want = ringkernel::decode_envelope(data, size, other);
      if (want.status != ringkernel::codec_status::wrong_message_type) std::abort();
    }
  }
  int calls = 0;
  const ringkernel::codec_result got = reg::dispatch_envelope(data, size, [&](const auto& message) {
    using T = typename std::remove_cvref_t<decltype(message)>::payload_type;
    ++calls;
    if (ringkernel::message_traits<T>::type_id != p.type_id || encode(message) != want_encoded) std::abort();
  });
  if (got.status != want.status || got.size != want.size) std::abort();
  if (calls != (got.status == ringkernel::codec_status::ok ? 1 : 0)) std::abort();
  check_dispatch_description(data, size, got);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const peeked p = peek(data, size);
  check_envelope<messaging_test::Tagged>(data, size, p);
  check_envelope<messaging_test::Tick>(data, size, p);
  check_envelope<messaging_test::Reading>(data, size, p);
  check_envelope<messaging_test::Aligned16>(data, size, p);
  check_dispatch(data, size, p);
  return 0;
}
