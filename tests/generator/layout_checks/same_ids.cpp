// Compile check (tests generator_same_id_*): the generated headers of same_id_a.h and same_id_b.h,
// whose types share ids, in one translation unit; RK_SAME_ID_CUH picks their .rk.cuh files, else
// their .rk.h files. Every type and its traits must be there.
#ifdef RK_SAME_ID_CUH
#include "same_id_a.rk.cuh"
#include "same_id_b.rk.cuh"
#else
#include "same_id_a.rk.h"
#include "same_id_b.rk.h"
#endif

namespace ids = corpus::ids;
static_assert(ringkernel::message_traits<ids::Alpha>::type_id == 0x5001u);
static_assert(ringkernel::message_traits<ids::Beta>::type_id == 0x5001u);
static_assert(ringkernel::message_traits<ids::Gamma>::type_id == 0x648bb43au);
static_assert(ringkernel::message_traits<ids::Painted>::size == 1);
static_assert(sizeof(ids::Beta) == 8 && sizeof(ids::Gamma) == 2 && sizeof(ids::Shade) == 1);
