// Copyright RingKernel authors.
// ringkernel::KernelMessage<T> (DESIGN.md §6; KernelMessage<T> of the reference): the envelope in
// which messages travel between ring kernels, devices and the host. A fixed, trivially copyable
// layout, identical for g++, clang++ and nvcc (static_asserts below), usable in device code.
//
// Layout (offsets in bytes; H = 40 for causal payload types, 32 otherwise):
//    0  sequence      u64  per sender, assigned when the message is stamped for sending
//    8  timestamp_us  i64  microseconds since the Unix epoch (host system_clock, device %globaltimer)
//   16  type_id       u32  message_traits<T>::type_id (receivers can check what they got)
//   20  sender_id     i32  kernel instance / endpoint that sent it (>= 0)
//   24  receiver_id   i32  destination, or broadcast (-1)
//   28  type          u8   MessageType
//   29  flags         u8   reserved, 0
//   30  reserved      u16  0
//   32  hlc           u64  hybrid logical clock stamp (only when message_traits<T>::causal)
//    H  payload       T    at H rounded up to alignof(T)
//
// Ids: sender_id is an id >= 0 (a sender is always an identified endpoint); receiver_id is -1
// (broadcast_receiver) or an id >= 0. encode_envelope refuses, and decode_envelope rejects, a
// negative sender_id or a receiver_id below -1 (value_out_of_range), so a reply addressed to a
// decoded message's sender_id always encodes and is never a broadcast. Neither id is checked
// against the ids that exist: a receiver that indexes a table with an id range-checks it itself
// (and a raw KernelMessage from dispatch_kernel_message is not checked at all).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/hlc.h"
#include "ringkernel/message.h"

RINGKERNEL_DEPRECATED_USES_PUSH  // a [[deprecated]] T or F warns only where the user names it (config.h)
namespace ringkernel {

/// What a message means to the ring kernel that receives it.
enum class MessageType : std::uint8_t {
  data = 0,       // application payload
  control = 1,    // a control request (payload says which); processed before data
  terminate = 2,  // stop the receiving kernel (receiver -1: every kernel); payload unused
  ack = 3,        // acknowledges the message whose sequence number the payload or header names
  error = 4,      // the sender failed to process a message; payload describes the failure
  heartbeat = 5,  // liveness probe of a persistent kernel; payload unused
};
inline constexpr std::uint8_t message_type_count = 6;

RINGKERNEL_HOST_DEVICE constexpr bool is_valid(MessageType t) noexcept {
  return static_cast<std::uint8_t>(t) < message_type_count;
}
RINGKERNEL_HOST_DEVICE constexpr const char* to_string(MessageType t) noexcept {
  switch (t) {
    case MessageType::data: return "data";
    case MessageType::control: return "control";
    case MessageType::terminate: return "terminate";
    case MessageType::ack: return "ack";
    case MessageType::error: return "error";
    case MessageType::heartbeat: return "heartbeat";
  }
  return "invalid";
}

/// Receiver id that addresses every kernel.
inline constexpr std::int32_t broadcast_receiver = -1;

/// Envelope header. Causal payload types carry a hybrid logical clock stamp as well.
template <bool Causal>
struct envelope_header {
  std::uint64_t sequence;
  std::int64_t timestamp_us;
  std::uint32_t type_id;
  std::int32_t sender_id;
  std::int32_t receiver_id;
  MessageType type;
  std::uint8_t flags;
  std::uint16_t reserved;
};

template <>
struct envelope_header<true> {
  std::uint64_t sequence;
  std::int64_t timestamp_us;
  std::uint32_t type_id;
  std::int32_t sender_id;
  std::int32_t receiver_id;
  MessageType type;
  std::uint8_t flags;
  std::uint16_t reserved;
  hlc_timestamp hlc;
};

/// The header's alignment is 8 for every compiler and translation unit: a `#pragma pack` in effect
/// where this file is included would lower it (and with it the alignment of every KernelMessage<T>,
/// which queues and dispatch_kernel_message rely on) while leaving the sizes and offsets unchanged.
inline constexpr bool envelope_header_layout_ok =
    alignof(envelope_header<false>) == 8 && alignof(envelope_header<true>) == 8;
static_assert(envelope_header_layout_ok,
              "ringkernel: envelope_header layout differs from the documented one (alignof is not 8): is "
              "ringkernel/kernel_message.h included under a #pragma pack?");
static_assert(sizeof(envelope_header<false>) == 32 && sizeof(envelope_header<true>) == 40);
static_assert(offsetof(envelope_header<false>, timestamp_us) == 8 && offsetof(envelope_header<false>, type_id) == 16 &&
              offsetof(envelope_header<false>, sender_id) == 20 && offsetof(envelope_header<false>, receiver_id) == 24 &&
              offsetof(envelope_header<false>, type) == 28 && offsetof(envelope_header<true>, hlc) == 32);

/// Offset of header.type_id in every KernelMessage<T>, causal or not: where a router of raw
/// envelopes reads the type before it knows T (the registry's dispatch_kernel_message).
inline constexpr std::size_t envelope_type_id_offset = 16;
static_assert(offsetof(envelope_header<false>, type_id) == envelope_type_id_offset &&
              offsetof(envelope_header<true>, type_id) == envelope_type_id_offset);

namespace detail {
template <class T>
RINGKERNEL_HOST_DEVICE constexpr bool payload_equal(const T& a, const T& b) noexcept;

// message_traits<T>::causal, false for a T that is not a message (whose KernelMessage fails its
// static_assert, with no second error about a missing `causal`).
template <class T>
RINGKERNEL_HOST_DEVICE constexpr bool causal_payload() noexcept {
  if constexpr (is_message_v<T>) {
    return message_traits<T>::causal;
  } else {
    return false;
  }
}
}  // namespace detail

template <class T>
inline constexpr bool kernel_message_layout_ok = false;  // defined below KernelMessage

/// T must be a [[ringkernel::message]] type whose generated traits are included. That is checked
/// by a static_assert in the class, not by a constraint, so that using another type names the fix
/// (a constraint reads "is_message_v<T> evaluated to false"). Nothing relies on KernelMessage<T>
/// being a substitution failure: functions taking a KernelMessage<T> deduce T from a real one.
template <class T>
struct KernelMessage {
  static_assert(is_message_v<T>,
                "T is not a RingKernel message: annotate it with [[ringkernel::message]] and include its generated "
                "<stem>.rk.h (or .rk.cuh) before using KernelMessage<T>");
  using payload_type = T;
  static constexpr bool causal = detail::causal_payload<T>();
  using header_type = envelope_header<causal>;

  header_type header;
  T payload;

  /// A message of any type; sequence, timestamp (and hlc) stay 0 until a MessageStamper stamps
  /// it (queues do not: a queue's latency statistics need messages stamped before sending).
  RINGKERNEL_HOST_DEVICE static constexpr KernelMessage create(std::int32_t sender_id, std::int32_t receiver_id,
                                                               MessageType type, const T& payload) noexcept {
    // (For a T that is not a message, the class's static_assert has said so: no second error here.)
    static_assert(!is_message_v<T> || !envelope_header_layout_ok || kernel_message_layout_ok<T>,
                  "KernelMessage<T> layout differs from the documented one");
    KernelMessage m{};
    if constexpr (is_message_v<T>) m.header.type_id = message_traits<T>::type_id;
    m.header.sender_id = sender_id;
    m.header.receiver_id = receiver_id;
    m.header.type = type;
    m.payload = payload;
    return m;
  }
  RINGKERNEL_HOST_DEVICE static constexpr KernelMessage create_data(std::int32_t sender_id, std::int32_t receiver_id,
                                                                    const T& payload) noexcept {
    return create(sender_id, receiver_id, MessageType::data, payload);
  }
  RINGKERNEL_HOST_DEVICE static constexpr KernelMessage create_control(std::int32_t sender_id, std::int32_t receiver_id,
                                                                       const T& payload) noexcept {
    return create(sender_id, receiver_id, MessageType::control, payload);
  }
  /// Payload value-initialised; receiver broadcast_receiver stops every kernel.
  RINGKERNEL_HOST_DEVICE static constexpr KernelMessage create_terminate(std::int32_t sender_id,
                                                                         std::int32_t receiver_id) noexcept {
    return create(sender_id, receiver_id, MessageType::terminate, T{});
  }

  RINGKERNEL_HOST_DEVICE constexpr bool is_broadcast() const noexcept { return header.receiver_id == broadcast_receiver; }

  /// Equal when every header field and every payload field compare equal (field by field through
  /// message_traits, so padding bytes never matter; floating-point fields compare with ==). A
  /// constant expression for constant messages (static_assert(a == b) works). Like std::pair's or
  /// a defaulted ==, it follows the fields' own ==, so it is not reflexive for every value: a
  /// message whose payload holds a NaN is unequal to its own copy (and to itself), while -0.0 and
  /// +0.0 are equal. Compare the fields yourself where a NaN must equal a NaN.
  friend RINGKERNEL_HOST_DEVICE constexpr bool operator==(const KernelMessage& a, const KernelMessage& b) noexcept {
    bool same = a.header.sequence == b.header.sequence && a.header.timestamp_us == b.header.timestamp_us &&
                a.header.type_id == b.header.type_id && a.header.sender_id == b.header.sender_id &&
                a.header.receiver_id == b.header.receiver_id && a.header.type == b.header.type &&
                a.header.flags == b.header.flags && a.header.reserved == b.header.reserved;
    if constexpr (causal) same = same && a.header.hlc == b.header.hlc;
    return same && detail::payload_equal(a.payload, b.payload);
  }
  friend RINGKERNEL_HOST_DEVICE constexpr bool operator!=(const KernelMessage& a, const KernelMessage& b) noexcept {
    return !(a == b);
  }
};

template <class M>
inline constexpr bool is_kernel_message_v = false;
template <class T>
inline constexpr bool is_kernel_message_v<KernelMessage<T>> = true;

/// Offset of the payload in KernelMessage<T>.
template <class T>
inline constexpr std::size_t payload_offset_v =
    (sizeof(envelope_header<message_traits<T>::causal>) + alignof(T) - 1) / alignof(T) * alignof(T);

namespace detail {

template <class F>
RINGKERNEL_HOST_DEVICE constexpr bool value_equal(const F& a, const F& b) noexcept {
  if constexpr (std::is_array_v<F>) {
    for (std::size_t i = 0; i < std::extent_v<F>; ++i) {
      if (!value_equal(a[i], b[i])) return false;
    }
    return true;
  } else if constexpr (is_message_v<F>) {
    return payload_equal(a, b);
  } else if constexpr (std::is_floating_point_v<F>) {
    return a <= b && a >= b;  // a == b (NaN unequal, -0 == +0), in a form clang's -Wfloat-equal accepts
  } else {
    return a == b;
  }
}

// Field I of the other message at run time: the field at the same byte offset (one visit of each
// message).
template <class T>
struct field_comparer {
  const T* other;
  bool* equal;
  const T* self;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE constexpr void operator()(field_index<I>, const F& value) const noexcept {
    if (!*equal) return;
    const auto offset = reinterpret_cast<const unsigned char*>(&value) - reinterpret_cast<const unsigned char*>(self);
    const F& theirs = *reinterpret_cast<const F*>(reinterpret_cast<const unsigned char*>(other) + offset);
    *equal = value_equal(value, theirs);
  }
};

// Field I of the other message in a constant expression, where reinterpret_cast is not allowed: one
// visit of the other message records a pointer to each of its fields, at the field's own type
// behind a common base (constant_field_ref<F>; the downcast of field I's is checked by the
// evaluator), one visit of this message compares each field with its record, a third frees the
// records. Linear in the field count: the former match by index (a visit of the other message per
// field, n * n calls) hit clang 19's constexpr step limit (-fconstexpr-steps 1048576) from about 600
// fields on; the allocations are transient, as C++20 allows in constant evaluation.
struct constant_field_ref_base {};

template <class F>
struct constant_field_ref : constant_field_ref_base {
  const F* field;
  RINGKERNEL_HOST_DEVICE constexpr explicit constant_field_ref(const F* f) noexcept : field(f) {}
};

struct constant_field_recorder {
  const constant_field_ref_base** refs;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE constexpr void operator()(field_index<I>, const F& value) const noexcept {
    refs[I] = new constant_field_ref<F>(&value);
  }
};

struct constant_field_comparer {
  const constant_field_ref_base* const* refs;
  bool* equal;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE constexpr void operator()(field_index<I>, const F& value) const noexcept {
    if (*equal) *equal = value_equal(value, *static_cast<const constant_field_ref<F>*>(refs[I])->field);
  }
};

struct constant_field_releaser {
  const constant_field_ref_base* const* refs;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE constexpr void operator()(field_index<I>, const F&) const noexcept {
    delete static_cast<const constant_field_ref<F>*>(refs[I]);
  }
};

template <class T>
RINGKERNEL_HOST_DEVICE constexpr bool constant_payload_equal(const T& a, const T& b) noexcept {
  constexpr std::size_t n = message_traits<T>::field_count;
  const constant_field_ref_base** refs = new const constant_field_ref_base*[n > 0 ? n : 1];
  message_traits<T>::visit_fields(b, constant_field_recorder{refs});
  bool equal = true;
  message_traits<T>::visit_fields(a, constant_field_comparer{refs, &equal});
  message_traits<T>::visit_fields(b, constant_field_releaser{refs});
  delete[] refs;
  return equal;
}

template <class T>
RINGKERNEL_HOST_DEVICE constexpr bool payload_equal(const T& a, const T& b) noexcept {
  if (__builtin_is_constant_evaluated()) {  // (std::is_constant_evaluated is host-only for nvcc)
    return constant_payload_equal(a, b);
  }
  bool equal = true;
  message_traits<T>::visit_fields(a, field_comparer<T>{&b, &equal, &a});
  return equal;
}

}  // namespace detail

/// The documented layout holds for KernelMessage<T>: trivially copyable, standard layout, the payload
/// at payload_offset_v<T>, aligned to 8 or more. Asserted by create() (hence by every factory) and by
/// the paths that take a KernelMessage<T> made elsewhere: encode_envelope, decode_envelope and a
/// registry's dispatch_kernel_message (a failed envelope_header_layout_ok is reported once, by itself).
template <class T>
  requires is_message_v<T>
inline constexpr bool kernel_message_layout_ok<T> =
    std::is_trivially_copyable_v<KernelMessage<T>> && std::is_standard_layout_v<KernelMessage<T>> &&
    offsetof(KernelMessage<T>, header) == 0 && offsetof(KernelMessage<T>, payload) == payload_offset_v<T> &&
    alignof(KernelMessage<T>) == (alignof(T) > 8 ? alignof(T) : 8);

}  // namespace ringkernel
RINGKERNEL_DEPRECATED_USES_POP
