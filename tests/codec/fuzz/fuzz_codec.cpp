// Copyright RingKernel authors.
// libFuzzer target: decodes arbitrary bytes as each message of one message set (CODEC_FUZZ_SET:
// 1 scalars, 2 arrays and nested messages, 3 representative/wide messages, 4 messages of more than
// 32 fields, decoded in host chunks of 16 fields, and the 32-field map that is not). Sanitizers
// catch any out-of-bounds access; the checks below catch wrong results: ringkernel::decode must
// agree with the reference decoder (reference/differential.h: ok or not, size, values, and the
// status on well-formed MessagePack), a decoded message must re-encode canonically (every integer
// and length in its smallest form: smallest_forms.h) and decode again to the same values, and
// failures must leave the target untouched. describe_decode_failure (ringkernel/decode_diagnostic.h)
// must say nothing on success and, on failure, attribute decode's status and offset to a value (its
// walk stops where decode did) and name them, in a bounded text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "codec_test_support.h"
#include "decode_report_check.h"
#include "reference/differential.h"
#include "ringkernel/decode_diagnostic.h"
#include "smallest_forms.h"
#if CODEC_FUZZ_SET == 4
#include "many_fields.rk.h"
#endif

namespace {

// describe_decode_failure<T> against decode's result `r` for the same bytes.
template <class T>
void check_description(const std::uint8_t* data, std::size_t size, const ringkernel::codec_result& r) {
  ringkernel_test::check_decode_report(ringkernel::detail::diagnose_decode<T>(data, size), r, "decode");
}

template <class T>
void check_message(const std::uint8_t* data, std::size_t size) {
  const std::string disagreement = codec_reference::disagreement<T>(data, size);
  if (!disagreement.empty()) {
    std::fprintf(stderr, "decode and the reference decoder disagree: %s\n", disagreement.c_str());
    std::abort();
  }
  auto decoded = std::make_unique<T>();
  std::memset(static_cast<void*>(decoded.get()), 0x5a, sizeof(T));
  auto before = std::make_unique<T>();
  std::memcpy(static_cast<void*>(before.get()), decoded.get(), sizeof(T));
  const ringkernel::codec_result r = ringkernel::decode(data, size, *decoded);
  if (r.size > size) std::abort();
  check_description<T>(data, size, r);
  if (r.status != ringkernel::codec_status::ok) {
    if (std::memcmp(before.get(), decoded.get(), sizeof(T)) != 0) std::abort();  // written on failure
    return;
  }
  const codec_test::bytes once = codec_test::encode_to_vector(*decoded);
  if (once.empty() || !fuzz_support::in_smallest_forms(once.data(), once.size())) std::abort();
  auto again = std::make_unique<T>();
  const ringkernel::codec_result r2 = ringkernel::decode(once.data(), once.size(), *again);
  if (r2.status != ringkernel::codec_status::ok || r2.size != once.size()) std::abort();
  if (!codec_test::values_equal(*decoded, *again)) std::abort();
  if (codec_test::encode_to_vector(*again) != once) std::abort();  // canonical: a fixed point
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#if CODEC_FUZZ_SET == 1
  check_message<codec_test::Scalars>(data, size);
  check_message<codec_test::ScalarsMap>(data, size);
#elif CODEC_FUZZ_SET == 2
  check_message<codec_test::Arrays>(data, size);
  check_message<codec_test::ArraysMap>(data, size);
  check_message<codec_test::Outer>(data, size);
#elif CODEC_FUZZ_SET == 3
  check_message<codec_test::Telemetry64>(data, size);
  check_message<codec_test::Order128>(data, size);
  check_message<codec_test::Wide>(data, size);
#elif CODEC_FUZZ_SET == 4
  check_message<codec_test::ManyFields>(data, size);
  check_message<codec_test::ManyFieldsMap>(data, size);
  check_message<codec_test::ManyHolder>(data, size);
  check_message<codec_test::Fields32Map>(data, size);
#else
#error "define CODEC_FUZZ_SET to 1, 2, 3 or 4"
#endif
  return 0;
}
