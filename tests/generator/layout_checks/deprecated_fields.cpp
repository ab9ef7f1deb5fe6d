// Compile check under -Werror (tests generator_deprecated_*): the generated code's uses of
// [[deprecated]] fields do not warn. RK_DEPRECATED_CUH picks .rk.cuh (which does not copy the
// attribute) after .rk.h, else .rk.h alone. Encoding and decoding instantiate visit_fields.
#include "deprecated_fields.rk.h"
#ifdef RK_DEPRECATED_CUH
#include "deprecated_fields.rk.cuh"
#endif

int main() {
  corpus::legacy::Reading reading{};
  std::uint8_t buffer[ringkernel::max_encoded_size<corpus::legacy::Reading>];
  const ringkernel::codec_result encoded = ringkernel::encode(reading, buffer, sizeof buffer);
  corpus::legacy::Reading decoded{};
  const ringkernel::codec_result result = ringkernel::decode(buffer, encoded.size, decoded);
  return result.status == ringkernel::codec_status::ok ? 0 : 1;
}
