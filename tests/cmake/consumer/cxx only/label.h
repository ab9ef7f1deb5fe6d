// Reached by gamma.h only through the consumer's $<$<COMPILE_LANGUAGE:CXX>:...> include directory
// (whose path has a space); CONSUMER_LABEL, a string, comes from a CXX-only definition as well.
#pragma once
#include <cstddef>

#ifndef CONSUMER_LABEL
#error "the generator must see the target's $<COMPILE_LANGUAGE:CXX> definitions"
#endif

namespace consumer {
inline constexpr std::size_t kLabelSize = sizeof(CONSUMER_LABEL);
}  // namespace consumer
