#!/usr/bin/python3
# Copyright RingKernel authors.
"""Regenerates the checked-in libFuzzer seed corpus (tests/codec/corpus/<set>/) from the Python
msgpack fixtures of python_fixtures.py, plus a few crafted edge inputs per set (truncations, extra
elements, deep nesting, the never-used byte). Usage: make_fuzz_corpus.py  (run from anywhere)."""

import os
import sys

import msgpack

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import python_fixtures as fx  # noqa: E402

SETS = {
    "scalars": {"Scalars", "ScalarsMap"},
    "arrays": {"Arrays", "ArraysMap", "Outer"},
    "representative": {"Telemetry64", "Order128", "Wide"},
}


def seeds_for(types):
    for name, type_name, value, kwargs in fx.CASES:
        if type_name not in types:
            continue
        packed = msgpack.packb(fx.to_wire(value), use_bin_type=True, **kwargs)
        yield name, packed
        yield name + "_truncated", packed[: len(packed) // 2]
        wire = fx.to_wire(value)
        if isinstance(wire, list):
            yield name + "_extra", msgpack.packb(wire + [[1, {"k": None}], b"\x00"], use_bin_type=True, **kwargs)
        else:
            yield name + "_unknown_key", msgpack.packb({**wire, "zz": [[[]]]}, use_bin_type=True, **kwargs)
    yield "deep_nesting", b"\x91" * 40 + b"\x00"
    yield "never_used_byte", b"\x92\xc1\xc1"


def main():
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
