// Layouts that depend on the configuration (not in the corpus registry): ringkernel-gen parses this
// header without any RK_DRIFT_* macro; the tests generator_layout_drift_* compile its .rk.h with one
// of them, which changes one property of the layout (the size, the alignment, a field's offset, a
// field's size), and expect the layout check of .rk.h that names it to fail
// (generator_layout_drift_none: without, it compiles).
#pragma once
#include <cstdint>

#ifdef RK_DRIFT_ALIGN
#define RK_DRIFT_ALIGNAS alignas(16)
#else
#define RK_DRIFT_ALIGNAS
#endif

namespace corpus::drift {

// 32 bytes, alignment 8: alignas(16) changes only the alignment, a 15th char only the size of
// `name`, the swapped fields only their offsets, and `extra` only the size.
struct RK_DRIFT_ALIGNAS [[ringkernel::message]] Record {
#ifdef RK_DRIFT_OFFSET
  std::uint32_t second;
  std::uint32_t first;
#else
  std::uint32_t first;
  std::uint32_t second;
#endif
  std::uint64_t wide;
#ifdef RK_DRIFT_MEMBER
  char name[15];
#else
  char name[16];
#endif
#ifdef RK_DRIFT_SIZE
  std::uint64_t extra;
#endif
};

}  // namespace corpus::drift
