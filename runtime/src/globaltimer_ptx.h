// Copyright RingKernel authors.
// The kernel behind measure_wall_clock_offset on CUDA devices, as PTX that the driver compiles for
// whatever GPU it runs on (the runtime library holds no device code of its own): one thread waits
// for %globaltimer (nanoseconds) to tick, so that its reading is the time of a tick and not up to a
// tick stale (the PTX ISA does not say how often the register updates), and stores it at the u64
// its argument points to. It stops waiting after 2^20 reads (tens of milliseconds) and stores what it has.
// tests/runtime/check_globaltimer_ptx.cmake assembles it with ptxas, so a typo fails the build's
// tests, not the first GPU that loads it.
#pragma once

namespace ringkernel::detail {

inline constexpr const char* globaltimer_kernel_name = "ringkernel_read_globaltimer";

// PTX ISA 6.0 (CUDA 9), sm_50: every driver the CUDA 12+ runtime runs on JIT-compiles it.
inline constexpr char globaltimer_ptx[] = R"ptx(
.version 6.0
.target sm_50
.address_size 64

.visible .entry ringkernel_read_globaltimer(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u64 %rd3, %globaltimer;
  mov.u32 %r1, 0;
$L_wait_for_tick:
  mov.u64 %rd4, %globaltimer;
  setp.ne.u64 %p1, %rd4, %rd3;
  @%p1 bra $L_ticked;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p2, %r1, 1048576;
  @%p2 bra $L_wait_for_tick;
$L_ticked:
  st.global.u64 [%rd2], %rd4;
  ret;
}
)ptx";

}  // namespace ringkernel::detail
