// Copyright RingKernel authors.
#include "ringkernel/error.h"

#include <utility>

namespace ringkernel {

const char* to_string(errc code) noexcept {
  switch (code) {
    case errc::invalid_device: return "invalid device";
    case errc::invalid_argument: return "invalid argument";
    case errc::out_of_range: return "out of range";
    case errc::overlapping_ranges: return "overlapping ranges";
    case errc::unsupported: return "unsupported";
    case errc::peer_access_unsupported: return "peer access unsupported";
    case errc::invalid_state: return "invalid state";
    case errc::out_of_memory: return "out of memory";
    case errc::backend_failure: return "backend failure";
    case errc::configuration: return "bad configuration";
  }
  return "unknown error";
}

namespace {
std::string compose(errc code, const std::string& call, int device, const std::string& detail) {
  std::string s = "ringkernel: " + call;
  if (device != no_device) s += " (device " + std::to_string(device) + ")";
  s += ": ";
  s += to_string(code);
  s += ": ";
  s += detail;
  return s;
}
}  // namespace

Error::Error(errc code, std::string call, int device, std::string detail)
    : std::runtime_error(compose(code, call, device, detail)),
      code_(code),
      call_(std::move(call)),
      device_(device),
      detail_(std::move(detail)) {}

Error::~Error() = default;

}  // namespace ringkernel
