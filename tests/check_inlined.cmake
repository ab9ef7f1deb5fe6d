# Copyright RingKernel authors.
# Inlining checks (tests codec.inlining and messaging.queue_fast_path_inlined, label unit): compiles
# SOURCE with each compiler in COMPILERS at -O2 and fails when the object defines a function whose
# mangled name matches OUTLINED (and not ALLOWED) and that something in the object calls or refers
# to: the hot paths named there must have been inlined into their callers. (A copy nothing refers to
# is dead code, not a call: g++ 12 leaves such IPA-SRA clones, `.isra`, of functions it then inlined
# everywhere; they are listed, not failed.) ENTRY (a regex) must match at least ENTRY_COUNT defined
# functions, so that a source that compiled to nothing cannot pass.
# With UNOPTIMISED (a regex), SOURCE is compiled at -O0 too, and there at least one function matching
# it must be called out of line: the inlining is forced only where the compiler optimises, so that
# Debug builds compile quickly and can be stepped through (docs/wire-format.md).
# Usage: cmake -DCOMPILERS=<c++>[,<c++>...] -DSOURCE=<file.cpp> -DINCLUDES=<dir>[,<dir>...] -DNM=<nm>
#        -DOBJDUMP=<objdump> -DWORK=<dir> -DENTRY=<regex> -DENTRY_COUNT=<n> -DOUTLINED=<regex>
#        [-DALLOWED=<regex>] [-DUNOPTIMISED=<regex>] [-DHINT=<where to look when it fails>]
#        -P check_inlined.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" COMPILERS "${COMPILERS}")
string(REPLACE "," ";" INCLUDES "${INCLUDES}")
list(TRANSFORM INCLUDES PREPEND "-I")
get_filename_component(stem "${SOURCE}" NAME_WE)
file(MAKE_DIRECTORY "${WORK}")

# Compiles SOURCE with `compiler` at `level` into `object`; sets <out_entries> to the number of
# defined functions matching ENTRY and <out_called> to those matching `pattern` (and not ALLOWED)
# that the object calls or refers to. With `unoptimised` TRUE the object is not disassembled: at -O0
# an inline function is emitted only where something uses it, so every one defined is called.
function(compile_and_find compiler level object pattern unoptimised out_entries out_called)
  execute_process(COMMAND "${compiler}" -std=c++20 ${level} ${INCLUDES} -c "${SOURCE}" -o "${object}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${compiler} ${level} -c ${SOURCE} failed (${rc}):\n${out}${err}")
  endif()
  execute_process(COMMAND "${NM}" --defined-only "${object}" RESULT_VARIABLE rc OUTPUT_VARIABLE symbols ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} ${object} failed (${rc}): ${err}")
  endif()
  string(REGEX MATCHALL "[0-9a-f]+ [TtWw] [^\n]+" functions "${symbols}")
  set(entry_points 0)
  set(outlined "")
  foreach(line IN LISTS functions)
    string(REGEX REPLACE "^[0-9a-f]+ [TtWw] " "" name "${line}")
    if(name MATCHES "${ENTRY}")
      math(EXPR entry_points "${entry_points} + 1")
    elseif(name MATCHES "${pattern}" AND NOT (ALLOWED AND name MATCHES "${ALLOWED}"))
      list(APPEND outlined "${name}")
    endif()
  endforeach()
  set(called "")
  if(unoptimised)
    set(called "${outlined}")
  elseif(outlined)
    execute_process(COMMAND "${OBJDUMP}" -dr --no-show-raw-insn "${object}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE disassembly ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${OBJDUMP} -dr ${object} failed (${rc}): ${err}")
    endif()
    foreach(name IN LISTS outlined)
      # A call or jump to its start (`<name>` ending a line; its own label ends in `>:`), or a
      # relocation naming it (`\tname`, then `-0x4`, `+0x..` or the line's end).
      set(referenced FALSE)
      foreach(text "<${name}>\n" "\t${name}-" "\t${name}+" "\t${name}\n")
        string(FIND "${disassembly}" "${text}" at)
        if(NOT at EQUAL -1)
          set(referenced TRUE)
        endif()
      endforeach()
      if(referenced)
        list(APPEND called "${name}")
      else()
        message(STATUS "${compiler} ${level}: defined, never called (dead code, not counted): ${name}")
      endif()
    endforeach()
  endif()
  set(${out_entries} ${entry_points} PARENT_SCOPE)
  set(${out_called} "${called}" PARENT_SCOPE)
endfunction()

set(failures "")
set(index 0)
foreach(compiler IN LISTS COMPILERS)
  math(EXPR index "${index} + 1")
  compile_and_find("${compiler}" -O2 "${WORK}/${stem}.${index}.o" "${OUTLINED}" FALSE entry_points outlined)
  if(entry_points LESS ENTRY_COUNT)
    list(APPEND failures "${compiler}: ${entry_points} of the ${ENTRY_COUNT} functions matching '${ENTRY}' in ${stem}.${index}.o")
  endif()
  foreach(name IN LISTS outlined)
    execute_process(COMMAND c++filt "${name}" OUTPUT_VARIABLE readable ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT readable)
      set(readable "${name}")
    endif()
    list(APPEND failures "${compiler} -O2: not inlined: ${readable}")
  endforeach()
  list(LENGTH outlined count)
  message(STATUS "${compiler} -O2: ${entry_points} entry points, ${count} functions left out of line")
  if(UNOPTIMISED)
    compile_and_find("${compiler}" -O0 "${WORK}/${stem}.${index}.O0.o" "${UNOPTIMISED}" TRUE entry_points called)
    list(LENGTH called count)
    message(STATUS "${compiler} -O0: ${count} functions matching '${UNOPTIMISED}' out of line")
    if(count EQUAL 0)
      list(APPEND failures "${compiler} -O0: no function matching '${UNOPTIMISED}' out of line (inlining forced in an unoptimised build)")
    endif()
  endif()
endforeach()
if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "${SOURCE}: inlining not as required. ${HINT}\n  ${text}")
endif()
