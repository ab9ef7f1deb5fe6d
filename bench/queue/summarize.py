#!/usr/bin/env python3
"""Turns bench_queue's JSON (--benchmark_format=json, several repetitions) into the RESULTS.md table.

On a shared 2-core VM the interference is one-sided (other processes only ever slow a run down), so
each benchmark is summarised by its median and its best repetition, and the ratios are given for both.
Usage: bench_queue --benchmark_repetitions=9 --benchmark_format=json > q.json; summarize.py q.json
"""
import json
import statistics
import sys

PAIRS = [  # (RingKernel benchmark, peers...)
    ("BM_Spsc_RingKernel", ["BM_Spsc_BoostLockfree", "BM_Spsc_MoodycamelReaderWriterQueue"]),
    ("BM_Spsc_RingKernelQueueApi", ["BM_Spsc_BoostLockfree", "BM_Spsc_MoodycamelReaderWriterQueue"]),
    ("BM_SpscBatch32_RingKernel", ["BM_SpscBatch32_BoostLockfree"]),
    ("BM_Mpmc_RingKernel", ["BM_Mpmc_MoodycamelConcurrentQueue"]),
    ("BM_Mpmc_RingKernelQueueApi", ["BM_Mpmc_MoodycamelConcurrentQueue"]),
    ("BM_MpmcBatch32_RingKernel", ["BM_MpmcBatch32_MoodycamelConcurrentQueue"]),
]


def main(path):
    runs = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        runs.setdefault(b["run_name"].split("/")[0], []).append(b["items_per_second"] / 1e6)
    summary = {name: (statistics.median(v), max(v)) for name, v in runs.items()}
    print("| benchmark | median M msgs/s | best M msgs/s |")
    print("| --- | ---: | ---: |")
    for name, (med, best) in summary.items():
        print(f"| {name} | {med:.1f} | {best:.1f} |")
    print()
    print("| RingKernel | best peer by median | ratio (median) | best peer by best run | ratio (best) |")
    print("| --- | --- | ---: | --- | ---: |")
    for ours, peers in PAIRS:
        present = [p for p in peers if p in summary]
        if ours not in summary or not present:
            continue
        by_median = max(present, key=lambda p: summary[p][0])
        by_best = max(present, key=lambda p: summary[p][1])
        print(f"| {ours} | {by_median} | {summary[ours][0] / summary[by_median][0]:.2f} "
              f"| {by_best} | {summary[ours][1] / summary[by_best][1]:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1])
