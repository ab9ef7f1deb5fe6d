// Layout corpus: one- and multi-dimensional arrays.
#pragma once
#include <cstdint>

namespace corpus::arrays {

struct [[ringkernel::message]] Vector3 { float v[3]; };
struct [[ringkernel::message]] Matrix4 { double m[4][4]; };
struct [[ringkernel::message]] Cube { std::uint8_t voxels[2][3][5]; std::uint16_t tail; };
struct [[ringkernel::message]] Ragged { std::int16_t a[1]; std::int64_t b[2][1]; bool c[3][2][1]; };
struct [[ringkernel::message]] Names { char names[4][8]; };

}  // namespace corpus::arrays
