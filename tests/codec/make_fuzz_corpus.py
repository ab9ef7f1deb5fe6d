#!/usr/bin/python3
# Copyright RingKernel authors.
"""Regenerates the checked-in libFuzzer seed corpus (tests/codec/corpus/<set>/) from the Python
msgpack fixtures of python_fixtures.py, each once more in wide forms (every int in a 64-bit form,
every float as float 64, every length in a 16-bit form), plus a few crafted edge inputs per set
(truncations, extra elements, maps with an unknown key or their keys reversed, an unknown key's ext
value whole and cut in its length or payload, deep nesting, the never-used byte, a float 32
infinity for a double).
Usage: make_fuzz_corpus.py  (run from anywhere; /usr/bin/python3, which has msgpack).
       make_fuzz_corpus.py --check: writes nothing; exit status 1, naming each file, where the corpus
       is not what this script writes, byte for byte (CTest codec.fuzz_corpus_current)."""

import os
import struct
import sys

import msgpack

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import python_fixtures as fx  # noqa: E402

SETS = {
    "scalars": {"Scalars", "ScalarsMap"},
    "arrays": {"Arrays", "ArraysMap", "Outer"},
    "representative": {"Telemetry64", "Order128", "Wide"},
    "many_fields": {"ManyFields", "ManyFieldsMap", "ManyHolder", "Fields32Map"},
}


def seeds_for(types):
    ext_seeded = False
    for name, type_name, value, kwargs in fx.CASES + fx.MANY_FIELDS_CASES:
        if type_name not in types:
            continue
        packed = msgpack.packb(fx.to_wire(value), use_bin_type=True, **kwargs)
        yield name, packed
        yield name + "_truncated", packed[: len(packed) // 2]
        wire = fx.to_wire(value)
        yield name + "_wide_forms", wide_forms(wire)
        if isinstance(wire, list):
            yield name + "_extra", msgpack.packb(wire + [[1, {"k": None}], b"\x00"], use_bin_type=True, **kwargs)
        else:
            yield name + "_unknown_key", msgpack.packb({**wire, "zz": [[[]]]}, use_bin_type=True, **kwargs)
            # Keys last to first: for messages decoded in chunks, every run of keys changes chunk.
            yield name + "_reversed", msgpack.packb(dict(reversed(list(wire.items()))), use_bin_type=True, **kwargs)
            if not ext_seeded:
                ext_seeded = True
                yield from skipped_ext_seeds(name, wire, kwargs)
    if "Scalars" in types:
        yield from wide_int_seeds()
        # Scalars with a skipped extra element whose innermost empty array is one level beyond
        # max_decode_depth (32): decode accepted it until empty containers counted as a level (found
        # by codec_fuzz_scalars against the reference decoder).
        yield "scalars_empty_array_one_level_too_deep", b"\xdc\x00\x11\xc2" + b"\x00" * 15 + b"\x91" * 31 + b"\x90"
        # Scalars with its f64 field as float 32 -inf (every other field 0): widening an infinity
        # (float_conversion.h), which neither the fixtures nor a 60 s fuzz run reached.
        fields = [b"\xca\xff\x80\x00\x00" if kind == "f64" else b"\xc2" if kind == "bool" else b"\x00"
                  for kind, _ in SCALARS_FIELDS]
        yield "scalars_f64_as_float32_minus_inf", b"\xdc\x00\x10" + b"".join(fields)
    yield "deep_nesting", b"\x91" * 40 + b"\x00"
    yield "never_used_byte", b"\x92\xc1\xc1"


def wide_forms(value):
    """`value` packed with every int in a 64-bit form, every float as float 64 and every str, bin,
    array and map length in its 16-bit form: none in its smallest form (§4), which decode accepts.
    Each field decodes every form in its own code (the many-field chunks most of all), which a 60 s
    smoke run from the smallest forms alone reaches only in part (a value-profile run found them)."""
    if isinstance(value, bool) or value is None:
        return msgpack.packb(value)
    if isinstance(value, int):
        if value >= 1 << 63:
            return b"\xcf" + value.to_bytes(8, "big")
        return b"\xd3" + value.to_bytes(8, "big", signed=True)
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, (str, bytes)):
        data = value.encode() if isinstance(value, str) else value
        return (b"\xda" if isinstance(value, str) else b"\xc5") + len(data).to_bytes(2, "big") + data
    if isinstance(value, list):
        return b"\xdc" + len(value).to_bytes(2, "big") + b"".join(wide_forms(v) for v in value)
    if isinstance(value, dict):
        items = b"".join(wide_forms(k) + wide_forms(v) for k, v in value.items())
        return b"\xde" + len(value).to_bytes(2, "big") + items
    raise TypeError(value)


# Each ext form: its header's size (tag, length bytes, type byte), where a cut in its length bytes
# ends (ext 8: the tag alone; ext 16: one of two; ext 32: three of four; fixext has none) and its
# bytes, the payload 0xc1 (never used: a skip that read the payload as MessagePack would fail).
EXT_FORMS = [
    ("fixext8", 2, None, b"\xd7\x01" + b"\xc1" * 8),
    ("ext8", 3, 1, b"\xc7\x03\x01" + b"\xc1" * 3),
    ("ext16", 4, 2, b"\xc8\x00\x03\x01" + b"\xc1" * 3),
    ("ext32", 6, 4, b"\xc9\x00\x00\x00\x03\x01" + b"\xc1" * 3),
]


def skipped_ext_seeds(name, wire, kwargs):
    """The map message `wire` with an unknown first key "zz" whose value is an ext: whole, the known
    entries after it; and cut where the input ends, in the ext's length bytes (ext 8/16/32: the tag
    alone, one of two, three of four) and in its payload (test_skipped_ext_bounds.cpp)."""
    entries = len(wire) + 1
    header = bytes([0x80 | entries]) if entries < 16 else b"\xde" + entries.to_bytes(2, "big")
    known = msgpack.packb(wire, use_bin_type=True, **kwargs)
    known = known[1:] if len(wire) < 16 else known[3:]  # the entries without their map header
    head = header + msgpack.packb("zz")
    for form, header_size, length_cut, ext in EXT_FORMS:
        yield name + "_unknown_key_" + form, head + ext + known
        if length_cut is not None:
            yield name + "_unknown_key_" + form + "_cut_in_length", head + ext[:length_cut]
        yield name + "_unknown_key_" + form + "_cut_in_payload", head + ext[: header_size + 1]


# Scalars' fields in order: (kind, bits) of each; "f32"/"f64" and "bool" are not ints.
SCALARS_FIELDS = [("bool", 0), ("int", 8), ("int", 8), ("int", 16), ("int", 32), ("int", 64), ("uint", 8),
                  ("uint", 16), ("uint", 32), ("uint", 64), ("f32", 0), ("f64", 0), ("uint", 8), ("int", 64),
                  ("int", 32), ("uint", 8)]


def wide_int_seeds():
    """Scalars / ScalarsMap with every int field at its type's maximum or minimum in the 64-bit
    forms (int 64, or uint 64 where int 64 cannot hold it): one mutated byte away from the values just
    outside the type, which only the reference decoder's range check (fuzz_codec.cpp) catches."""
    names = ["flag", "letter", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "color",
             "offset", "level", "raw"]
    for edge in ("max", "min"):
        values = []
        for kind, bits in SCALARS_FIELDS:
            if kind == "bool":
                values.append(b"\xc3")
            elif kind == "f32":
                values.append(b"\xca\x3f\x80\x00\x00")
            elif kind == "f64":
                values.append(b"\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00")
            elif kind == "int":
                v = (1 << (bits - 1)) - 1 if edge == "max" else -(1 << (bits - 1))
                values.append(b"\xd3" + v.to_bytes(8, "big", signed=True))
            else:
                v = (1 << bits) - 1 if edge == "max" else 0
                values.append((b"\xcf" if bits == 64 else b"\xd3") + v.to_bytes(8, "big"))
        yield "scalars_int64_forms_" + edge, b"\xdc\x00\x10" + b"".join(values)
        keyed = b"".join(bytes([0xa0 | len(n)]) + n.encode() + v for n, v in zip(names, values))
        yield "scalars_map_int64_forms_" + edge, b"\xde\x00\x10" + keyed


def check():
    problems = []
    for set_name, types in SETS.items():
        directory = os.path.join(HERE, "corpus", set_name)
        expected = {name + ".msgpack": data for name, data in seeds_for(types)}
        present = set(os.listdir(directory)) if os.path.isdir(directory) else set()
        for file_name in sorted(present - expected.keys()):
            problems.append(set_name + "/" + file_name + ": not a seed this script writes")
        for file_name, data in sorted(expected.items()):
            if file_name not in present:
                problems.append(set_name + "/" + file_name + ": missing")
            else:
                with open(os.path.join(directory, file_name), "rb") as f:
                    if f.read() != data:
                        problems.append(set_name + "/" + file_name + ": differs")
    for problem in problems:
        print("tests/codec/corpus/" + problem, file=sys.stderr)
    if problems:
        print("run tests/codec/make_fuzz_corpus.py and commit tests/codec/corpus/", file=sys.stderr)
    return 1 if problems else 0


def main():
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    for set_name, types in SETS.items():
        directory = os.path.join(HERE, "corpus", set_name)
        os.makedirs(directory, exist_ok=True)
        for old in os.listdir(directory):
            os.remove(os.path.join(directory, old))
        for name, data in seeds_for(types):
            with open(os.path.join(directory, name + ".msgpack"), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
