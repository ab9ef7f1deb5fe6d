// Copyright RingKernel authors.
// Compiled by the tests messaging.stamper_sender_id.*: a MessageStamper constructed in a constant
// expression with a negative sender id (never valid: -1 is broadcast, a receiver id) fails to
// compile, the error naming detail::message_stamper_sender_id_is_negative; 0 compiles.
//   RK_NEGATIVE_CONSTINIT: a constinit stamper of sender -1.
//   RK_NEGATIVE_CONSTEXPR: a stamper of sender INT32_MIN inside a constexpr function of a static_assert.
#include <cstdint>

#include "ringkernel/message_stamper.h"

#if defined(RK_NEGATIVE_CONSTINIT)
constinit ringkernel::MessageStamper stamper(-1);
#elif defined(RK_NEGATIVE_CONSTEXPR)
constexpr bool constructed() {
  [[maybe_unused]] ringkernel::MessageStamper s(INT32_MIN);
  return true;
}
static_assert(constructed());
#else
constinit ringkernel::MessageStamper stamper(0);
constexpr bool constructed() {
  [[maybe_unused]] ringkernel::MessageStamper s(0);
  return true;
}
static_assert(constructed());
#endif
