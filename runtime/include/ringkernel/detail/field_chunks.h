// Copyright RingKernel authors.
// The codec's folds over a message's fields (encode, array decode, map decode) for messages with
// many fields: in host code, a message of more than max_unchunked_fields fields runs them in
// functions of field_chunk_size fields each instead of one function for the whole message. One
// function per message made the compile time grow faster than the field count (g++ threads every
// field's failure exit, and for maps every key's match, past the later fields' tests; with -g the
// debug statements of each inlined reader go along): a decoder of 128 int32 fields took 29-33 s
// with g++ 12 and 39 s with clang++ 19 at -O2 -g, in map format 55-73 s and 82-109 s, each in its
// own translation unit (bench/RESULTS.md). Messages of up to max_unchunked_fields fields (most)
// compile as one straight-line function, the fastest code; device code is never split (a call
// there would move the reader through local memory; nvcc's compile time is handled by
// RINGKERNEL_CODEC_DEVICE_OUTLINED instead).
#pragma once

#include <cstddef>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/message.h"

// A chunk's function: out of line, everything inside it inlined (test codec.inlining_chunks checks
// both). Not in device code, nor with RINGKERNEL_CODEC_DEVICE_PATHS (byte_ops.h).
#if !defined(__CUDA_ARCH__) && !defined(RINGKERNEL_CODEC_DEVICE_PATHS) && (defined(__GNUC__) || defined(__clang__))
#define RINGKERNEL_CODEC_FIELD_CHUNKS 1
#define RINGKERNEL_CODEC_CHUNK __attribute__((noinline, flatten))
#else
#define RINGKERNEL_CODEC_FIELD_CHUNKS 0
#define RINGKERNEL_CODEC_CHUNK RINGKERNEL_CODEC_INLINE
#endif

namespace ringkernel::detail {

/// Fields per chunk: a chunk's call costs a few percent of its fields' own instructions, and 8 per
/// chunk compiled maps little faster for more instructions, 32 no faster (bench/RESULTS.md).
inline constexpr std::size_t field_chunk_size = 16;

/// The most fields a message may have and still encode and decode in one function. Up to 32, one
/// function compiles in seconds (g++ 12 -O2 -g: 4.7-5.9 s for a decoder of 32 int32 fields,
/// 5.9-8.2 s in map format, where chunks took longer) and runs fastest: chunks cost 5-6% more
/// instructions for an array of 32 fields, 10% for a map of 32 and 29% for a map of 17 (its 17th
/// key is read three times). Above 32, one function's compile time grows faster than the fields.
inline constexpr std::size_t max_unchunked_fields = 2 * field_chunk_size;

/// Whether T's folds run in chunks (host code, more than max_unchunked_fields fields).
template <class T>
inline constexpr bool split_into_chunks =
    RINGKERNEL_CODEC_FIELD_CHUNKS != 0 && message_traits<T>::field_count > max_unchunked_fields;

template <std::size_t Begin>
using field_chunk = std::integral_constant<std::size_t, Begin>;

/// Passes visit_fields' calls for the fields [Begin, Begin + field_chunk_size) on to `inner`.
template <std::size_t Begin, class Visitor>
struct field_range_visitor {
  const Visitor* inner;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I> index, F& value) const noexcept {
    if constexpr (I >= Begin && I < Begin + field_chunk_size) (*inner)(index, value);
  }
};

/// visitor(field_index<I>{}, field) for the fields of chunk Begin only. A chunk's function takes
/// the reader or writer by value or copies it into a local: through a pointer to the caller's,
/// every byte stored (char may alias anything) would reload it.
template <std::size_t Begin, class T, class Visitor>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void visit_field_range(T& msg, const Visitor& visitor) noexcept {
  message_traits<std::remove_const_t<T>>::visit_fields(msg, field_range_visitor<Begin, Visitor>{&visitor});
}

/// chunk(field_chunk<Begin>{}) for every chunk of T's fields in order, until it returns false.
template <class T, std::size_t Begin = 0, class Chunk>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE void for_each_field_chunk(Chunk&& chunk) noexcept {
  if constexpr (Begin < message_traits<T>::field_count) {
    if (!chunk(field_chunk<Begin>{})) return;
    for_each_field_chunk<T, Begin + field_chunk_size>(chunk);
  }
}

/// chunk(field_chunk<Begin>{}) for the chunk that holds field `index`; nothing when there is none.
template <class T, std::size_t Begin = 0, class Chunk>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE void with_field_chunk_of(std::size_t index, Chunk&& chunk) noexcept {
  if constexpr (Begin < message_traits<T>::field_count) {
    if (index < Begin + field_chunk_size) {
      chunk(field_chunk<Begin>{});
    } else {
      with_field_chunk_of<T, Begin + field_chunk_size>(index, chunk);
    }
  }
}

}  // namespace ringkernel::detail
