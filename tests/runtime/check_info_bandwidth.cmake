# A successful `ringkernel-info --bandwidth` (cmake -DINFO=<ringkernel-info> -P this file), run with
# RINGKERNEL_HOST_DEVICES=3 and RINGKERNEL_HOST_TOPOLOGY=0-1: exit status 0, and in each of the four
# tables (bandwidth and latency, peer access disabled, then enabled where supported) a header with the
# host devices' ids and a row per host device with a figure per device, host-staged pairs marked `s`:
# every pair of two devices while peer access is disabled, then every pair but the linked 0-1. The
# pairs listed after the tables report their figures as measured. CUDA devices, if any, come first;
# their cells in a host device's row are `--`.
if(NOT INFO)
  message(FATAL_ERROR "usage: cmake -DINFO=<ringkernel-info> -P check_info_bandwidth.cmake")
endif()
execute_process(COMMAND "${INFO}" --bandwidth --bytes 4096 --repetitions 2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ringkernel-info --bandwidth: exit status ${rc}\n${err}\n${out}")
endif()

string(REGEX MATCHALL "\n  \\[[0-9]+\\] [^\n]*" listed "${out}")
set(cuda_count 0)
set(ids)
foreach(line IN LISTS listed)
  string(REGEX REPLACE "^\n  \\[([0-9]+)\\].*" "\\1" id "${line}")
  if(line MATCHES "RingKernel host device [0-9]+ \\(host ordinal")
    list(APPEND ids ${id})
  else()
    math(EXPR cuda_count "${cuda_count} + 1")
  endif()
endforeach()
list(LENGTH ids host_count)
if(NOT host_count EQUAL 3)
  message(FATAL_ERROR "expected 3 host devices, found ${host_count} (${ids}):\n${out}")
endif()
string(REPEAT " +--" ${cuda_count} cuda_cells)
set(figure " +[0-9]+\\.[0-9][0-9]")

foreach(title
    "Peer access disabled, unidirectional bandwidth (GB/s; s = host-staged)"
    "Peer access disabled, latency (us; s = host-staged)"
    "Peer access enabled where supported, unidirectional bandwidth (GB/s; s = host-staged)"
    "Peer access enabled where supported, latency (us; s = host-staged)")
  string(FIND "${out}" "\n${title}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no table \"${title}\":\n${out}")
  endif()
  string(SUBSTRING "${out}" ${at} -1 rest)
  string(FIND "${rest}" "\n\n" end)  # the blank line after the table, or the end
  string(SUBSTRING "${rest}" 0 ${end} table)
  set(expected "\n   D\\\\D( +[0-9]+)*")
  foreach(id IN LISTS ids)
    string(APPEND expected " +${id}")
  endforeach()
  if(NOT table MATCHES "${expected}\n")
    message(FATAL_ERROR "bad header in \"${title}\":${table}")
  endif()
  foreach(row RANGE 2)
    list(GET ids ${row} id)
    set(expected "\n +${id} ${cuda_cells}")
    foreach(column RANGE 2)
      set(mark "s")
      if(row EQUAL column)
        set(mark " ")
      elseif(title MATCHES "enabled" AND row LESS 2 AND column LESS 2)
        set(mark " ")  # 0-1 is linked: direct
      endif()
      string(APPEND expected "${figure}${mark}")
    endforeach()
    if(NOT "${table}\n" MATCHES "${expected}\n")
      message(FATAL_ERROR "bad row of device ${id} in \"${title}\" (expected /${expected}/):${table}")
    endif()
  endforeach()
endforeach()

# After the tables: the pairs' figures are the measured ones.
list(GET ids 0 a)
list(GET ids 1 b)
list(GET ids 2 c)
string(FIND "${out}" "\nPeer access enabled where supported" enabled)
string(SUBSTRING "${out}" ${enabled} -1 tail)
foreach(pair "${a} +${b} +virtual link +yes +yes +1" "${a} +${c} +host-routed +no +no +100")
  if(NOT tail MATCHES "\n  ${pair} +[0-9]+\\.[0-9][0-9] measured +[0-9]+\\.[0-9][0-9] measured\n")
    message(FATAL_ERROR "the pair /${pair}/ does not report measured figures after the tables:${tail}")
  endif()
endforeach()
