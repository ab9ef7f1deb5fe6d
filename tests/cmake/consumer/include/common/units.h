// Not annotated; included by alpha.h. Touching it must regenerate alpha's outputs only.
#pragma once
#include <cstdint>

namespace consumer {
enum class Unit : std::uint8_t { celsius = 1, kelvin = 2 };
}
