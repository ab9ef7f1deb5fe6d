#!/usr/bin/python3
# Copyright RingKernel authors.
"""Regenerates the checked-in libFuzzer seed corpus of the envelope decoder
(tests/messaging/corpus/envelope/): valid envelopes of each payload in messages/messaging_messages.h
(docs/wire-format.md §9: [type_id, sender, receiver, type, sequence, timestamp_us, hlc, payload];
array, causal, map, over-aligned causal and 64-byte payloads: every message of the fuzz target's registry),
plus truncations, an extra trailing element, a wrong type id, a type id in the uint 64 form and one
above 32 bits (peek_envelope_type_id), an unknown MessageType, a negative sender, a receiver below
-1 and, for the non-causal payloads, a non-zero hlc.
Usage: make_envelope_corpus.py  (run from anywhere; needs python3-msgpack).
       make_envelope_corpus.py --check: writes nothing; exit status 1, naming each file, where the
       corpus is not what this script writes, byte for byte (CTest messaging.fuzz_corpus_current)."""

import os
import sys

import msgpack

HERE = os.path.dirname(os.path.abspath(__file__))


def type_id(qualified_name):
    """FNV-1a 32-bit of the qualified name (DESIGN.md §3)."""
    h = 0x811C9DC5
    for byte in qualified_name.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


TAGGED = [7, 0, 123456789]
PAYLOADS = {
    "tagged": ("messaging_test::Tagged", TAGGED, 0),
    "tick": ("messaging_test::Tick", [-7, 2.5, "causal"], (1732200000123456 << 12) | 3),
    "reading": ("messaging_test::Reading", {"origin": TAGGED, "samples": [1.5, -0.0, float("inf")]}, 0),
    # The registry's other two messages: with a seed each, their decoders and dispatch_envelope's
    # cases for them are reached from the first input, not only once a run has found their type ids.
    "aligned16": ("messaging_test::Aligned16", [4294967295, -0.5], (1732200000123456 << 12) | 1),
    "blob64": ("messaging_test::Blob64", [0, 1, 127, 128, 65535, 65536, 2 ** 32, 2 ** 64 - 1], 0),
}


def seeds():
    for name, (qualified, payload, hlc) in PAYLOADS.items():
        envelope = [type_id(qualified), 3, -1, 1, 42, 1732200000123456, hlc, payload]
        packed = msgpack.packb(envelope, use_bin_type=True, use_single_float=(name == "tick"))
        yield name, packed
        yield name + "_truncated", packed[: len(packed) // 2]
        yield name + "_extra", msgpack.packb(envelope + [[1, {"k": None}]], use_bin_type=True)
        yield name + "_wrong_type_id", msgpack.packb([envelope[0] ^ 1] + envelope[1:], use_bin_type=True)
        assert packed[:2] == b"\x98\xce", "fixarray of 8, uint 32 type id"
        tail = packed[6:]  # after the array header and the type id
        yield name + "_type_id_uint64", b"\x98\xcf" + envelope[0].to_bytes(8, "big") + tail
        yield name + "_type_id_beyond_32_bits", b"\x98\xcf" + (envelope[0] | 1 << 32).to_bytes(8, "big") + tail
        yield name + "_bad_message_type", msgpack.packb(envelope[:3] + [9] + envelope[4:], use_bin_type=True)
        if hlc == 0:  # a non-causal type: its hlc must be 0 (value_out_of_range at the hlc)
            yield name + "_nonzero_hlc", msgpack.packb(envelope[:6] + [1] + envelope[7:], use_bin_type=True)
        assert tail[:2] == b"\x03\xff", "sender 3, receiver -1: one byte each"
        yield name + "_negative_sender", packed[:6] + b"\xff" + packed[7:]  # sender -1: value_out_of_range
        yield name + "_receiver_below_broadcast", packed[:7] + b"\xfe" + packed[8:]  # receiver -2


def check():
    directory = os.path.join(HERE, "corpus", "envelope")
    expected = {name + ".msgpack": data for name, data in seeds()}
    present = set(os.listdir(directory)) if os.path.isdir(directory) else set()
    problems = [name + ": not a seed this script writes" for name in sorted(present - expected.keys())]
    for name, data in sorted(expected.items()):
        if name not in present:
            problems.append(name + ": missing")
        else:
            with open(os.path.join(directory, name), "rb") as f:
                if f.read() != data:
                    problems.append(name + ": differs")
    for problem in problems:
        print("tests/messaging/corpus/envelope/" + problem, file=sys.stderr)
    if problems:
        print("run tests/messaging/make_envelope_corpus.py and commit tests/messaging/corpus/envelope/",
              file=sys.stderr)
    return 1 if problems else 0


def main():
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    directory = os.path.join(HERE, "corpus", "envelope")
    os.makedirs(directory, exist_ok=True)
    for old in os.listdir(directory):
        os.remove(os.path.join(directory, old))
    for name, data in seeds():
        with open(os.path.join(directory, name + ".msgpack"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
