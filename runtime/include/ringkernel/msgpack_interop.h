// Copyright RingKernel authors.
// Host-only bridge to msgpack-c's C API (<msgpack.h>, link msgpackc): write messages into any
// msgpack_packer stream and read them from unpacked msgpack_object trees. Same wire rules as
// ringkernel::encode/decode (docs/wire-format.md); pack emits every value through msgpack-c's own
// msgpack_pack_* functions.
#pragma once

#include <msgpack.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ringkernel/codec.h"
#include "ringkernel/detail/message_codec.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

#if RINGKERNEL_IS_DEVICE_CODE
#error "ringkernel/msgpack_interop.h is host-only (msgpack-c does not run on the device)"
#endif

namespace ringkernel::msgpack {

namespace detail {

/// The writer interface of ringkernel::detail::msgpack_writer, forwarding to msgpack_pack_*.
/// Stops at the first non-zero result of the packer's write callback and remembers it: nothing is
/// written after a failed write (a later value would land in the stream without the part that
/// failed before it, as valid-looking but wrong MessagePack).
class packer_writer {
 public:
  explicit packer_writer(msgpack_packer* pk) noexcept : pk_(pk) {}
  int result() const noexcept { return result_; }

  void write_bool(bool v) noexcept {
    if (result_ == 0) result_ = v ? msgpack_pack_true(pk_) : msgpack_pack_false(pk_);
  }
  void write_uint(std::uint64_t v) noexcept {
    if (result_ == 0) result_ = msgpack_pack_uint64(pk_, v);
  }
  void write_int(std::int64_t v) noexcept {
    if (result_ == 0) result_ = msgpack_pack_int64(pk_, v);
  }
  void write_float(float v) noexcept {
    if (result_ == 0) result_ = msgpack_pack_float(pk_, v);
  }
  void write_double(double v) noexcept {
    if (result_ == 0) result_ = msgpack_pack_double(pk_, v);
  }
  void write_str(const char* data, std::uint32_t length) noexcept {
    if (result_ == 0) result_ = msgpack_pack_str(pk_, length);
    if (result_ == 0) result_ = msgpack_pack_str_body(pk_, data, length);
  }
  template <std::size_t N>
  void write_char_array(const char (&s)[N]) noexcept {
    write_str(s, ringkernel::detail::bounded_strlen(s, N));
  }
  void write_bin(const void* data, std::uint32_t length) noexcept {
    if (result_ == 0) result_ = msgpack_pack_bin(pk_, length);
    if (result_ == 0) result_ = msgpack_pack_bin_body(pk_, data, length);
  }
  void write_array_header(std::uint32_t count) noexcept {
    if (result_ == 0) result_ = msgpack_pack_array(pk_, count);
  }
  void write_map_header(std::uint32_t count) noexcept {
    if (result_ == 0) result_ = msgpack_pack_map(pk_, count);
  }

 private:
  msgpack_packer* pk_;
  int result_ = 0;
};

/// A hand-built object whose type is none of msgpack_object_type's is not MessagePack at all:
/// pack_object_bounded returns this (msgpack-c's packer gives -1 for it, as for a failed allocation).
inline constexpr int invalid_object_type = 1;

/// The object's type tag as the integer stored: a hand-built or corrupted object may hold a value
/// outside the enumeration's range, which a load as msgpack_object_type would make undefined.
inline int object_type_value(const msgpack_object& o) noexcept {
  std::underlying_type_t<msgpack_object_type> raw;
  std::memcpy(&raw, &o.type, sizeof raw);
  return static_cast<int>(raw);
}

inline bool is_scalar_object_type(int type) noexcept {
  switch (type) {
    case MSGPACK_OBJECT_NIL:
    case MSGPACK_OBJECT_BOOLEAN:
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
    case MSGPACK_OBJECT_STR:
    case MSGPACK_OBJECT_BIN:
    case MSGPACK_OBJECT_EXT: return true;
    default: return false;  // a container, or no msgpack_object_type at all
  }
}

/// msgpack_pack_object, except that an array or map nested deeper than max_decode_depth (the top
/// level is 1) is packed as an empty array: the decoder refuses a container there whatever it holds
/// (nesting_too_deep where it is skipped, type_mismatch where a field wants a scalar, str or bin),
/// and every value of it still takes at least a byte, so the result is the same. msgpack-c's own
/// recursion follows any depth: a hand-built object nested 10^6 deep overflowed the stack.
inline int pack_object_bounded(msgpack_packer* pk, const msgpack_object& o, std::uint32_t level) noexcept {
  const int type = object_type_value(o);
  if (is_scalar_object_type(type)) return msgpack_pack_object(pk, o);
  if (type != MSGPACK_OBJECT_ARRAY && type != MSGPACK_OBJECT_MAP) return invalid_object_type;
  if (level > max_decode_depth) return msgpack_pack_array(pk, 0);
  if (type == MSGPACK_OBJECT_ARRAY) {
    if (const int r = msgpack_pack_array(pk, o.via.array.size); r != 0) return r;
    for (std::uint32_t i = 0; i < o.via.array.size; ++i) {
      if (const int r = pack_object_bounded(pk, o.via.array.ptr[i], level + 1); r != 0) return r;
    }
    return 0;
  }
  if (const int r = msgpack_pack_map(pk, o.via.map.size); r != 0) return r;
  for (std::uint32_t i = 0; i < o.via.map.size; ++i) {
    if (const int r = pack_object_bounded(pk, o.via.map.ptr[i].key, level + 1); r != 0) return r;
    if (const int r = pack_object_bounded(pk, o.via.map.ptr[i].val, level + 1); r != 0) return r;
  }
  return 0;
}

}  // namespace detail

/// Packs `msg` into the packer's stream. Returns 0, or the first non-zero result of the packer's
/// write callback (msgpack-c's convention); nothing is written after that failed write (what was
/// written before it stays in the stream, as with msgpack-c's own msgpack_pack_object).
template <class T>
  requires is_message_v<T>
int pack(msgpack_packer* pk, const T& msg) noexcept {
  detail::packer_writer w(pk);
  ringkernel::detail::encode_message(msg, w);
  return w.result();
}

/// Converts an unpacked msgpack_object into `msg` with the rules of ringkernel::decode (the object is
/// re-serialised through msgpack-c into a temporary buffer, then decoded). `msg` is written only on
/// success. invalid_input: an object (at any depth) whose type is no msgpack_object_type, as decode
/// refuses bytes that are not MessagePack. buffer_too_small: msgpack-c could not allocate the
/// temporary buffer.
template <class T>
  requires is_message_v<T>
codec_status unpack(const msgpack_object& object, T& msg) noexcept {
  msgpack_sbuffer buffer;
  msgpack_sbuffer_init(&buffer);
  msgpack_packer pk;
  msgpack_packer_init(&pk, &buffer, msgpack_sbuffer_write);
  codec_status status = codec_status::buffer_too_small;
  const int packed = detail::pack_object_bounded(&pk, object, 1);
  if (packed == detail::invalid_object_type) status = codec_status::invalid_input;
  if (packed == 0) {
    const codec_result r = decode(reinterpret_cast<const std::uint8_t*>(buffer.data), buffer.size, msg);
    status = r.status;
    // An object is one value: bytes after the message cannot occur, the check guards the invariant.
    if (status == codec_status::ok && r.size != buffer.size) status = codec_status::invalid_input;
  }
  msgpack_sbuffer_destroy(&buffer);
  return status;
}

}  // namespace ringkernel::msgpack
