// Copyright RingKernel authors.
// <stop_token> for the blocking calls of the queues (send, receive, ... take a std::stop_token),
// with an error that says what to do where the standard library does not provide it: libc++
// before 20 ships it only under -fexperimental-library (its feature macro __cpp_lib_jthread then
// stays undefined, and the queues' declarations would fail with "no type named 'stop_token'").
#pragma once

#include <version>

#if !defined(__cpp_lib_jthread)
#if defined(_LIBCPP_VERSION)
#error "ringkernel: the queues need std::stop_token, which libc++ before 20 provides only with -fexperimental-library: add it to your compile and link flags (or build with libc++ 20 or later, or libstdc++)"
#else
#error "ringkernel: the queues need std::stop_token (<stop_token>, C++20), which this standard library does not provide"
#endif
// Compilers go on after #error; this missing header stops them (as in the generated headers).
#include "ringkernel: stopped, see the error above"
#endif

#include <stop_token>
