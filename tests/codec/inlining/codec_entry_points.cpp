// Copyright RingKernel authors.
// Test codec.inlining: one out-of-line encode and decode per test message (every field kind, both
// wire formats, nested messages, short and long arrays, and the widest message that is not split
// into chunks, 32 fields). tests/check_inlined.cmake compiles this file with each compiler at -O2
// and requires that nothing of ringkernel's is left out of line but the entry points themselves
// and the skipping of unknown values: the codec's speed rests on each message becoming one
// straight-line function (clang-19 code that kept generated visit_fields and the message fold out
// of line ran at half the speed).
#include "codec_entry_points.h"
#include "codec_messages.rk.h"
#include "many_fields.rk.h"

CODEC_ENTRY_POINTS(Scalars)
CODEC_ENTRY_POINTS(ScalarsMap)
CODEC_ENTRY_POINTS(Arrays)
CODEC_ENTRY_POINTS(ArraysMap)
CODEC_ENTRY_POINTS(Wide)
CODEC_ENTRY_POINTS(Outer)
CODEC_ENTRY_POINTS(Telemetry64)
CODEC_ENTRY_POINTS(Order128)
CODEC_ENTRY_POINTS(Fields32Map)
