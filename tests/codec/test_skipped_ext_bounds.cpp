// Copyright RingKernel authors.
// A skipped value (the value of an unknown map key, an extra array element, or a value inside
// those) that is an ext cut short: the input ends inside the ext header's length bytes, at its type
// byte, or inside its payload, for fixext 1-16, ext 8, ext 16 and ext 32. docs/wire-format.md §5
// ("Limits and hostile input") promises truncated_input with `size` at the start of that value (the
// ext's tag) and no read outside [in, in + size). Each input ends at a page boundary followed by an
// inaccessible page, so a read past it faults in every build, not only under AddressSanitizer.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "codec_test_support.h"
#include "reference/wire_forms.h"

namespace codec_test {
namespace {

using ringkernel::codec_status;

using codec_variants::cat;
using codec_variants::str;

/// A readable page and an inaccessible one after it: `place` copies an input so that it ends
/// where the readable page does.
class guarded_input {
 public:
  guarded_input() {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* block = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return;
    base_ = static_cast<std::uint8_t*>(block);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) {
      munmap(base_, 2 * page_);
      base_ = nullptr;
    }
  }
  ~guarded_input() {
    if (base_ != nullptr) munmap(base_, 2 * page_);
  }
  guarded_input(const guarded_input&) = delete;
  guarded_input& operator=(const guarded_input&) = delete;

  bool ready() const { return base_ != nullptr; }
  std::size_t capacity() const { return page_; }

  /// Where `wire[0..n)` now lies, its last byte the readable page's last one.
  const std::uint8_t* place(const bytes& wire, std::size_t n) {
    std::uint8_t* at = base_ + page_ - n;
    if (n != 0) std::memcpy(at, wire.data(), n);
    return at;
  }

 private:
  std::size_t page_ = 0;
  std::uint8_t* base_ = nullptr;
};

// Every ext form; `complete`: the bytes given hold all of it. The payload bytes are 0xc1 (never
// used), so that a skip that read the payload as MessagePack would fail with invalid_input instead.
// The ext 16 and ext 32 lengths are big-endian.
struct ext_form {
  bytes wire;
  bool complete;
};

const ext_form ext_forms[] = {
    {{0xd4, 0x01, 0xc1}, true},                                            // fixext 1
    {{0xd5, 0x01, 0xc1, 0xc1}, true},                                      // fixext 2
    {{0xd6, 0x01, 0xc1, 0xc1, 0xc1, 0xc1}, true},                          // fixext 4
    {{0xd7, 0x01, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1}, true},  // fixext 8
    {cat({{0xd8, 0x01}, bytes(16, 0xc1)}), true},                          // fixext 16
    {{0xc7, 0x03, 0x01, 0xc1, 0xc1, 0xc1}, true},                          // ext 8 of 3
    {{0xc8, 0x00, 0x02, 0x01, 0xc1, 0xc1}, true},                          // ext 16 of 2
    {{0xc9, 0x00, 0x00, 0x00, 0x02, 0x01, 0xc1, 0xc1}, true},              // ext 32 of 2
    {{0xc8, 0x01, 0x02, 0x01, 0xc1, 0xc1}, false},                         // ext 16 of 258
    {{0xc8, 0xff, 0xff, 0x01, 0xc1}, false},                               // ext 16 of 65535
    {{0xc9, 0x00, 0x01, 0x00, 0x02, 0x01, 0xc1, 0xc1}, false},             // ext 32 of 65538
    {{0xc9, 0xff, 0xff, 0xff, 0xff, 0x01, 0xc1}, false},                   // ext 32 of 2^32 - 1
};

// Where the skipped ext sits: the bytes before it, the message type that skips it, and the fewest
// of the ext's bytes the cuts keep (where fewer fail earlier, by another rule).
struct skip_site {
  const char* what;
  bytes head;
  codec_status (*decode)(const std::uint8_t* in, std::size_t size, std::size_t& at, bool& untouched);
  std::size_t fewest = 1;
};

template <class T>
codec_status decode_at(const std::uint8_t* in, std::size_t size, std::size_t& at, bool& untouched) {
  T m;
  std::memset(static_cast<void*>(&m), 0x5a, sizeof m);
  const ringkernel::codec_result r = ringkernel::decode(in, size, m);
  T sentinel;
  std::memset(static_cast<void*>(&sentinel), 0x5a, sizeof sentinel);
  untouched = std::memcmp(&m, &sentinel, sizeof m) == 0;
  at = r.size;
  return r.status;
}

std::vector<skip_site> skip_sites() {
  return {
      // Tag (map): the value of the unknown key "new", then of "new" inside a skipped array.
      {"value of an unknown map key", cat({{0x83}, str("new")}), decode_at<Tag>},
      {"element of the array value of an unknown map key", cat({{0x83}, str("new"), {0x92, 0x07}}), decode_at<Tag>},
      // With the tag alone, one byte is left for the map's key and value: truncated_input at the
      // map's header (a count beyond the remaining bytes, docs/wire-format.md §5), so the cuts keep
      // two bytes of the ext.
      {"key of a map inside an unknown key's value", cat({{0x83}, str("new"), {0x81}}), decode_at<Tag>, 2},
      {"value of a key in a map inside an unknown key's value",
       cat({{0x83}, str("new"), {0x81}, str("k")}), decode_at<Tag>},
      // Outer (map) holding Tag maps: the unknown key is in the nested Tag tags[0].
      {"value of an unknown key of a nested map message",
       cat({{0x83}, str("origin"), {0x92, 0x01, 0x02}, str("tags"), {0x92, 0x83}, str("id"), {0x07}, str("new")}),
       decode_at<Outer>},
      // Point (array): an extra trailing element.
      {"extra element of an array message", {0x93, 0x01, 0xca, 0x3f, 0x00, 0x00, 0x00}, decode_at<Point>},
  };
}

TEST(DecodeRejects, SkippedExtCutInItsHeaderOrPayloadIsTruncatedAtItsTag) {
  guarded_input guard;
  ASSERT_TRUE(guard.ready()) << "mmap/mprotect of a guard page failed";
  for (const skip_site& site : skip_sites()) {
    SCOPED_TRACE(site.what);
    for (const ext_form& ext : ext_forms) {
      const bytes wire = cat({site.head, ext.wire});
      ASSERT_LE(wire.size(), guard.capacity());
      // From the tag alone on: the cut is in the length bytes (ext 8/16/32), at the type byte or in
      // the payload; all the bytes given, where they do not hold the whole ext.
      const std::size_t last = ext.complete ? wire.size() - 1 : wire.size();
      for (std::size_t n = site.head.size() + site.fewest; n <= last; ++n) {
        std::size_t at = 0;
        bool untouched = false;
        const codec_status status = site.decode(guard.place(wire, n), n, at, untouched);
        EXPECT_EQ(status, codec_status::truncated_input)
            << ringkernel::to_string(status) << ": " << n << " of " << hex(wire);
        EXPECT_EQ(at, site.head.size()) << "not at the ext's tag: " << n << " of " << hex(wire);
        EXPECT_TRUE(untouched) << "decode wrote the message on failure: " << n << " of " << hex(wire);
      }
    }
  }
}

// A complete ext that ends where the input does is skipped whole, in bounds and without a look at
// its payload: as the extra element of a Point, the decode succeeds.
TEST(DecodeAccepts, SkippedCompleteExtEndingAtTheInputEnd) {
  guarded_input guard;
  ASSERT_TRUE(guard.ready()) << "mmap/mprotect of a guard page failed";
  const bytes point = {0x93, 0x01, 0xca, 0x3f, 0x00, 0x00, 0x00};  // Point {1, 0.5f} and one extra element
  for (const ext_form& ext : ext_forms) {
    if (!ext.complete) continue;
    const bytes wire = cat({point, ext.wire});
    std::size_t at = 0;
    bool untouched = false;
    EXPECT_EQ(decode_at<Point>(guard.place(wire, wire.size()), wire.size(), at, untouched), codec_status::ok)
        << hex(wire);
    EXPECT_EQ(at, wire.size()) << hex(wire);
  }
}

}  // namespace
}  // namespace codec_test
