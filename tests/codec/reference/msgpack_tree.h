// Copyright RingKernel authors.
// Test-only: the first MessagePack object of a byte range as a plain tree, parsed by msgpack-cxx
// (msgpack::parse with a visitor), independently of RingKernel's own reader. The tree keeps what
// the reference decoder needs and msgpack::object would lose: float 32 values as their 32 raw bits
// (msgpack::object widens them to double, which quiets a signalling NaN). Nothing is allocated for
// a count the input only claims: an element exists once msgpack-cxx has parsed it, so a hostile
// array 32 header (dd ff ff ff ff) costs nothing, and the depth is capped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include <msgpack.hpp>  // msgpack::parse, msgpack::null_visitor (the sub-headers are not self-contained)

namespace codec_reference {

enum class node_kind : std::uint8_t { nil, boolean, positive, negative, float32, float64, str, bin, ext, array, map };

struct node {
  node_kind kind = node_kind::nil;
  bool boolean = false;
  std::uint64_t positive = 0;  // positive: an int (any form) >= 0
  std::int64_t negative = 0;   // negative: an int < 0
  std::uint64_t bits = 0;      // float32: the 32 bits as sent; float64: the 64 bits
  std::string_view payload;    // str, bin, ext: the bytes in the input (which outlives the tree)
  std::vector<node> items;     // array: elements; map: key, value, key, value, ...
};

enum class parse_state : std::uint8_t {
  complete,   // the first object is all there; `size` is its length
  truncated,  // the input ends inside it
  invalid,    // msgpack-cxx rejects a byte in it (0xc1)
  too_deep,   // it nests deeper than the cap given to parse_first_object
};

struct parsed_object {
  parse_state state = parse_state::complete;
  std::size_t size = 0;
  node root;
};

namespace detail {

class tree_builder : public msgpack::null_visitor {
 public:
  tree_builder(parsed_object& out, std::uint32_t depth_cap) : out_(out), depth_cap_(depth_cap) {}

  bool visit_nil() { return attach(node{}); }
  bool visit_boolean(bool v) {
    node n;
    n.kind = node_kind::boolean;
    n.boolean = v;
    return attach(std::move(n));
  }
  bool visit_positive_integer(std::uint64_t v) {
    node n;
    n.kind = node_kind::positive;
    n.positive = v;
    return attach(std::move(n));
  }
  bool visit_negative_integer(std::int64_t v) {  // msgpack-cxx calls it for every int 8…64 form
    if (v >= 0) return visit_positive_integer(static_cast<std::uint64_t>(v));
    node n;
    n.kind = node_kind::negative;
    n.negative = v;
    return attach(std::move(n));
  }
  bool visit_float32(float v) {  // passed in a register, not converted: the bits are the input's
    std::uint32_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    node n;
    n.kind = node_kind::float32;
    n.bits = b;
    return attach(std::move(n));
  }
  bool visit_float64(double v) {
    node n;
    n.kind = node_kind::float64;
    std::memcpy(&n.bits, &v, sizeof v);
    return attach(std::move(n));
  }
  bool visit_str(const char* v, std::uint32_t size) { return attach_bytes(node_kind::str, v, size); }
  bool visit_bin(const char* v, std::uint32_t size) { return attach_bytes(node_kind::bin, v, size); }
  bool visit_ext(const char* v, std::uint32_t size) { return attach_bytes(node_kind::ext, v, size); }
  bool start_array(std::uint32_t /*count*/) { return open(node_kind::array); }
  bool end_array() { return close(); }
  bool start_map(std::uint32_t /*count*/) { return open(node_kind::map); }
  bool end_map() { return close(); }
  void parse_error(std::size_t /*parsed*/, std::size_t /*error*/) { out_.state = parse_state::invalid; }
  void insufficient_bytes(std::size_t /*parsed*/, std::size_t /*error*/) { out_.state = parse_state::truncated; }

 private:
  node* attach_node(node&& n) {
    if (open_.empty()) {
      out_.root = std::move(n);
      return &out_.root;
    }
    // Only the innermost open container grows, so the pointers to its ancestors stay valid.
    open_.back()->items.push_back(std::move(n));
    return &open_.back()->items.back();
  }
  bool attach(node&& n) {
    attach_node(std::move(n));
    return true;
  }
  bool attach_bytes(node_kind kind, const char* v, std::uint32_t size) {
    node n;
    n.kind = kind;
    n.payload = std::string_view(v, size);
    return attach(std::move(n));
  }
  bool open(node_kind kind) {
    if (open_.size() + 1 > depth_cap_) {
      out_.state = parse_state::too_deep;
      return false;  // stops msgpack::parse
    }
    node n;
    n.kind = kind;
    open_.push_back(attach_node(std::move(n)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  parsed_object& out_;
  std::uint32_t depth_cap_;
  std::vector<node*> open_;
};

}  // namespace detail

/// Parses the first MessagePack object of [data, data + size); bytes after it are not looked at.
/// Containers may nest `depth_cap` levels (the outermost container is level 1).
inline parsed_object parse_first_object(const std::uint8_t* data, std::size_t size, std::uint32_t depth_cap) {
  parsed_object out;
  out.state = parse_state::complete;  // until a callback says otherwise
  detail::tree_builder builder(out, depth_cap);
  std::size_t offset = 0;
  if (msgpack::parse(reinterpret_cast<const char*>(data), size, offset, builder)) {
    out.state = parse_state::complete;
    out.size = offset;
  } else if (out.state == parse_state::complete) {
    out.state = parse_state::invalid;  // stopped without saying why: treat as not well-formed
  }
  return out;
}

}  // namespace codec_reference
