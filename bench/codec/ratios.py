#!/usr/bin/python3
# Copyright RingKernel authors.
"""Turns `bench_codec --benchmark_format=json` output into the bench/RESULTS.md table: CPU ns per
message (median when repetitions were run) and the ratios that the codec's goals are stated in
(peer / ringkernel; ringkernel / memcpy). Usage: bench_codec --benchmark_format=json ... | ratios.py"""

import json
import sys


def main():
    runs = json.load(sys.stdin)["benchmarks"]
    ns = {}
    for run in runs:
        if run.get("run_type") == "aggregate" and run.get("aggregate_name") != "median":
            continue
        name = run.get("run_name", run["name"])
        op, message, impl = name.split("/")
        ns[(op, message, impl)] = run["cpu_time"]
    print("| operation | message | ringkernel ns | msgpack-cxx ns | msgpack-c ns | memcpy ns "
          "| msgpack-cxx / ringkernel | msgpack-c / ringkernel | ringkernel / memcpy |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for op in ("encode", "decode"):
        for message in ("Telemetry64", "Order128", "Telemetry64Map", "Order128Map"):
            t = {impl: ns.get((op, message, impl)) for impl in ("ringkernel", "msgpack_cxx", "msgpack_c", "memcpy")}
            if None in (t["ringkernel"], t["msgpack_cxx"], t["memcpy"]):
                continue
            # (No hand-written msgpack-c peer for the map messages.)
            c_ns = f"{t['msgpack_c']:.1f}" if t["msgpack_c"] else "—"
            c_ratio = f"{t['msgpack_c'] / t['ringkernel']:.1f}x" if t["msgpack_c"] else "—"
            print(f"| {op} | {message} | {t['ringkernel']:.1f} | {t['msgpack_cxx']:.1f} | {c_ns} "
                  f"| {t['memcpy']:.2f} | {t['msgpack_cxx'] / t['ringkernel']:.1f}x "
                  f"| {c_ratio} | {t['ringkernel'] / t['memcpy']:.1f}x |")

if __name__ == "__main__":
    main()
