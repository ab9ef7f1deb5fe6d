// Copyright RingKernel authors.
// Test codec.inlining_chunks: messages of more than 32 fields (tests/codec/messages/many_fields.h)
// encode and decode in host functions of 16 fields each (ringkernel/detail/field_chunks.h), and
// nothing else of ringkernel's is left out of line. tests/check_inlined.cmake compiles this file
// with each compiler at -O2: the entry points and the chunk functions must be there (a message in
// one function would bring back g++'s compile time that grows faster than the field count), and
// everything inside them inlined (the chunks keep the reader or writer in registers).
#include "codec_entry_points.h"
#include "many_fields.rk.h"

CODEC_ENTRY_POINTS(ManyFields)
CODEC_ENTRY_POINTS(ManyFieldsMap)
