#!/usr/bin/env python3
"""Turns bench_queue rounds (bench/queue/run.sh: one JSON per round) into the RESULTS.md tables.

Per benchmark: median rate over the rounds, min..max, and the median polls per message (how often
the consumer found the queue empty / the producer found it full: the regime the queue ran in).
Per comparison: in each round, ours / the best peer of that round (same message type, same API
shape: single push/pop, or batches of up to 32); the median of those per-round ratios and their
range. Rounds are compared within themselves because the VM's core-to-core latency changes between
rounds (BM_Floor_LinePingPong shows it).
Usage: summarize.py OUT_PREFIX.r*.json
"""
import json
import re
import statistics
import sys

PAIRS = [  # (RingKernel benchmark, peers...); <M> is replaced by each message type
    ("BM_Spsc_RingKernel<M>", ["BM_Spsc_BoostLockfree<M>", "BM_Spsc_MoodycamelReaderWriterQueue<M>"]),
    ("BM_Spsc_RingKernelQueueApi<M>", ["BM_Spsc_BoostLockfree<M>", "BM_Spsc_MoodycamelReaderWriterQueue<M>"]),
    ("BM_SpscBatch32_RingKernel<M>", ["BM_SpscBatch32_BoostLockfree<M>"]),
    ("BM_Mpmc_RingKernel", ["BM_Mpmc_MoodycamelConcurrentQueue", "BM_Mpmc_MoodycamelConcurrentQueueTokens"]),
    ("BM_Mpmc_RingKernelQueueApi", ["BM_Mpmc_MoodycamelConcurrentQueue", "BM_Mpmc_MoodycamelConcurrentQueueTokens"]),
    ("BM_MpmcBatch32_RingKernel", ["BM_MpmcBatch32_MoodycamelConcurrentQueue"]),
]
MESSAGES = ["Msg64", "Msg64A"]
ARGUMENT = re.compile(r"(?!(?:iterations|repeats|threads):)(?:[A-Za-z_]\w*:)?\d+")  # "8", "P:4"; not "threads:2"
COUNTERS = ["empty_polls_per_msg", "full_polls_per_msg", "write_ns_per_line", "read_ns_per_line"]


def row_error(b):
    """Why a row did not run: SkipWithError's error_message, or (Google Benchmark 1.8 and later)
    SkipWithMessage's skip_message; "" for a row that ran."""
    return b.get("error_message") or b.get("skip_message") or ""


def load(paths):
    rounds = []
    for path in paths:
        one = {}
        try:
            with open(path, encoding="utf-8") as f:
                benchmarks = json.load(f)["benchmarks"]
        except OSError as e:
            sys.exit(f"summarize.py: {path}: {e.strerror} (run bench/queue/run.sh BUILD_DIR OUT_PREFIX first)")
        except (ValueError, KeyError, TypeError):
            sys.exit(f"summarize.py: {path} is not bench_queue --benchmark_format=json output "
                     "(empty: did the round fail or match no row?)")
        for b in benchmarks:
            if b.get("run_type") == "iteration":
                # name, arguments (digits, or P:1 with ArgNames), min_time:..., real_time
                parts = b["run_name"].split("/")
                name = parts[0] + "".join("/" + p for p in parts[1:] if ARGUMENT.fullmatch(p))
                one[re.sub(r"^rkbench::", "", name)] = b
        rounds.append(one)
    return rounds


def main(paths):
    if not paths or paths[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if not paths else sys.stdout)
        sys.exit(2 if not paths else 0)
    all_rounds = load(paths)
    if not any(all_rounds):
        sys.exit("summarize.py: no benchmark row in " + " ".join(paths))
    # Rows that did not run (SkipWithError, e.g. "needs 2 CPUs ..."): reported, left out of the figures.
    skipped = {}
    for r in all_rounds:
        for name, b in r.items():
            if row_error(b) and not name.startswith("BM_Paired_"):
                skipped.setdefault(name, []).append(row_error(b))
    rounds = [{n: b for n, b in r.items() if n.startswith("BM_Paired_") or not row_error(b)} for r in all_rounds]
    names = sorted({n for r in rounds for n in r if not n.startswith("BM_Paired_")},
                   key=lambda n: (not n.startswith("BM_Floor"), n))
    print(f"{len(rounds)} rounds\n")
    print("| benchmark | median M msgs/s | min..max | empty polls/msg | full polls/msg | capacity |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, errors in sorted(skipped.items()):
        print(f"| {name} | skipped in {len(errors)} of {len(rounds)} rounds: {errors[0]} | | | | |")
    for name in names:
        reps = [r[name] for r in rounds if name in r]
        rate = [b["items_per_second"] / 1e6 for b in reps]
        c = {k: statistics.median(b.get(k, 0.0) for b in reps) for k in COUNTERS}
        cap = reps[0].get("capacity")
        extra = f" (write {c['write_ns_per_line']:.1f} ns/line, read {c['read_ns_per_line']:.1f} ns/line)" \
            if "LineStream" in name else ""
        print(f"| {name}{extra} | {statistics.median(rate):.1f} | {min(rate):.1f}..{max(rate):.1f} "
              f"| {c['empty_polls_per_msg']:.2f} | {c['full_polls_per_msg']:.2f} | "
              f"{'' if cap is None else f'{cap:.0f}'} |")
    print()
    print("| RingKernel | peers | median of per-round ratios to the best peer | min..max |")
    print("| --- | --- | ---: | ---: |")
    for ours_t, peers_t in PAIRS:
        for m in MESSAGES if "<M>" in ours_t else [None]:
            ours = ours_t.replace("<M>", f"<{m}>") if m else ours_t
            peers = [p.replace("<M>", f"<{m}>") if m else p for p in peers_t]
            ratios, compared = [], set()
            for r in rounds:
                present = [p for p in peers if p in r]
                if ours in r and present:
                    ratios.append(r[ours]["items_per_second"] / max(r[p]["items_per_second"] for p in present))
                    compared.update(present)
            if ratios:  # the peers column: those that ran (a --benchmark_filter may have left some out)
                print(f"| {ours} | {', '.join(p for p in peers if p in compared)} | {statistics.median(ratios):.2f} "
                      f"| {min(ratios):.2f}..{max(ratios):.2f} |")
    by_state(rounds)
    paired(rounds)


def paired(rounds):
    """BM_Paired_* rows: contenders alternated within each iteration; ratios per iteration."""
    rows = {}
    for r in rounds:
        for name, b in r.items():
            if name.startswith("BM_Paired_"):
                rows.setdefault(name, []).append(b)
    if not rows:
        return
    print()
    print("| paired comparison | ours | median ratio to the best peer (p25..p75) | M msgs/s, medians |")
    print("| --- | --- | ---: | --- |")
    for name, reps in rows.items():
        skipped = [row_error(b) for b in reps if row_error(b)]
        if skipped:  # e.g. a PxC row on a machine with fewer CPUs than it needs
            print(f"| {name} | skipped in {len(skipped)} of {len(reps)} rounds: {skipped[0]} | | |")
            reps = [b for b in reps if not row_error(b)]
            if not reps:
                continue
        keys = reps[0].keys()
        rates = ", ".join(f"{k[:-6]} {statistics.median(b[k] for b in reps):.1f}" for k in keys if k.endswith("_Mmsgs"))
        for k in keys:
            if k.startswith("ratio_") and k.endswith("_median"):
                ours = k[len("ratio_"):-len("_median")]
                med = statistics.median(b[k] for b in reps)
                p25 = statistics.median(b[f"ratio_{ours}_p25"] for b in reps)
                p75 = statistics.median(b[f"ratio_{ours}_p75"] for b in reps)
                iters = sum(b["iterations"] for b in reps)
                print(f"| {name} ({iters} iterations) | {ours} | {med:.2f} ({p25:.2f}..{p75:.2f}) | {rates} |")
    pxc_counters(rows)


def pxc_counters(rows):
    """PxC rows (pxc_harness.h): measured capacity, drained messages and polls per contender."""
    pxc = {n: [b for b in reps if not row_error(b)] for n, reps in rows.items()}
    pxc = {n: reps for n, reps in pxc.items() if reps and any(k.startswith("capacity_") for k in reps[0])}
    if not pxc:
        return
    print()
    print("| PxC row | contender | capacity | drained after the join | empty polls/msg | full polls/msg |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name, reps in pxc.items():
        for k in reps[0]:
            if k.startswith("capacity_"):
                c = k[len("capacity_"):]
                med = {x: statistics.median(b[f"{x}_{c}"] for b in reps)
                       for x in ("capacity", "drained", "empty_polls_per_msg", "full_polls_per_msg")}
                print(f"| {name} | {c} | {med['capacity']:.0f} | {med['drained']:.0f} "
                      f"| {med['empty_polls_per_msg']:.2f} | {med['full_polls_per_msg']:.2f} |")


def by_state(rounds):
    """The SPSC ratio split by the machine state of the round (core-to-core line handoff rate)."""
    probe = "BM_Floor_LinePingPong"
    ours, peers = "BM_Spsc_RingKernel<Msg64A>", ["BM_Spsc_BoostLockfree<Msg64A>", "BM_Spsc_MoodycamelReaderWriterQueue<Msg64A>"]
    rows = [(r[probe]["items_per_second"] / 1e6,
             r[ours]["items_per_second"] / max(r[p]["items_per_second"] for p in peers if p in r))
            for r in rounds if probe in r and ours in r and any(p in r for p in peers)]
    if len(rows) < 4:
        return
    cut = statistics.median(h for h, _ in rows)
    print()
    print(f"| {ours} vs best peer, rounds where the line handoff rate was | rounds | median ratio |")
    print("| --- | ---: | ---: |")
    for label, part in ((f"< {cut:.1f} M/s (slower core-to-core transfers)", [x for h, x in rows if h < cut]),
                        (f">= {cut:.1f} M/s (faster)", [x for h, x in rows if h >= cut])):
        if part:
            print(f"| {label} | {len(part)} | {statistics.median(part):.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
