#!/usr/bin/python3
# Copyright RingKernel authors.
"""Writes a C++ header of MessagePack bytes produced by Python's msgpack (Debian python3-msgpack)
for the codec test messages, together with the values each encodes: set `codec` (default) for
messages/codec_messages.h, set `many_fields` for messages/many_fields.h. The test decodes the bytes
with ringkernel::decode and compares with the values, so this script is the single source of both.
Usage: python_fixtures.py <output.h> [codec|many_fields]"""

import math
import struct
import sys

import msgpack


class Msg:
    """A nested message value: `fmt` is its wire format ("array" or "map"), fields in order."""

    def __init__(self, fmt, fields):
        self.fmt = fmt
        self.fields = fields


def to_wire(value):
    if isinstance(value, Msg):
        if value.fmt == "map":
            return {name: to_wire(v) for name, v in value.fields.items()}
        return [to_wire(v) for v in value.fields.values()]
    if isinstance(value, list):
        return [to_wire(v) for v in value]
    return value


def cpp_literal(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value == -(2 ** 63):
            return "(-9223372036854775807LL - 1)"
        return f"{value}LL" if value < 0 else f"{value}ULL"
    if isinstance(value, float):
        if math.isnan(value):
            return "std::numeric_limits<double>::quiet_NaN()"
        if math.isinf(value):
            return ("-" if value < 0 else "") + "std::numeric_limits<double>::infinity()"
        return value.hex()
    raise TypeError(value)


def assignments(path, value, out):
    """C++ statements that give the member at `path` the expected value."""
    if isinstance(value, Msg):
        for name, v in value.fields.items():
            assignments(f"{path}.{name}", v, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            assignments(f"{path}[{i}]", v, out)
    elif isinstance(value, str):
        out.append(f'set_text({path}, "{value}");')
    elif isinstance(value, bytes):
        items = ", ".join(str(b) for b in value)
        out.append(f"{{ const unsigned char v[] = {{{items}}}; std::memcpy({path}, v, sizeof v); }}")
    else:
        out.append(f"{path} = static_cast<std::remove_reference_t<decltype({path})>>({cpp_literal(value)});")


def scalar_fields(float32_value, float64_value):
    return {
        "flag": True, "letter": 82, "i8": -128, "i16": -129, "i32": -(2 ** 31), "i64": -(2 ** 63),
        "u8": 255, "u16": 256, "u32": 65536, "u64": 2 ** 64 - 1, "f32": float32_value,
        "f64": float64_value, "color": 2, "offset": 2 ** 63 - 1, "level": -5, "raw": 128,
    }


def array_fields():
    return {
        "name": "from python", "blob": bytes(range(8)), "raw": b"\x00\xff\x10\x20",
        "grid": [[-1, 2, -3], [400, -50000, 2 ** 31 - 1]], "words": ["hello", ""],
        "blobs": [b"\x01\x02\x03", b"\xfd\xfe\xff"], "flags": [True, False, True],
        "values": [1e-300, -2.5], "colors": [255, 1],
        "points": [Msg("array", {"x": -33, "y": 0.75}), Msg("array", {"x": 65536, "y": -1.0})],
        "tag": Msg("map", {"id": 7, "label": "py"}),
    }


CASES = [
    # (case name, C++ type, message value, packb keyword arguments, extra wire transformation)
    ("scalars_float64", "Scalars", Msg("array", scalar_fields(0.1, -0.0)), {}),
    ("scalars_single_float", "Scalars", Msg("array", scalar_fields(0.5, 0.25)), {"use_single_float": True}),
    ("scalars_map", "ScalarsMap", Msg("map", scalar_fields(-1.5, float("inf"))), {}),
    ("scalars_nan", "Scalars", Msg("array", scalar_fields(float("-inf"), float("nan"))), {}),
    ("arrays", "Arrays", Msg("array", array_fields()), {}),
    ("arrays_map", "ArraysMap", Msg("map", array_fields()), {}),
    ("outer", "Outer", Msg("map", {
        "origin": Msg("array", {"x": 5, "y": 1.25}),
        "tags": [Msg("map", {"id": 1, "label": "a"}), Msg("map", {"id": 65535, "label": "full"})],
        "sequence": 2 ** 40}), {}),
    ("telemetry", "Telemetry64", Msg("array", {
        "sequence": 1, "timestamp_ns": -1, "sensor_id": 4294967295, "status": -2147483648,
        "value": 3.5, "min": -0.5, "max": 99.0, "flags": 65535, "channel": 200, "valid": False,
        "unit": "m/s"}), {}),
    ("order", "Order128", Msg("array", {
        "order_id": 2 ** 40 + 1, "account_id": 0, "price_ticks": -(2 ** 40), "quantity": 127,
        "limit_price": -1e-3, "instrument": 128, "venue": -33, "side": 255, "reduce_only": True,
        "tags": 300, "symbol": "XYZW.OQ", "legs": [0, -1, 65535, -2147483648],
        "client_ref": bytes(range(100, 148))}), {}),
    ("wide", "Wide", Msg("array", {
        "text": "w" * 300, "data": bytes(i % 256 for i in range(300)),
        "series": [(-1) ** i * i * 1000 for i in range(20)]}), {}),
]


def pair(left, right):
    """A Pair value (many_fields.h)."""
    return Msg("array", {"left": left, "right": right})


def many_fields(fmt):
    """ManyFields / ManyFieldsMap (35 fields: host chunks of 16, 16 and 3). The doubles are exact in
    float32, so that use_single_float writes the same values."""
    return Msg(fmt, {
        "u8": 200, "i8": -100, "u16": 40000, "i16": -300, "u32": 3000000000, "i32": -70000,
        "u64": 2 ** 64 - 2, "i64": -(2 ** 40), "f32": 0.1, "f64": -(2.0 ** -100), "flag": True, "letter": 82,
        "mode": 7, "raw": 128, "name": "six ch", "last_of_first": [-1, 2 ** 31 - 1],
        "first_of_second": b"\x00\x7f\xff", "pair": pair(-32768, 4294967295),
        "samples": [1.5, -0.0, 2.0 ** 100], "words": ["abcd", ""], "bits": [True, False, True, True, False],
        "big": -(2 ** 63), "ubig": 2 ** 64 - 1, "ratio": -0.25, "small": -1, "modes": [65535, 0],
        "port": 8080, "code": "hello world!", "delta": -33, "count": 256, "total": 0.375,
        "last_of_second": 90, "first_of_third": 2 ** 32, "pairs": [pair(1, 2), pair(-2, 0)], "tail": "end",
    })


def fields32_map():
    """Fields32Map: 32 fields, the widest message decoded in one function."""
    return Msg("map", {
        "id": 2 ** 53, "f64": 1 / 3, "i8": 127, "label": "nine char", "u16": 65535, "bits": [False, True, False],
        "i32": -(2 ** 31), "pair": pair(-1, 0), "u8": 0, "f32": float("-inf"), "i64": 2 ** 63 - 1, "mode": 0,
        "i16": 32767, "blob": b"\x01\x02\x03\x04\x05", "letter": -5, "u32": 65536, "grid": [[1, -2], [3, -4]],
        "flag": False, "samples": [0.5, -1e-300], "raw": 255, "words": ["abc", "d", ""], "modes": [7, 7, 0],
        "balance": -(2 ** 62), "pairs": [pair(5, 6), pair(-7, 8)], "limit": 2 ** 63, "ratio": 3.25,
        "offset": -129, "code": "RKv1", "count": 2 ** 31, "total": -2.0, "port": 443, "done": True,
    })


MANY_FIELDS_CASES = [
    ("many_fields_single_float", "ManyFields", many_fields("array"), {"use_single_float": True}),
    ("many_fields_map", "ManyFieldsMap", many_fields("map"), {}),
    ("many_holder", "ManyHolder", Msg("array", {
        "id": 9, "inner": many_fields("array"), "inner_maps": [many_fields("map"), many_fields("map")],
        "done": True}), {}),
    ("fields32_map", "Fields32Map", fields32_map(), {}),
]

# Per set: the cases, the case whose map is also written reordered with an unknown key, the macro
# that lists the cases, the headers that declare the messages.
SETS = {
    "codec": (CASES, 2, "CODEC_TEST_PYTHON_CASES", ["codec_test_support.h"]),
    "many_fields": (MANY_FIELDS_CASES, 1, "CODEC_TEST_PYTHON_MANY_FIELDS_CASES",
                    ["codec_test_support.h", "many_fields.rk.h"]),
}


def reordered_map_with_unknown_key(case):
    """A map message with keys in reverse order and a key this version does not know (skipped)."""
    name, type_name, value, kwargs = case
    wire = to_wire(value)
    reordered = dict(reversed(list(wire.items())))
    reordered["added_in_v2"] = [1, {"nested": None}, b"\x00"]
    return (name + "_reordered_unknown", type_name, value, msgpack.packb(reordered, use_bin_type=True, **kwargs))


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] not in SETS):
        sys.exit("usage: python_fixtures.py <output.h> [" + "|".join(SETS) + "]")
    cases, reordered, macro, includes = SETS[sys.argv[2] if len(sys.argv) == 3 else "codec"]
    entries = []
    for case in cases:
        name, type_name, value, kwargs = case
        entries.append((name, type_name, value, msgpack.packb(to_wire(value), use_bin_type=True, **kwargs)))
    entries.append(reordered_map_with_unknown_key(cases[reordered]))

    lines = [
        "// Generated by tests/codec/python_fixtures.py with Python msgpack " + ".".join(map(str, msgpack.version)) + ". Do not edit.",
        "#pragma once",
        "#include <cstdint>", "#include <cstring>", "#include <limits>", "#include <type_traits>", "#include <vector>",
        *[f'#include "{header}"' for header in includes],
        "namespace codec_test::python_fixtures {",
    ]
    for name, type_name, value, packed in entries:
        body = []
        assignments("m", value, body)
        lines.append(f"inline const std::vector<std::uint8_t> {name}_bytes = {{{', '.join(str(b) for b in packed)}}};")
        lines.append(f"inline {type_name} {name}_expected() {{")
        lines.append(f"  {type_name} m{{}};")
        lines.extend("  " + s for s in body)
        lines.append("  return m;")
        lines.append("}")
    lines.append(f"#define {macro}(X) " + " ".join(f"X({name}, {type_name})" for name, type_name, _, _ in entries))
    lines.append("}  // namespace codec_test::python_fixtures")
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
