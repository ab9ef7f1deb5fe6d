// Copyright RingKernel authors.
// ringkernel::msgpack::unpack against ringkernel::decode: the same bytes, unpacked by msgpack-c into
// an object first, must give the same status and the same values (docs/wire-format.md §8), over the
// fuzz corpora and their mutations; and objects built by hand, nested deeper than any input msgpack-c
// unpacks, get the decoder's answer instead of overflowing the stack.
#include <gtest/gtest.h>
#include <msgpack.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "codec_test_support.h"
#include "msgpack_c_stream.h"
#include "ringkernel/msgpack_interop.h"

namespace codec_test {
namespace {

using ringkernel::codec_status;

/// decode(bytes) and unpack(msgpack_unpack(bytes)) as T: "" when they agree, else what differs.
template <class T>
std::string disagreement(const bytes& in) {
  // msgpack-c allocates an array's or map's objects from its header's count before reading them
  // (2^32 - 1 entries: 128 GiB, which ASan refuses): give it only input that is one complete value
  // whose counts fit the input. Where that is not so, decode must fail too.
  ringkernel::detail::msgpack_reader reader(in.data(), in.size());
  if (reader.skip_value<ringkernel::max_decode_depth>(ringkernel::max_decode_depth) != codec_status::ok) {
    auto unused = std::make_unique<T>();
    const bool refused = ringkernel::decode(in.data(), in.size(), *unused).status != codec_status::ok;
    return refused ? std::string() : "decode accepts a value the reader cannot skip";
  }
  msgpack_zone zone;
  msgpack_zone_init(&zone, 2048);
  std::size_t used = 0;
  msgpack_object object;
  const msgpack_unpack_return u =
      msgpack_unpack(reinterpret_cast<const char*>(in.data()), in.size(), &used, &zone, &object);
  auto decoded = std::make_unique<T>();
  auto unpacked = std::make_unique<T>();
  const ringkernel::codec_result d = ringkernel::decode(in.data(), in.size(), *decoded);
  std::string result;
  if (u == MSGPACK_UNPACK_SUCCESS || u == MSGPACK_UNPACK_EXTRA_BYTES) {
    const codec_status s = ringkernel::msgpack::unpack(object, *unpacked);
    if (s != d.status) {
      result = std::string("unpack ") + ringkernel::to_string(s) + ", decode " + ringkernel::to_string(d.status);
    } else if (s == codec_status::ok && (d.size != used || !values_equal(*decoded, *unpacked))) {
      result = "both ok, different values or sizes";
    }
  } else if (d.status == codec_status::ok) {
    result = "msgpack-c cannot unpack what decode accepts";
  }
  msgpack_zone_destroy(&zone);
  return result;
}

std::string disagreement_any(const bytes& in) {
  for (const std::string& d : {disagreement<Scalars>(in), disagreement<ScalarsMap>(in), disagreement<Arrays>(in),
                               disagreement<ArraysMap>(in), disagreement<Outer>(in), disagreement<Telemetry64>(in),
                               disagreement<Order128>(in), disagreement<Wide>(in)}) {
    if (!d.empty()) return d;
  }
  return {};
}

/// A float 32 NaN whose quiet bit is clear: msgpack-c's object keeps a float 32 as a double, and the
/// conversion sets the bit, so unpack sees another NaN than decode (docs/wire-format.md §8).
bool holds_signaling_float32_nan(const bytes& in) {
  for (std::size_t i = 0; i + 5 <= in.size(); ++i) {
    if (in[i] != 0xca) continue;
    const std::uint32_t bits = (std::uint32_t{in[i + 1]} << 24) | (std::uint32_t{in[i + 2]} << 16) |
                               (std::uint32_t{in[i + 3]} << 8) | in[i + 4];
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0 && (bits & 0x00400000u) == 0) return true;
  }
  return false;
}

TEST(InteropDifferential, UnpackAgreesWithDecodeOnTheCorporaAndTheirMutations) {
  std::vector<bytes> seeds;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(CODEC_CORPUS_DIR)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream file(entry.path(), std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(seeds.size(), 40u);
  std::mt19937 rng(2026);
  std::size_t compared = 0;
  for (const bytes& seed : seeds) {
    for (int round = 0; round <= 150; ++round) {
      bytes in = seed;
      if (round > 0 && !in.empty()) {
        const int flips = 1 + static_cast<int>(rng() % 3);
        for (int f = 0; f < flips; ++f) in[rng() % in.size()] = static_cast<std::uint8_t>(rng());
        if (rng() % 4 == 0) in.resize(rng() % (in.size() + 1));
      }
      if (holds_signaling_float32_nan(in)) continue;
      ++compared;
      const std::string d = disagreement_any(in);
      ASSERT_TRUE(d.empty()) << d << " on " << hex(in);
    }
  }
  EXPECT_GT(compared, 5000u);
}

/// A chain of `depth` one-element arrays around the int 1, as msgpack-c objects.
struct deep_object {
  explicit deep_object(std::size_t depth) : nodes(depth + 1) {
    nodes[depth].type = MSGPACK_OBJECT_POSITIVE_INTEGER;
    nodes[depth].via.u64 = 1;
    for (std::size_t i = 0; i < depth; ++i) {
      nodes[i].type = MSGPACK_OBJECT_ARRAY;
      nodes[i].via.array.size = 1;
      nodes[i].via.array.ptr = &nodes[i + 1];
    }
  }
  std::vector<msgpack_object> nodes;
};

/// Point [x, y] with `deep` as x (which = 0) or as a third, skipped element (which = 2).
codec_status unpack_point_holding(const msgpack_object& deep, int which) {
  msgpack_object elements[3];
  elements[0].type = MSGPACK_OBJECT_POSITIVE_INTEGER;
  elements[0].via.u64 = 1;
  elements[1].type = MSGPACK_OBJECT_FLOAT32;
  elements[1].via.f64 = 0.5;
  elements[which] = deep;
  msgpack_object top;
  top.type = MSGPACK_OBJECT_ARRAY;
  top.via.array.size = which == 2 ? 3 : 2;
  top.via.array.ptr = elements;
  Point p{};
  return ringkernel::msgpack::unpack(top, p);
}

// msgpack_pack_object recursed once per level: unpack of an object nested 10^6 deep crashed.
TEST(InteropDifferential, ObjectsNestedBeyondTheLimitGetTheDecodersStatus) {
  const deep_object very_deep(1'000'000);
  EXPECT_EQ(unpack_point_holding(very_deep.nodes[0], 2), codec_status::nesting_too_deep);
  EXPECT_EQ(unpack_point_holding(very_deep.nodes[0], 0), codec_status::type_mismatch);
  // Around the limit, the answer is decode's on the object's bytes (msgpack-c packs these depths).
  for (std::size_t depth = ringkernel::max_decode_depth - 3; depth <= ringkernel::max_decode_depth + 3; ++depth) {
    const deep_object deep(depth);
    msgpack_object elements[3];
    elements[0].type = MSGPACK_OBJECT_POSITIVE_INTEGER;
    elements[0].via.u64 = 1;
    elements[1].type = MSGPACK_OBJECT_FLOAT32;
    elements[1].via.f64 = 0.5;
    elements[2] = deep.nodes[0];
    msgpack_object top;
    top.type = MSGPACK_OBJECT_ARRAY;
    top.via.array.size = 3;
    top.via.array.ptr = elements;
    msgpack_c_stream stream;
    ASSERT_EQ(msgpack_pack_object(stream.pk(), top), 0);
    const bytes wire = stream.data();
    Point p{};
    EXPECT_EQ(unpack_point_holding(deep.nodes[0], 2), ringkernel::decode(wire.data(), wire.size(), p).status)
        << "depth " << depth;
  }
}

// A type tag that is no msgpack_object_type (memory corruption, an uninitialised object): msgpack-c's
// packer refuses it with -1, which unpack took for a failed allocation (buffer_too_small).
TEST(InteropDifferential, ObjectsOfNoMsgpackTypeAreInvalidInput) {
  msgpack_object bad{};
  // 0x0b: no enumerator, but inside the enumeration's range of values (0..15, its enumerators
  // reach 0x0a), so holding it is not itself undefined behaviour (UBSan checks the range).
  bad.type = static_cast<msgpack_object_type>(0x0b);
  EXPECT_EQ(unpack_point_holding(bad, 0), codec_status::invalid_input) << "as a field";
  EXPECT_EQ(unpack_point_holding(bad, 2), codec_status::invalid_input) << "as an extra, skipped element";
  deep_object nested(3);  // [[[bad]]] as an extra element
  nested.nodes[3] = bad;
  EXPECT_EQ(unpack_point_holding(nested.nodes[0], 2), codec_status::invalid_input) << "nested";
  Point p{};
  EXPECT_EQ(ringkernel::msgpack::unpack(bad, p), codec_status::invalid_input) << "as the message";
}

// A tag outside the enumeration's range of values (corrupted memory): unpack reads it as the integer
// stored (it loaded it as msgpack_object_type, undefined behaviour that UBSan reported).
TEST(InteropDifferential, ObjectsWithATypeTagOutsideTheEnumerationAreInvalidInput) {
  for (const std::underlying_type_t<msgpack_object_type> tag : {99u, 0x10u, 0xffffffffu}) {
    msgpack_object bad{};
    std::memcpy(&bad.type, &tag, sizeof tag);
    EXPECT_EQ(unpack_point_holding(bad, 0), codec_status::invalid_input) << "as a field, tag " << tag;
    EXPECT_EQ(unpack_point_holding(bad, 2), codec_status::invalid_input) << "as an extra element, tag " << tag;
    Point p{};
    EXPECT_EQ(ringkernel::msgpack::unpack(bad, p), codec_status::invalid_input) << "as the message, tag " << tag;
  }
}

}  // namespace
}  // namespace codec_test
