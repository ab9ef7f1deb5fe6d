// Copyright RingKernel authors.
// The fuzz targets' check of ringkernel/decode_diagnostic.h: a description (detail::diagnose_decode
// or detail::diagnose_dispatch of the input) agrees with the decoder's own result for the same bytes:
// the same status and offset; no text on success; otherwise a text that attributes them to a value
// (the walk stopped where the decoder did), names them as ": <status> at byte <offset>", and stays
// bounded. Aborts (a libFuzzer finding) otherwise, printing what `decoder` returned and the text.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "ringkernel/codec.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/status.h"

namespace ringkernel_test {

inline void check_decode_report(const ringkernel::detail::decode_failure_report& report, const ringkernel::codec_result& r,
                                const char* decoder) {
  if (report.decoded.status != r.status || report.decoded.size != r.size) {
    std::fprintf(stderr, "description: %s at %zu, %s: %s at %zu\n", ringkernel::to_string(report.decoded.status),
                 report.decoded.size, decoder, ringkernel::to_string(r.status), r.size);
    std::abort();
  }
  if (r.status == ringkernel::codec_status::ok) {
    if (!report.text.empty()) std::abort();
    return;
  }
  const std::string verdict = std::string(": ") + ringkernel::to_string(r.status) + " at byte " + std::to_string(r.size);
  if (!report.attributed || report.text.find(verdict) == std::string::npos || report.text.size() > 8192) {
    std::fprintf(stderr, "description '%s' for %s's %s at %zu\n", report.text.c_str(), decoder,
                 ringkernel::to_string(r.status), r.size);
    std::abort();
  }
}

}  // namespace ringkernel_test
