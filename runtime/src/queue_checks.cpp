// Copyright RingKernel authors.
// The out-of-line halves of ringkernel/queue/queue_checks.h: the concurrent-use error of an
// SpscQueue side and the end of a process whose eviction handler threw.
#include "ringkernel/queue/queue_checks.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#if defined(__GLIBCXX__)
#include <cxxabi.h>  // abi::__forced_unwind: glibc's pthread_cancel unwinds with it
#endif

#include "ringkernel/error.h"

namespace ringkernel::detail {

void throw_spsc_side_in_use(const char* call, const char* side) {
  const std::string s(side);
  throw Error(errc::invalid_state, call, no_device,
              "two host threads used this SpscQueue's " + s + " side at once (another host thread is inside a " + s +
                  " call); an SpscQueue side takes one host thread at a time, and this call moved nothing. Use an "
                  "MpmcQueue for several " + s + " threads, or keep one " + s +
                  " thread (a side may pass to another thread between calls, e.g. after a join)");
}

void eviction_handler_threw(const char* call) noexcept {
  static constexpr const char* rule =
      "an eviction handler must not throw (docs/messaging.md §4: the evicted message is gone and the call "
      "cannot complete); aborting";
  try {
    throw;
#if defined(__GLIBCXX__)
  } catch (abi::__forced_unwind&) {
    // Not rethrown: the unwind would leave a noexcept function (std::terminate, with no word on why).
    std::fprintf(stderr,
                 "ringkernel: %s: the thread was cancelled (pthread_cancel) inside the eviction handler, and "
                 "a cancellation unwinds like an exception; %s\n",
                 call, rule);
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ringkernel: %s: the eviction handler threw: %s; %s\n", call, e.what(), rule);
  } catch (...) {
    std::fprintf(stderr, "ringkernel: %s: the eviction handler threw an exception that is not a std::exception; %s\n",
                 call, rule);
  }
  std::abort();
}

}  // namespace ringkernel::detail
