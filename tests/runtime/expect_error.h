// Copyright RingKernel authors.
// Test helper: EXPECT_RK_ERROR(statement, code, fragment) - the statement throws a
// ringkernel::Error with that code whose what() contains the fragment.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "ringkernel/error.h"

#define EXPECT_RK_ERROR(statement, expected_code, fragment)                                  \
  do {                                                                                        \
    try {                                                                                     \
      statement;                                                                              \
      ADD_FAILURE() << "no ringkernel::Error from " #statement;                              \
    } catch (const ::ringkernel::Error& e) {                                                  \
      EXPECT_EQ(e.code(), expected_code) << e.what();                                         \
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)                      \
          << "message \"" << e.what() << "\" lacks \"" << (fragment) << "\"";                \
    }                                                                                         \
  } while (false)
