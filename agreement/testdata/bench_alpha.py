#!/usr/bin/python3
"""Times `arbiter agreement --metrics alpha` against the `krippendorff`
package (krippendorff_alpha.py beside this file) on one ratings CSV, end to
end: process start, reading the file, alpha, printing it.

    KRIPPENDORFF_SRC=/tmp/krippendorff /usr/bin/python3 agreement/testdata/bench_alpha.py \\
        --arbiter bin/arbiter --csv /tmp/bench.csv [--level nominal] [--rounds 15] \\
        [--also 'name=command ...']

Each round runs every command once, in an order that alternates between
rounds, so that the machine's load falls on all of them alike; the report
gives min / median / max of the wall-clock and CPU (user + system) times and
of the per-round ratios to the Python reference, with the load average
before and after. The `arbiter` full report (every metric) is timed too.
Before timing, the alpha values are compared: they must agree to 1e-12.
"""
import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    """Runs cmd; returns its stdout, wall seconds and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


def spread(xs, fmt):
    return f"{fmt(min(xs))} / {fmt(statistics.median(xs))} / {fmt(max(xs))}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--arbiter", required=True)
    p.add_argument("--csv", required=True)
    p.add_argument("--level", default="nominal")
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--also", action="append", default=[], help="name=command, timed in the same rounds")
    a = p.parse_args()

    go = [a.arbiter, "agreement", "--format", "csv", "--level", a.level, "--input", a.csv]
    cmds = {
        "python": [sys.executable, os.path.join(HERE, "krippendorff_alpha.py"), a.csv, a.level],
        "alpha": go + ["--metrics", "alpha"],
        "full": go,
    }
    for also in a.also:
        name, cmd = also.split("=", 1)
        cmds[name] = shlex.split(cmd)

    ref = float(run(cmds["python"])[0])
    for name in ("alpha", "full"):
        got = json.loads(run(cmds[name])[0])["krippendorff_alpha"]
        if abs(got - ref) > 1e-12:
            sys.exit(f"{name}: alpha {got!r}, krippendorff package {ref!r}")

    load_before = os.getloadavg()
    wall = {n: [] for n in cmds}
    cpu = {n: [] for n in cmds}
    names = list(cmds)
    for r in range(a.rounds):
        for n in names if r % 2 == 0 else reversed(names):
            _, w, c = run(cmds[n])
            wall[n].append(w)
            cpu[n].append(c)
    load_after = os.getloadavg()

    ms = lambda x: f"{1000 * x:.0f} ms" if x < 1 else f"{x:.2f} s"  # noqa: E731
    times = lambda x: f"{x:.1f}×"  # noqa: E731
    print(f"{a.rounds} rounds, {a.csv}, level {a.level}; alpha {ref!r}")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    print()
    print("| command | wall min / median / max | CPU min / median / max "
          "| Python ÷ command per round, wall | rounds ≥ 10× | CPU |")
    print("|---|---|---|---|---|---|")
    for n in names:
        rw = [p / x for p, x in zip(wall["python"], wall[n])]
        rc = [p / x for p, x in zip(cpu["python"], cpu[n])]
        print(f"| {n}: `{shlex.join(cmds[n])}` | {spread(wall[n], ms)} | {spread(cpu[n], ms)} "
              f"| {spread(rw, times)} | {sum(r >= 10 for r in rw)} of {len(rw)} | {spread(rc, times)} |")


if __name__ == "__main__":
    main()
