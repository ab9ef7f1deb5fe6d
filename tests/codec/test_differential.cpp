// Copyright RingKernel authors.
// Differential test of ringkernel::decode against the reference decoder (reference/): structured
// valid and invalid encodings of every test message (reference/encoding_variants.h) and every
// prefix of a plain encoding must give the same result from both (reference/differential.h). The
// same oracle runs inside the fuzz targets (clang builds); this test runs in every build.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_test_support.h"
#include "reference/agreement.h"
#include "reference/encoding_variants.h"

namespace codec_test {
namespace {

using agreement::check;
using agreement::expect_agreement;
using agreement::tally;

TEST(DecodeMatchesReference, Scalars) { expect_agreement<Scalars>(500, 500); }
TEST(DecodeMatchesReference, ScalarsMap) { expect_agreement<ScalarsMap>(500, 500); }
TEST(DecodeMatchesReference, Point) { expect_agreement<Point>(50, 50); }
TEST(DecodeMatchesReference, Tag) { expect_agreement<Tag>(50, 50); }
TEST(DecodeMatchesReference, Arrays) { expect_agreement<Arrays>(200, 200); }
TEST(DecodeMatchesReference, ArraysMap) { expect_agreement<ArraysMap>(200, 200); }
TEST(DecodeMatchesReference, Wide) { expect_agreement<Wide>(50, 50); }

/// Huge's lengths need 32-bit headers; its 65536 bools make every reference tree big, so it gets a
/// hand-picked set (the generic variants above cover every header form with small lengths).
TEST(DecodeMatchesReference, HugeAtAndAroundItsLengths) {
  using namespace codec_variants;
  const bytes text = str_forms(std::string(70000, 't')).back();  // str 32
  const bytes data = bin_forms(std::string(70000, '\x07')).back();
  bytes marks = container_headers(65536, false).back();
  marks.insert(marks.end(), 65536, 0xc3);
  bytes marks_nil_last = marks;
  marks_nil_last.back() = 0xc0;
  bytes marks_short = container_headers(65535, false).front();  // array 16
  marks_short.insert(marks_short.end(), 65535, 0xc2);
  bytes marks_long = container_headers(65537, false).back();
  marks_long.insert(marks_long.end(), 65537, 0xc2);
  std::string with_nul(70000, 'n');
  with_nul[35000] = '\0';
  const bytes header = array_header(3);
  const bytes whole = header + text + data + marks;
  const std::vector<bytes> wires = {
      whole,
      header + str_forms(std::string(65535, 's'))[1] + data + marks,  // str 16
      header + str_forms(std::string(70001, 't')).back() + data + marks,
      header + str_forms(with_nul).back() + data + marks,
      header + text + bin_forms(std::string(65535, 'b'))[0] + marks,  // bin 16
      header + text + bin_forms(std::string(69999, 'b')).back() + marks,
      header + text + bin_forms(std::string(70001, 'b')).back() + marks,
      header + text + data + marks_nil_last,
      header + text + data + marks_short,
      header + text + data + marks_long,
      array_header(4) + text + data + marks + text,  // an extra element
      bytes(whole.begin(), whole.end() - 1),
      bytes(whole.begin(), whole.begin() + 70010),
  };
  tally t;
  for (const bytes& wire : wires) check<Huge>(wire, t);
  EXPECT_TRUE(t.disagreements.empty()) << t.disagreements.size() << " disagreements, the first:\n"
                                       << (t.disagreements.empty() ? "" : t.disagreements[0].substr(0, 2000));
  EXPECT_EQ(t.accepted, 3u);  // whole, str 16 text, the extra element
}
TEST(DecodeMatchesReference, Outer) { expect_agreement<Outer>(100, 100); }
TEST(DecodeMatchesReference, Telemetry64) { expect_agreement<Telemetry64>(100, 100); }
TEST(DecodeMatchesReference, Order128) { expect_agreement<Order128>(100, 100); }

}  // namespace
}  // namespace codec_test
