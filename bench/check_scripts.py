#!/usr/bin/env python3
"""CTest bench.scripts (label unit): the benchmark scripts on made-up Google Benchmark JSON and on
user errors, without running a benchmark. ratios.py and summarize.py must turn complete input into
their RESULTS.md tables, and partial, empty or skipped input into a message, not a traceback or a
table that says every goal is met; every run.sh answers --help and names the missing program.
Usage: check_scripts.py (from anywhere; it finds the scripts next to itself)."""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def run(args, stdin=""):
    try:
        p = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after 60 s: {args}"
    return p.returncode, p.stdout, p.stderr


def expect(name, ok, detail):
    if not ok:
        failures.append(f"{name}: {detail}")


def codec_json(implementations, reps=3):
    runs = []
    for op in ("encode", "decode"):
        for impl, ns in implementations.items():
            for rep in range(reps):
                runs.append({"name": f"{op}/Telemetry64/{impl}", "run_name": f"{op}/Telemetry64/{impl}",
                             "run_type": "iteration", "repetitions": reps, "cpu_time": ns + rep})
    return json.dumps({"benchmarks": runs})


def check_ratios():
    ratios = [sys.executable, os.path.join(HERE, "codec", "ratios.py")]
    full = codec_json({"ringkernel": 10.0, "msgpack_cxx": 80.0, "msgpack_c": 90.0, "memcpy": 1.0})
    rc, out, err = run(ratios + ["--statistic", "min"], full)
    expect("ratios complete", rc == 0 and "| encode | Telemetry64 | same | 10.0 | 80.0 | 90.0 | 1.00 | 8.00x | 9.0x | 10.00x |" in out,
           f"exit {rc}, output:\n{out}{err}")
    rc, out, err = run(ratios + ["--statistic", "min"], codec_json({"ringkernel": 10.0}))
    expect("ratios ringkernel only", rc == 1 and "No row has all" in out and "all rows meet them" not in out
           and "encode Telemetry64 same (has ringkernel;" in out, f"exit {rc}, output:\n{out}{err}")
    rc, out, err = run(ratios, "")
    expect("ratios empty input", rc == 1 and "Traceback" not in err and "not bench_codec" in err,
           f"exit {rc}, stderr:\n{err}")
    # Valid JSON of the wrong shape: the same message, not a TypeError / AttributeError traceback.
    for name, text in (("null", '{"benchmarks": null}'), ("number", '{"benchmarks": 5}'),
                       ("list of numbers", '{"benchmarks": [1, 2]}'), ("top-level list", "[]")):
        rc, out, err = run(ratios, text)
        expect(f"ratios benchmarks {name}", rc == 1 and "Traceback" not in err and "not bench_codec" in err,
               f"exit {rc}, stderr:\n{err}")


def queue_row(name, rate=None, error=None):
    row = {"name": name + "/min_time:0.300/real_time", "run_name": name + "/min_time:0.300/real_time",
           "run_type": "iteration"}
    if error:
        row.update(error_occurred=True, error_message=error)
    else:
        row.update(items_per_second=rate * 1e6, empty_polls_per_msg=0.5, full_polls_per_msg=0.1, capacity=1024)
    return row


def check_summarize(tmp):
    summarize = [sys.executable, os.path.join(HERE, "queue", "summarize.py")]
    rounds = []
    for r, (ours, peer) in enumerate(((30.0, 20.0), (40.0, 20.0), (10.0, 20.0))):
        path = os.path.join(tmp, f"q.r{r + 1}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"benchmarks": [queue_row("BM_Spsc_RingKernel<Msg64>", ours),
                                      queue_row("BM_Spsc_BoostLockfree<Msg64>", peer),
                                      queue_row("BM_Mpmc_RingKernel", error="needs 2 CPUs, this process may run on 1")]}, f)
        rounds.append(path)
    rc, out, err = run(summarize + rounds)
    expect("summarize ratio", rc == 0 and "| BM_Spsc_RingKernel<Msg64> | BM_Spsc_BoostLockfree<Msg64> | 1.50 | 0.50..2.00 |" in out,
           f"exit {rc}, output:\n{out}{err}")
    expect("summarize skipped row", "| BM_Mpmc_RingKernel | skipped in 3 of 3 rounds: needs 2 CPUs" in out,
           f"output:\n{out}{err}")
    rc, out, err = run(summarize)
    expect("summarize no files", rc == 2 and "Usage" in err, f"exit {rc}, stderr:\n{err}")
    empty = os.path.join(tmp, "empty.r1.json")
    open(empty, "w", encoding="utf-8").close()
    rc, out, err = run(summarize + [empty])
    expect("summarize empty file", rc == 1 and "Traceback" not in err and "empty.r1.json" in err, f"exit {rc}, stderr:\n{err}")


def check_run_scripts(tmp):
    missing = os.path.join(tmp, "no-build")
    for script, args in (("codec/run.sh", [missing, os.path.join(tmp, "out.json")]),
                         ("queue/run.sh", [missing, os.path.join(tmp, "out")]),
                         ("generator/run.sh", [missing])):
        path = os.path.join(HERE, script)
        rc, out, err = run([path, "--help"])
        expect(f"{script} --help", rc == 0 and "BUILD_DIR" in out, f"exit {rc}, output:\n{out}{err}")
        rc, out, err = run([path] + args)
        expect(f"{script} without a build", rc == 2 and "not built" in err, f"exit {rc}, stderr:\n{err}")
    rc, out, err = run([os.path.join(HERE, "codec/run.sh")])
    expect("codec/run.sh without arguments", rc == 2 and "BUILD_DIR" in err, f"exit {rc}, stderr:\n{err}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_ratios()
        check_summarize(tmp)
        check_run_scripts(tmp)
    for f in failures:
        print(f"FAIL {f}")
    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
