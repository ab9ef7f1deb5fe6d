"""A RingKernel wire client driven only by manifests (<stem>.rk.json): no code per message type.

The example of docs/generator.md, "The manifest (.rk.json) for non-C++ peers"; wire rules from
docs/wire-format.md. Values: a message is a dict of field values; an array is a list; char[N] (also
the last dimension of char[M][N]) is a str; uint8_t[N], unsigned char[N] and std::byte[N] are bytes;
an enum is its enumerator's name (an int for a value without one); floats are floats.
"""
import json
import struct

import msgpack

INT_RANGES = {"int8": (-2**7, 2**7 - 1), "int16": (-2**15, 2**15 - 1), "int32": (-2**31, 2**31 - 1),
              "int64": (-2**63, 2**63 - 1), "uint8": (0, 2**8 - 1), "uint16": (0, 2**16 - 1),
              "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1),
              "character": (-2**7, 2**7 - 1), "char8": (0, 2**8 - 1), "byte": (0, 2**8 - 1),
              "boolean": (0, 1)}  # the last: an enum on bool, an int on the wire
BIN_KINDS = ("uint8", "byte")  # their [N] is bin (char8[N] is not)


def fnv1a32(text):
    h = 0x811C9DC5
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


class Manifests:
    def __init__(self, *paths):
        self.messages, self.by_id, self.enums = {}, {}, {}
        for path in paths:
            with open(path, encoding="utf-8") as f:
                m = json.load(f)
            if m["schema"] != "ringkernel-manifest" or m["schema_version"] != 2:
                raise ValueError("%s: not a version 2 ringkernel manifest" % path)
            for e in m["enums"]:
                self.enums[e["qualified_name"]] = e
            for msg in m["messages"]:  # nested types repeat in every manifest that uses them
                id_rule = msg["options"]["id"] or fnv1a32(msg["qualified_name"])
                if msg["type_id"] != id_rule:
                    raise ValueError("%s: type id breaks the id rule" % msg["qualified_name"])
                self.messages[msg["qualified_name"]] = msg
                self.by_id[msg["type_id"]] = msg

    # ---- decoding: MessagePack bytes -> values
    def decode(self, name, data):
        return self._message(self.messages[name], _unpack(data))

    def decode_envelope(self, data):
        """The 8 elements of docs/wire-format.md section 9, the payload decoded by its type id."""
        obj = _unpack(data)
        if not isinstance(obj, list) or len(obj) < 8:
            raise ValueError("not an envelope")
        msg = self.by_id[obj[0]]
        if not msg["options"]["causal"] and obj[6] != 0:
            raise ValueError("hlc on a message that is not causal")
        keys = ("type_id", "sender", "receiver", "type", "sequence", "timestamp_us", "hlc")
        return msg["qualified_name"], dict(zip(keys, obj[:7])), self._message(msg, obj[7])

    def _message(self, msg, obj):
        fields = msg["fields"]
        if msg["options"]["format"] == "array":
            _expect(isinstance(obj, list) and len(obj) >= len(fields), "an array of the fields", obj)
            items = zip(fields, obj)  # extra trailing elements are skipped
        else:
            _expect(isinstance(obj, dict) and all(f["name"] in obj for f in fields), "a map of the fields", obj)
            items = ((f, obj[f["name"]]) for f in fields)  # unknown keys are skipped
        return {f["name"]: self._value(f, f["extents"], v) for f, v in items}

    def _value(self, f, extents, v):
        kind = f["kind"]
        if len(extents) == 1 and kind == "character":
            _expect(isinstance(v, str) and len(v.encode("utf-8", "surrogateescape")) <= extents[0], "a str", v)
            return v
        if len(extents) == 1 and kind in BIN_KINDS:
            _expect(isinstance(v, bytes) and len(v) == extents[0], "a bin of %d" % extents[0], v)
            return v
        if extents:
            _expect(isinstance(v, list) and len(v) == extents[0], "an array of %d" % extents[0], v)
            return [self._value(f, extents[1:], x) for x in v]
        if kind == "message":
            return self._message(self.messages[f["referenced_type"]], v)
        if kind == "boolean":
            _expect(isinstance(v, bool), "a bool", v)
            return v
        if kind in ("float32", "float64"):
            _expect(isinstance(v, (int, float)) and not isinstance(v, bool), "a number", v)
            return float(v)
        lo, hi = INT_RANGES[f["underlying"]]  # == kind unless an enumeration
        _expect(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi, f["underlying"], v)
        if kind == "enumeration":
            names = {e["wire_value"]: e["name"] for e in self.enums[f["referenced_type"]]["enumerators"]}
            return names.get(v, v)
        return v

    # ---- encoding: values -> the canonical bytes the C++ encoder writes
    def encode(self, name, value):
        out = bytearray()
        self._put_message(self.messages[name], value, out)
        return bytes(out)

    def encode_envelope(self, name, header, value):
        msg = self.messages[name]
        out = bytearray(b"\x98")  # an array of 8
        for item in (msg["type_id"], header["sender"], header["receiver"], header["type"],
                     header["sequence"], header["timestamp_us"], header["hlc"]):
            out += msgpack.packb(item)
        self._put_message(msg, value, out)
        return bytes(out)

    def _put_message(self, msg, value, out):
        fields = msg["fields"]
        as_map = msg["options"]["format"] == "map"
        _header(out, len(fields), "map" if as_map else "array")
        for f in fields:
            if as_map:
                out += msgpack.packb(f["name"])
            self._put(f, f["extents"], value[f["name"]], out)

    def _put(self, f, extents, v, out):
        kind = f["kind"]
        if len(extents) == 1 and kind in ("character",) + BIN_KINDS:
            out += msgpack.packb(v, use_bin_type=True, unicode_errors="surrogateescape")  # str or bin
        elif extents:
            _header(out, len(v), "array")
            for x in v:
                self._put(f, extents[1:], x, out)
        elif kind == "message":
            self._put_message(self.messages[f["referenced_type"]], v, out)
        elif kind == "float32":
            out += b"\xca" + struct.pack(">f", v)
        elif kind == "float64":
            out += b"\xcb" + struct.pack(">d", v)
        elif kind == "enumeration" and isinstance(v, str):
            enumerators = self.enums[f["referenced_type"]]["enumerators"]
            out += msgpack.packb(next(e["wire_value"] for e in enumerators if e["name"] == v))
        else:  # bool or int: msgpack-python writes the smallest form, as the C++ encoder does
            out += msgpack.packb(v)


def _unpack(data):
    return msgpack.unpackb(data, raw=False, unicode_errors="surrogateescape", strict_map_key=False)


def _header(out, n, container):
    fix, wide16, wide32 = (0x80, 0xde, 0xdf) if container == "map" else (0x90, 0xdc, 0xdd)
    if n < 16:
        out.append(fix | n)
    elif n < 65536:
        out += struct.pack(">BH", wide16, n)
    else:
        out += struct.pack(">BI", wide32, n)


def _expect(ok, what, value):
    if not ok:
        raise ValueError("expected %s, got %r" % (what, value))
