#pragma once
#include <cstdint>
struct [[ringkernel::message]] Ping { std::uint32_t seq; };
