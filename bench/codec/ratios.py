#!/usr/bin/env python3
# Copyright RingKernel authors.
"""Turns `bench_codec --benchmark_format=json` output into the bench/RESULTS.md table: CPU ns per
message and the ratios that the codec's goals are stated in (peer / ringkernel; ringkernel / memcpy),
for the same message every iteration (input "same") and, in the row below it, for the ring of
65,536 varied messages (input "varied", benchmark names ending /varied; bench_codec_varied.h); then the
rows that miss a goal.

Usage: bench_codec --benchmark_format=json ... | ratios.py [--statistic min|median]

--statistic median (default): the median aggregate when repetitions were run, else the single run.
--statistic min: the fastest repetition of each benchmark (needs --benchmark_repetitions=N and the
  per-repetition rows, i.e. no --benchmark_report_aggregates_only). With
  --benchmark_enable_random_interleaving=true every contender samples the same moments of the
  machine, and the minimum is the time of its quiet moments: on the 2-core VMs, whose other tenants
  made the same binary's medians move by up to 1.8x between runs, the minimums of three runs agreed
  to 0.1 ns (bench/RESULTS.md). bench/codec/run.sh runs it that way."""

import argparse
import json
import statistics
import sys

IMPLEMENTATIONS = ("ringkernel", "msgpack_cxx", "msgpack_c", "memcpy")
MESSAGES = ("Telemetry64", "Order128", "Telemetry64Map", "Order128Map")
INPUTS = ("same", "varied")
# The codec's goals (issue 3): peer / ringkernel at least this, ringkernel / memcpy at most 10.
PEER_GOAL = {"encode": 5.0, "decode": 10.0}
MEMCPY_GOAL = 10.0


def key_of(run):
    """(operation, message, implementation, input): names without a /varied suffix are "same"."""
    parts = run.get("run_name", run["name"]).split("/")
    return tuple(parts[:3]) + (parts[3] if len(parts) > 3 else "same",)


def times(runs, statistic):
    """(operation, message, implementation) -> CPU ns, and the repetitions each figure is over."""
    if statistic == "median":
        ns, reps = {}, {}
        for run in runs:
            if run.get("run_type") == "aggregate" and run.get("aggregate_name") != "median":
                continue
            key = key_of(run)
            ns[key] = run["cpu_time"]
            reps[key] = run.get("repetitions", 1)
        return ns, reps
    samples = {}
    for run in runs:
        if run.get("run_type", "iteration") != "iteration":
            continue
        samples.setdefault(key_of(run), []).append(run["cpu_time"])
    if samples and max(len(s) for s in samples.values()) < 2:
        sys.exit("ratios.py: --statistic min needs --benchmark_repetitions=N (N > 1) and the per-repetition rows")
    return {k: min(s) for k, s in samples.items()}, {k: len(s) for k, s in samples.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statistic", choices=("median", "min"), default="median")
    args = parser.parse_args()
    try:
        runs = json.load(sys.stdin)["benchmarks"]
        if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
            raise TypeError("'benchmarks' is not a list of objects")
    except (ValueError, KeyError, TypeError):
        sys.exit("ratios.py: the input is not bench_codec --benchmark_format=json output (empty: did the run fail?)")
    failed = sorted({r["name"] for r in runs if r.get("error_occurred")})
    runs = [r for r in runs if not r.get("error_occurred")]
    ns, reps = times(runs, args.statistic)
    if not ns:
        sys.exit("ratios.py: no benchmark ran" + (f" ({len(failed)} ended with an error)" if failed else ""))
    print(f"CPU ns per message: {args.statistic} of {statistics.median(reps.values()):.0f} repetitions")
    print()
    print("| operation | message | input | ringkernel ns | msgpack-cxx ns | msgpack-c ns | memcpy ns "
          "| msgpack-cxx / ringkernel | msgpack-c / ringkernel | ringkernel / memcpy |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    misses, incomplete, rows = [], [], 0
    for op in ("encode", "decode"):
        for message in MESSAGES:
            for case in INPUTS:
                t = {impl: ns.get((op, message, impl, case)) for impl in IMPLEMENTATIONS}
                if None in (t["ringkernel"], t["msgpack_cxx"], t["memcpy"]):
                    have = [impl for impl in IMPLEMENTATIONS if t[impl] is not None]
                    if have:  # e.g. a --benchmark_filter that kept only some contenders
                        incomplete.append(f"{op} {message} {case} (has {', '.join(have)}; a row needs "
                                          "ringkernel, msgpack_cxx and memcpy)")
                    continue
                rows += 1
                # (No hand-written msgpack-c peer for the map messages.)
                c_ns = f"{t['msgpack_c']:.1f}" if t["msgpack_c"] else "—"
                c_ratio = f"{t['msgpack_c'] / t['ringkernel']:.1f}x" if t["msgpack_c"] else "—"
                peer, floor = t["msgpack_cxx"] / t["ringkernel"], t["ringkernel"] / t["memcpy"]
                print(f"| {op} | {message} | {case} | {t['ringkernel']:.1f} | {t['msgpack_cxx']:.1f} | {c_ns} "
                      f"| {t['memcpy']:.2f} | {peer:.2f}x | {c_ratio} | {floor:.2f}x |")
                if peer < PEER_GOAL[op]:
                    misses.append(f"{op} {message} {case}: msgpack-cxx / ringkernel {peer:.2f}x < {PEER_GOAL[op]:g}x")
                if floor > MEMCPY_GOAL:
                    misses.append(f"{op} {message} {case}: ringkernel / memcpy {floor:.2f}x > {MEMCPY_GOAL:g}x")
    print()
    if incomplete:
        print("Left out, a contender missing from the input:")
        for row in incomplete:
            print(f"- {row}")
        print()
    if not rows:
        print("No row has all of ringkernel, msgpack_cxx and memcpy: no ratio, no goal checked")
        for name in failed:
            print(f"- ended with an error: {name}")
        sys.exit(1)
    print(f"Goals: encode >= {PEER_GOAL['encode']:g}x msgpack-cxx, decode >= {PEER_GOAL['decode']:g}x, "
          f"ringkernel within {MEMCPY_GOAL:g}x of memcpy: " + ("all rows meet them" if not misses else "missed by"))
    for miss in misses:
        print(f"- {miss}")
    for name in failed:
        print(f"- ended with an error, left out: {name}")


if __name__ == "__main__":
    main()
