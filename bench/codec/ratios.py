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
        for message in ("Telemetry64", "Order128"):
            t = {impl: ns.get((op, message, impl)) for impl in ("ringkernel", "msgpack_cxx", "msgpack_c", "memcpy")}
            if None in t.values():
                continue
            print(f"| {op} | {message} | {t['ringkernel']:.1f} | {t['msgpack_cxx']:.1f} | {t['msgpack_c']:.1f} "
                  f"| {t['memcpy']:.2f} | {t['msgpack_cxx'] / t['ringkernel']:.1f}x "
                  f"| {t['msgpack_c'] / t['ringkernel']:.1f}x | {t['ringkernel'] / t['memcpy']:.1f}x |")


if __name__ == "__main__":
    main()
