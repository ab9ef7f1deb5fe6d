"""The manifest as a client contract: manifest_client.py, which knows no message type, decodes what
C++ wrote for messages/manifest_client.h (manifest_client_writer prints it), gets the values the
writer set, and encodes them back to the same bytes, payloads and envelopes alike.

Usage: manifest_client_test.py <manifest_client.rk.json> <manifest_client_writer executable>
"""
import struct
import subprocess
import sys

from manifest_client import Manifests


def f32(x):
    return struct.unpack(">f", struct.pack(">f", x))[0]


EVERYTHING = {
    "flag": True, "letter": ord("k"), "i8": -128, "i16": -300, "i32": -2**31, "i64": -2**63,
    "u8": 200, "u16": 65535, "u32": 2**32 - 1, "u64": 2**64 - 1, "f32": 1.5, "f64": -0.1,
    "c8": 0xe9, "c16": 0x263a, "c32": 0x1f600, "one_byte": 0x7f,
    "text": "h\u00e9llo", "utf8": [0xc3, 0xa9, 0, 0], "bytes": b"\x00\x01\xfe\xff", "uc": b"a\0\0",
    "raw": b"\0\0\x80", "wide": [0x3b1, 0x3c9], "bits": [False, True, False],
    "color": "blue", "offsets": ["lowest", "highest"], "huge": "top", "latin": "e_acute", "power": "on",
    "octet": "top", "palette": [["red", "green"], ["blue", "red"]],
    "corner": {"x": -1.0, "y": 2.25}, "path": [{"x": 0.5, "y": 0.0}, {"x": 3.0, "y": -4.0}],
    "tags": [{"name": "alpha", "weight": -7}, {"name": "omega123", "weight": 300}],
    "grid": [[-2500, -1500, -500], [500, 1500, 2500]], "names": ["ab", "cdefg"],
    "planes": [b"\0\x09\0", b"\0\0\xff"], "code": [[0, 0x41], [0xff, 0]], "samples": [1e300, -2.5],
}
EXPECTED = {
    "manifest_client::Everything": EVERYTHING,
    "manifest_client::Outer": {
        "inner": EVERYTHING, "tag": {"name": "tag", "weight": 1}, "latins": ["z", "e_acute"],
        "switches": ["off", "on"], "c8s": [ord("x"), 0, 0x80], "data": b"\xaa\x55", "scale": f32(0.1)},
    "manifest_client::Point": {"x": 0.0, "y": 0.0},
    "manifest_client::Tag": {"name": "", "weight": 0},
}
KINDS = {"boolean", "character", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "enumeration", "message", "byte", "char8"}  # docs/generator.md


def main(manifest_path, writer):
    schema = Manifests(manifest_path)
    kinds = {f["kind"] for m in schema.messages.values() for f in m["fields"]}
    assert kinds == KINDS, "kinds used %s, the vocabulary %s" % (sorted(kinds), sorted(KINDS))
    lines = subprocess.run([writer], check=True, capture_output=True, text=True).stdout.split("\n")
    seen = set()
    for line in filter(None, lines):
        name, payload_hex, envelope_hex = line.split()
        payload, envelope = bytes.fromhex(payload_hex), bytes.fromhex(envelope_hex)
        value = schema.decode(name, payload)
        assert value == EXPECTED[name], "%s decoded as %r" % (name, value)
        assert schema.encode(name, value) == payload, "%s: the bytes differ" % name
        decoded_name, header, body = schema.decode_envelope(envelope)
        causal = schema.messages[name]["options"]["causal"]
        assert decoded_name == name and body == value, decoded_name
        assert header == {"type_id": schema.messages[name]["type_id"], "sender": 3, "receiver": -1, "type": 0,
                          "sequence": 42, "timestamp_us": 1700000000000000,
                          "hlc": (1700000000000000 << 12 | 5) if causal else 0}, header
        assert schema.encode_envelope(name, header, value) == envelope, "%s: envelope bytes differ" % name
        seen.add(name)
    assert seen == set(EXPECTED), seen
    print("manifest client: %d messages decoded and re-encoded byte for byte" % len(seen))


if __name__ == "__main__":
    main(*sys.argv[1:])
