// Copyright RingKernel authors.
// message_traits for messages/codec_messages.h written by hand, following the contract of
// ringkernel/message.h exactly (what ringkernel-gen emits). Used where ringkernel-gen is not built,
// so the codec is also tested independently of the generator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "messages/codec_messages.h"
#include "ringkernel/message.h"

namespace codec_test::handwritten {

template <class E>
RINGKERNEL_HOST_DEVICE constexpr ringkernel::field_kind kind_of() {
  using ringkernel::field_kind;
  if constexpr (std::is_same_v<E, bool>) return field_kind::boolean;
  else if constexpr (std::is_same_v<E, char>) return field_kind::character;
  else if constexpr (std::is_same_v<E, std::byte>) return field_kind::byte;
  else if constexpr (std::is_same_v<E, char8_t>) return field_kind::char8;
  else if constexpr (std::is_same_v<E, char16_t>) return field_kind::uint16;
  else if constexpr (std::is_same_v<E, char32_t>) return field_kind::uint32;
  else if constexpr (std::is_enum_v<E>) return field_kind::enumeration;
  else if constexpr (std::is_same_v<E, float>) return field_kind::float32;
  else if constexpr (std::is_same_v<E, double>) return field_kind::float64;
  else if constexpr (std::is_same_v<E, std::int8_t>) return field_kind::int8;
  else if constexpr (std::is_same_v<E, std::int16_t>) return field_kind::int16;
  else if constexpr (std::is_same_v<E, std::int32_t> || std::is_same_v<E, int>) return field_kind::int32;
  else if constexpr (std::is_same_v<E, std::int64_t>) return field_kind::int64;
  else if constexpr (std::is_same_v<E, std::uint8_t>) return field_kind::uint8;
  else if constexpr (std::is_same_v<E, std::uint16_t>) return field_kind::uint16;
  else if constexpr (std::is_same_v<E, std::uint32_t>) return field_kind::uint32;
  else if constexpr (std::is_same_v<E, std::uint64_t>) return field_kind::uint64;
  else return field_kind::message;
}

template <class F>
RINGKERNEL_HOST_DEVICE constexpr ringkernel::field_descriptor describe(const char* name, std::size_t offset) {
  using E = std::remove_all_extents_t<F>;
  ringkernel::field_descriptor d{};
  d.name = name;
  d.kind = kind_of<E>();
  if constexpr (std::is_enum_v<E> && !std::is_same_v<E, std::byte>) {
    d.underlying = kind_of<std::underlying_type_t<E>>();
  } else {
    d.underlying = d.kind;
  }
  d.offset = static_cast<std::uint32_t>(offset);
  d.size = sizeof(F);
  d.element_size = sizeof(E);
  d.rank = std::rank_v<F>;
  if constexpr (std::rank_v<F> > 0) d.extents[0] = std::extent_v<F, 0>;
  if constexpr (std::rank_v<F> > 1) d.extents[1] = std::extent_v<F, 1>;
  if constexpr (ringkernel::is_message_v<E>) d.message_type_id = ringkernel::message_traits<E>::type_id;
  return d;
}

/// The constants every traits specialisation carries (kernel = name without suffix, defaults of §3).
template <class T, ringkernel::wire_format Format, std::size_t FieldCount>
struct traits_base {
  using type = T;
  static constexpr bool is_message = true;
  static constexpr ringkernel::direction direction = ringkernel::direction::bidirectional;
  static constexpr std::uint8_t priority = 128;
  static constexpr bool causal = false;
  static constexpr ringkernel::wire_format format = Format;
  static constexpr std::size_t size = sizeof(T);
  static constexpr std::size_t alignment = alignof(T);
  static constexpr std::size_t field_count = FieldCount;
};

}  // namespace codec_test::handwritten

#define CODEC_TEST_FIELD(T, member) \
  ::codec_test::handwritten::describe<decltype(T::member)>(#member, offsetof(T, member))

#define CODEC_TEST_IDS(qualified, short_name)                                        \
  static constexpr std::uint32_t type_id = ringkernel::fnv1a32(qualified);           \
  static constexpr const char* name = qualified;                                     \
  static constexpr const char* kernel = short_name;                                  \
  static constexpr std::uint32_t kernel_id = ringkernel::fnv1a32(short_name);

// Scalars and ScalarsMap share their members; so do Arrays and ArraysMap.
#define CODEC_TEST_SCALAR_FIELDS(T)                                                                  \
  RINGKERNEL_HOST_DEVICE static constexpr ringkernel::field_descriptor field(std::size_t i) {        \
    const ringkernel::field_descriptor all[] = {                                                     \
        CODEC_TEST_FIELD(T, flag), CODEC_TEST_FIELD(T, letter), CODEC_TEST_FIELD(T, i8),             \
        CODEC_TEST_FIELD(T, i16),  CODEC_TEST_FIELD(T, i32),    CODEC_TEST_FIELD(T, i64),            \
        CODEC_TEST_FIELD(T, u8),   CODEC_TEST_FIELD(T, u16),    CODEC_TEST_FIELD(T, u32),            \
        CODEC_TEST_FIELD(T, u64),  CODEC_TEST_FIELD(T, f32),    CODEC_TEST_FIELD(T, f64),            \
        CODEC_TEST_FIELD(T, color), CODEC_TEST_FIELD(T, offset), CODEC_TEST_FIELD(T, level),         \
        CODEC_TEST_FIELD(T, raw)};                                                                   \
    return i < 16 ? all[i] : ringkernel::field_descriptor{};                                         \
  }                                                                                                  \
  template <class M, class V>                                                                        \
  RINGKERNEL_HOST_DEVICE static constexpr void visit_all(M& m, V& v) {                               \
    using ringkernel::field_index;                                                                   \
    v(field_index<0>{}, m.flag); v(field_index<1>{}, m.letter); v(field_index<2>{}, m.i8);           \
    v(field_index<3>{}, m.i16); v(field_index<4>{}, m.i32); v(field_index<5>{}, m.i64);              \
    v(field_index<6>{}, m.u8); v(field_index<7>{}, m.u16); v(field_index<8>{}, m.u32);               \
    v(field_index<9>{}, m.u64); v(field_index<10>{}, m.f32); v(field_index<11>{}, m.f64);            \
    v(field_index<12>{}, m.color); v(field_index<13>{}, m.offset); v(field_index<14>{}, m.level);    \
    v(field_index<15>{}, m.raw);                                                                     \
  }

#define CODEC_TEST_ARRAY_FIELDS(T)                                                                   \
  RINGKERNEL_HOST_DEVICE static constexpr ringkernel::field_descriptor field(std::size_t i) {        \
    const ringkernel::field_descriptor all[] = {                                                     \
        CODEC_TEST_FIELD(T, name),  CODEC_TEST_FIELD(T, blob),   CODEC_TEST_FIELD(T, raw),           \
        CODEC_TEST_FIELD(T, grid),  CODEC_TEST_FIELD(T, words),  CODEC_TEST_FIELD(T, blobs),         \
        CODEC_TEST_FIELD(T, flags), CODEC_TEST_FIELD(T, values), CODEC_TEST_FIELD(T, colors),        \
        CODEC_TEST_FIELD(T, points), CODEC_TEST_FIELD(T, tag)};                                      \
    return i < 11 ? all[i] : ringkernel::field_descriptor{};                                         \
  }                                                                                                  \
  template <class M, class V>                                                                        \
  RINGKERNEL_HOST_DEVICE static constexpr void visit_all(M& m, V& v) {                               \
    using ringkernel::field_index;                                                                   \
    v(field_index<0>{}, m.name); v(field_index<1>{}, m.blob); v(field_index<2>{}, m.raw);            \
    v(field_index<3>{}, m.grid); v(field_index<4>{}, m.words); v(field_index<5>{}, m.blobs);         \
    v(field_index<6>{}, m.flags); v(field_index<7>{}, m.values); v(field_index<8>{}, m.colors);      \
    v(field_index<9>{}, m.points); v(field_index<10>{}, m.tag);                                      \
  }

// The two visit_fields overloads of the contract, forwarding to visit_all.
#define CODEC_TEST_VISIT                                                                             \
  template <class V>                                                                                 \
  RINGKERNEL_HOST_DEVICE static constexpr void visit_fields(type& m, V&& v) { visit_all(m, v); }     \
  template <class V>                                                                                 \
  RINGKERNEL_HOST_DEVICE static constexpr void visit_fields(const type& m, V&& v) { visit_all(m, v); }

// Messages with few fields: descriptor list and member list spelled out.
#define CODEC_TEST_SMALL(T, N, DESCRIPTORS, VISITS)                                                  \
  RINGKERNEL_HOST_DEVICE static constexpr ringkernel::field_descriptor field(std::size_t i) {        \
    const ringkernel::field_descriptor all[] = {DESCRIPTORS};                                        \
    return i < N ? all[i] : ringkernel::field_descriptor{};                                          \
  }                                                                                                  \
  template <class M, class V>                                                                        \
  RINGKERNEL_HOST_DEVICE static constexpr void visit_all(M& m, V& v) {                               \
    using ringkernel::field_index;                                                                   \
    VISITS                                                                                           \
  }                                                                                                  \
  CODEC_TEST_VISIT

#define CODEC_TEST_COMMA ,

namespace ringkernel {

using codec_test::handwritten::traits_base;

template <>
struct message_traits<codec_test::Scalars> : traits_base<codec_test::Scalars, wire_format::array, 16> {
  CODEC_TEST_IDS("codec_test::Scalars", "Scalars")
  CODEC_TEST_SCALAR_FIELDS(codec_test::Scalars)
  CODEC_TEST_VISIT
};

template <>
struct message_traits<codec_test::ScalarsMap> : traits_base<codec_test::ScalarsMap, wire_format::map, 16> {
  CODEC_TEST_IDS("codec_test::ScalarsMap", "ScalarsMap")
  CODEC_TEST_SCALAR_FIELDS(codec_test::ScalarsMap)
  CODEC_TEST_VISIT
};

template <>
struct message_traits<codec_test::Point> : traits_base<codec_test::Point, wire_format::array, 2> {
  CODEC_TEST_IDS("codec_test::Point", "Point")
  CODEC_TEST_SMALL(codec_test::Point, 2,
                   CODEC_TEST_FIELD(codec_test::Point, x) CODEC_TEST_COMMA CODEC_TEST_FIELD(codec_test::Point, y),
                   v(field_index<0>{}, m.x); v(field_index<1>{}, m.y);)
};

template <>
struct message_traits<codec_test::Tag> : traits_base<codec_test::Tag, wire_format::map, 2> {
  CODEC_TEST_IDS("codec_test::Tag", "Tag")
  CODEC_TEST_SMALL(codec_test::Tag, 2,
                   CODEC_TEST_FIELD(codec_test::Tag, id) CODEC_TEST_COMMA CODEC_TEST_FIELD(codec_test::Tag, label),
                   v(field_index<0>{}, m.id); v(field_index<1>{}, m.label);)
};

template <>
struct message_traits<codec_test::Arrays> : traits_base<codec_test::Arrays, wire_format::array, 11> {
  CODEC_TEST_IDS("codec_test::Arrays", "Arrays")
  CODEC_TEST_ARRAY_FIELDS(codec_test::Arrays)
  CODEC_TEST_VISIT
};

template <>
struct message_traits<codec_test::ArraysMap> : traits_base<codec_test::ArraysMap, wire_format::map, 11> {
  CODEC_TEST_IDS("codec_test::ArraysMap", "ArraysMap")
  CODEC_TEST_ARRAY_FIELDS(codec_test::ArraysMap)
  CODEC_TEST_VISIT
};

template <>
struct message_traits<codec_test::Wide> : traits_base<codec_test::Wide, wire_format::array, 3> {
  CODEC_TEST_IDS("codec_test::Wide", "Wide")
  CODEC_TEST_SMALL(codec_test::Wide, 3,
                   CODEC_TEST_FIELD(codec_test::Wide, text) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Wide, data) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Wide, series),
                   v(field_index<0>{}, m.text); v(field_index<1>{}, m.data); v(field_index<2>{}, m.series);)
};

template <>
struct message_traits<codec_test::Huge> : traits_base<codec_test::Huge, wire_format::array, 3> {
  CODEC_TEST_IDS("codec_test::Huge", "Huge")
  CODEC_TEST_SMALL(codec_test::Huge, 3,
                   CODEC_TEST_FIELD(codec_test::Huge, text) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Huge, data) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Huge, marks),
                   v(field_index<0>{}, m.text); v(field_index<1>{}, m.data); v(field_index<2>{}, m.marks);)
};

template <>
struct message_traits<codec_test::Outer> : traits_base<codec_test::Outer, wire_format::map, 3> {
  CODEC_TEST_IDS("codec_test::Outer", "Outer")
  CODEC_TEST_SMALL(codec_test::Outer, 3,
                   CODEC_TEST_FIELD(codec_test::Outer, origin) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Outer, tags) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Outer, sequence),
                   v(field_index<0>{}, m.origin); v(field_index<1>{}, m.tags); v(field_index<2>{}, m.sequence);)
};

template <>
struct message_traits<codec_test::Telemetry64> : traits_base<codec_test::Telemetry64, wire_format::array, 11> {
  CODEC_TEST_IDS("codec_test::Telemetry64", "Telemetry64")
  CODEC_TEST_SMALL(codec_test::Telemetry64, 11,
                   CODEC_TEST_FIELD(codec_test::Telemetry64, sequence) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, timestamp_ns) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, sensor_id) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, status) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, value) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, min) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, max) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, flags) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, channel) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, valid) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Telemetry64, unit),
                   v(field_index<0>{}, m.sequence); v(field_index<1>{}, m.timestamp_ns);
                   v(field_index<2>{}, m.sensor_id); v(field_index<3>{}, m.status);
                   v(field_index<4>{}, m.value); v(field_index<5>{}, m.min); v(field_index<6>{}, m.max);
                   v(field_index<7>{}, m.flags); v(field_index<8>{}, m.channel);
                   v(field_index<9>{}, m.valid); v(field_index<10>{}, m.unit);)
};

template <>
struct message_traits<codec_test::Order128> : traits_base<codec_test::Order128, wire_format::array, 13> {
  CODEC_TEST_IDS("codec_test::Order128", "Order128")
  CODEC_TEST_SMALL(codec_test::Order128, 13,
                   CODEC_TEST_FIELD(codec_test::Order128, order_id) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, account_id) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, price_ticks) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, quantity) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, limit_price) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, instrument) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, venue) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, side) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, reduce_only) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, tags) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, symbol) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, legs) CODEC_TEST_COMMA
                   CODEC_TEST_FIELD(codec_test::Order128, client_ref),
                   v(field_index<0>{}, m.order_id); v(field_index<1>{}, m.account_id);
                   v(field_index<2>{}, m.price_ticks); v(field_index<3>{}, m.quantity);
                   v(field_index<4>{}, m.limit_price); v(field_index<5>{}, m.instrument);
                   v(field_index<6>{}, m.venue); v(field_index<7>{}, m.side);
                   v(field_index<8>{}, m.reduce_only); v(field_index<9>{}, m.tags);
                   v(field_index<10>{}, m.symbol); v(field_index<11>{}, m.legs);
                   v(field_index<12>{}, m.client_ref);)
};

}  // namespace ringkernel
