// Copyright RingKernel authors.
// Test codec.inlining_chunks: messages of more than 16 fields (tests/codec/messages/many_fields.h)
// encode and decode in host functions of 16 fields each (ringkernel/detail/field_chunks.h), and
// nothing else of ringkernel's is left out of line. tests/check_inlined.cmake compiles this file
// with each compiler at -O2: the entry points and the chunk functions must be there (a message in
// one function would bring back g++'s compile time that grows faster than the field count), and
// everything inside them inlined (the chunks keep the reader or writer in registers).
#include <cstddef>
#include <cstdint>

#include "many_fields.rk.h"
#include "ringkernel/codec.h"

#define CODEC_ENTRY_POINTS(T)                                                                              \
  __attribute__((noinline)) ringkernel::codec_result encode_##T(const codec_test::T& m, std::uint8_t* out, \
                                                                std::size_t capacity) {                    \
    return ringkernel::encode(m, out, capacity);                                                           \
  }                                                                                                        \
  __attribute__((noinline)) ringkernel::codec_result decode_##T(const std::uint8_t* in, std::size_t size,  \
                                                                codec_test::T& m) {                        \
    return ringkernel::decode(in, size, m);                                                                \
  }

CODEC_ENTRY_POINTS(ManyFields)
CODEC_ENTRY_POINTS(ManyFieldsMap)
