// Copyright RingKernel authors.
// The kernel behind measure_wall_clock_offset on CUDA devices, as PTX that the driver compiles for
// whatever GPU it runs on (the runtime library holds no device code of its own): one thread stores
// %globaltimer (nanoseconds) at the u64 its argument points to. tests/runtime/check_globaltimer_ptx.cmake
// assembles it with ptxas, so a typo fails the build's tests, not the first GPU that loads it.
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
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u64 %rd3, %globaltimer;
  st.global.u64 [%rd2], %rd3;
  ret;
}
)ptx";

}  // namespace ringkernel::detail
