# Copyright RingKernel authors.
# Test messaging.ptx_scopes (label unit, no GPU needed): compiles ptx_scopes.cu to PTX for each
# architecture in ARCHS and checks the memory scopes of the device-side ring, clock and stamper
# operations (docs/messaging.md, "Scope"):
#  - sys_* kernels (pinned host memory shared with host threads, peer memory): every atomic,
#    every load or store with a memory order, and every fence is .sys: a .gpu/.cta/.cluster one
#    (or an atom/red without a scope, which is .gpu) is not coherent with the host or a peer GPU;
#  - dev_* kernels (device memory of one GPU): all of them .gpu (the narrowest correct scope; .sys
#    fences cost a flush across the bus for nothing);
#  - mix_* kernels (mpmc_ring<T, system, device>: pinned memory whose index only one GPU's
#    threads claim on, MpmcQueue::kernel_ring()): every atom/red (the claims on head / tail) .gpu,
#    every other ordered load or store and every fence .sys (slot sequence words, closed flag),
#    except relaxed loads (of the index .gpu, of the slot words in the batch calls .sys) and, in
#    mix_mpmc_peek_close, acquire loads (size() reads the index); both scopes must appear there;
#  - no ld/st.volatile in any (not an acquire or a release: it orders nothing);
#  - the operations the protocols rely on are there: acquire loads and release stores (fences and
#    relaxed stores in the batch calls), the claim: a compare-and-swap on sys_ rings, a fetch_add
#    (credits, then positions) on dev_ rings, which are ticketed (mpmc_ring.h).
# Usage: cmake -DNVCC=... -DSOURCE=ptx_scopes.cu -DINCLUDE=<runtime/include> -DWORK=<dir>
#        [-DARCHS=90,75] [-DCCBIN=<host compiler>] -P check_ptx_scopes.cmake
cmake_minimum_required(VERSION 3.25)

if(NOT ARCHS)
  set(ARCHS 90)
endif()
string(REPLACE "," ";" ARCHS "${ARCHS}")
file(MAKE_DIRECTORY "${WORK}")
set(failures "")

# Operations that must appear at least once in a kernel: "<kernel>|<regex>;..." with @ for the
# kernel's scope (sys or gpu).
set(required
  "mpmc_push$|ld\\.acquire\\.@" "sys_mpmc_push$|atom\\.[a-z.]*cas[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*cas" "dev_mpmc_push$|atom\\.[a-z.]*add[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*add" "mpmc_push$|st\\.release\\.@"
  "mpmc_pop$|ld\\.acquire\\.@" "sys_mpmc_pop$|atom\\.[a-z.]*cas[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*cas" "dev_mpmc_pop$|atom\\.[a-z.]*add[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*add" "mpmc_pop$|st\\.release\\.@"
  "mpmc_p[a-z]+_batch$|ld\\.acquire\\.@" "sys_mpmc_p[a-z]+_batch$|atom\\.[a-z.]*cas[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*cas"
  "dev_mpmc_p[a-z]+_batch$|atom\\.[a-z.]*add[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*add"
  "mpmc_p[a-z]+_batch$|st\\.release\\.@" "mpmc_peek_close|ld\\.acquire\\.@" "mpmc_peek_close|st\\.release\\.@"
  "spsc_push$|ld\\.acquire\\.@" "spsc_push$|st\\.release\\.@"
  "spsc_pop$|ld\\.acquire\\.@" "spsc_pop$|st\\.release\\.@"
  "spsc_p[a-z]+_batch$|ld\\.acquire\\.@" "spsc_p[a-z]+_batch$|st\\.release\\.@"
  "spsc_consumer_endpoint|ld\\.acquire\\.@" "spsc_consumer_endpoint|st\\.release\\.@"
  "spsc_producer_endpoint|ld\\.acquire\\.@" "spsc_producer_endpoint|st\\.release\\.@"
  "warp_push$|ld\\.acquire\\.@" "warp_push$|st\\.release\\.@" "warp_pop$|ld\\.acquire\\.@" "warp_pop$|st\\.release\\.@"
  "sys_warp_p[a-z]+_batch$|atom\\.[a-z.]*cas[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*cas"
  "dev_warp_p[a-z]+(_batch)?$|atom\\.[a-z.]*add[a-z.]*\\.@|atom\\.[a-z.]*\\.@[a-z.]*add" "warp_p[a-z]+_batch$|st\\.relaxed\\.@"
  "sys_hlc|atom\\.[a-z.]*\\.sys" "sys_stamper|ld\\.relaxed\\.sys"
  # mix_* (scope sys for the rules above): the claims are a compare-and-swap at .gpu.
  "mix_[a-z]+_p[a-z]+(_batch)?$|atom\\.[a-z.]*cas[a-z.]*\\.gpu|atom\\.[a-z.]*\\.gpu[a-z.]*cas"
  "mix_[a-z]+_p[a-z]+(_batch)?$|ld\\.relaxed\\.gpu" "mix_warp_p[a-z]+_batch$|ld\\.relaxed\\.sys"
  "mix_mpmc_peek_close|ld\\.acquire\\.gpu" "mix_mpmc_peek_close|ld\\.relaxed\\.gpu")

foreach(arch IN LISTS ARCHS)
  set(ptx_file "${WORK}/ptx_scopes_sm${arch}.ptx")
  set(ccbin_args "")
  if(CCBIN)
    set(ccbin_args -ccbin "${CCBIN}")
  endif()
  execute_process(
    COMMAND "${NVCC}" ${ccbin_args} -std=c++20 --Werror all-warnings -arch=sm_${arch} -ptx "-I${INCLUDE}" "${SOURCE}" -o "${ptx_file}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc -arch=sm_${arch} -ptx ${SOURCE} failed (${rc}):\n${out}${err}")
  endif()
  file(READ "${ptx_file}" ptx)
  string(REGEX MATCHALL "\\.entry [A-Za-z0-9_]+" entries "${ptx}")
  list(LENGTH entries entry_count)
  if(entry_count LESS 20)
    message(FATAL_ERROR "sm_${arch}: ${entry_count} kernels in ${ptx_file}, expected every kernel of ${SOURCE}")
  endif()
  foreach(entry IN LISTS entries)
    string(REPLACE ".entry " "" kernel "${entry}")
    # The kernel's body: from its .entry to the next one (or the end).
    string(FIND "${ptx}" ".entry ${kernel}(" begin)
    string(SUBSTRING "${ptx}" ${begin} -1 body)
    string(SUBSTRING "${body}" 1 -1 rest)
    string(FIND "${rest}" ".entry " next)
    if(next GREATER_EQUAL 0)
      string(SUBSTRING "${body}" 0 ${next} body)
    endif()
    set(mixed FALSE)
    if(kernel MATCHES "^sys_")
      set(scope sys)
    elseif(kernel MATCHES "^dev_")
      set(scope gpu)
    elseif(kernel MATCHES "^mix_")
      set(scope sys)  # the slot words' scope; the claims' is .gpu (below)
      set(mixed TRUE)
    else()
      continue()
    endif()
    # Memory operations with a memory order or scope, atomics, reductions and fences.
    string(REGEX MATCHALL "[ \t](ld|st|atom|red|fence|membar)\\.[a-z0-9_.]+" ops "${body}")
    foreach(op IN LISTS ops)
      string(STRIP "${op}" op)
      if(op MATCHES "\\.volatile")
        list(APPEND failures "sm_${arch} ${kernel}: ${op} (volatile orders nothing; use an acquire/release at .${scope})")
        continue()
      endif()
      if(NOT op MATCHES "^(atom|red|fence|membar)\\." AND NOT op MATCHES "\\.(relaxed|acquire|release|acq_rel|sc|mmio)\\.")
        continue()  # a plain (weak) load or store: payloads and per-side words, ordered by the operations checked here
      endif()
      set(op_scope ${scope})
      if(mixed AND op MATCHES "^(atom|red)\\.")
        set(op_scope gpu)  # claims on head / tail
      elseif(mixed AND (op MATCHES "^ld\\.relaxed\\." OR (kernel MATCHES "peek_close" AND op MATCHES "^ld\\.acquire\\.")))
        set(op_scope "(gpu|sys)")  # index or slot word: the required rules ask for each
      endif()
      if(NOT op MATCHES "\\.${op_scope}(\\.|$)")
        list(APPEND failures "sm_${arch} ${kernel}: ${op} is not .${op_scope}")
      endif()
    endforeach()
    foreach(rule IN LISTS required)
      string(REPLACE "|" ";" parts "${rule}")
      list(GET parts 0 pattern_kernel)
      list(SUBLIST parts 1 -1 alternatives)
      if(NOT kernel MATCHES "${pattern_kernel}")
        continue()
      endif()
      set(found FALSE)
      foreach(alternative IN LISTS alternatives)
        string(REPLACE "@" "${scope}" alternative "${alternative}")
        if(body MATCHES "[ \t]${alternative}")
          set(found TRUE)
        endif()
      endforeach()
      if(NOT found)
        list(JOIN alternatives " or " wanted)
        string(REPLACE "@" "${scope}" wanted "${wanted}")
        string(REPLACE "\\" "" wanted "${wanted}")
        list(APPEND failures "sm_${arch} ${kernel}: no ${wanted} (the check reads kernel bodies: an operation moved into a .func it calls is not seen)")
      endif()
    endforeach()
    # The batch calls order their slots with fences: an acquire fence after the relaxed loads of the
    # slot words, a release fence before the relaxed stores that publish or free them.
    if(kernel MATCHES "warp_p(ush|op)_batch")
      string(REGEX MATCHALL "[ \t]fence\\.(acq_rel|sc)\\.${scope}" fences "${body}")
      list(LENGTH fences fence_count)
      if(fence_count LESS 2)
        list(APPEND failures "sm_${arch} ${kernel}: ${fence_count} fence.acq_rel/sc.${scope}, expected an acquire and a release fence")
      endif()
    endif()
  endforeach()
endforeach()

if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "memory scopes in the device PTX:\n  ${text}")
endif()
message(STATUS "memory scopes in the device PTX: ok (sm ${ARCHS})")
