#!/usr/bin/env python3
"""Helpers of bench/ui/run (reading robotci reports, process scans, summaries).

  lib.py check-robotci REPORT_DIR EXPECTED          all EXPECTED tests passed, one attempt each?
  lib.py overhead REPORT_DIR...                     per-test overhead from the reports (see README)
  lib.py probe REPORT_DIR                           launch/terminate timings printed by the probe tests
  lib.py procs                                      "pid comm" of every chromium/chromedriver process
  lib.py leftovers BEFORE_FILE TAG                  those not in BEFORE_FILE: "pid comm tagged|untagged"
  lib.py busy                                       busy CPU-seconds of the whole machine so far (/proc/stat)
  lib.py summary WALLS_FILE TARGET TESTS            best walls, CPU-seconds per test, ratios
"""
import json
import os
import statistics
import sys

NAMES = ("chromium", "chromedriver", "chrome")


def load(report):
    with open(os.path.join(report, "results.json")) as f:
        return json.load(f)


def tests_of(result):
    """The test records of a results.json, whatever the exact nesting."""
    for key in ("tests", "records"):
        if isinstance(result.get(key), list):
            return result[key]
    raise SystemExit(f"results.json: no test list among keys {sorted(result)}")


def outcome(attempt):
    o = attempt.get("outcome")
    return o if isinstance(o, str) else json.dumps(o, sort_keys=True)


def name_of(test):
    t = test.get("id", test.get("name", "?"))
    return t if isinstance(t, str) else json.dumps(t, sort_keys=True)


def check_robotci(report, expected):
    tests = tests_of(load(report))
    bad = []
    for t in tests:
        attempts = t.get("attempts", [])
        if len(attempts) != 1 or "pass" not in outcome(attempts[0]).lower():
            bad.append(f"{name_of(t)}: {[outcome(a) for a in attempts]}")
    if len(tests) != expected or bad:
        print(f"robotci report {report}: {len(tests)} tests (expected {expected}); not passed at the first try: {bad}")
        return 1
    return 0


def step_seconds(report, attempt):
    """Sum of the robot step durations in the attempt's steps.json, or None without one."""
    for artifact in attempt.get("artifacts", []):
        if artifact.get("kind") == "steps" or artifact.get("path", "").endswith("steps.json"):
            path = os.path.join(report, artifact["path"])
            try:
                with open(path) as f:
                    steps = json.load(f)
            except (OSError, ValueError):
                return None
            if isinstance(steps, dict):
                steps = steps.get("steps", [])
            return sum(float(s.get("duration", 0)) for s in steps)
    return None


def overhead(reports):
    per_test, missing, total = [], 0, 0
    for report in reports:
        for t in tests_of(load(report)):
            for a in t.get("attempts", []):
                total += 1
                s = step_seconds(report, a)
                if s is None:
                    missing += 1
                    continue
                per_test.append(max(0.0, float(a["duration"]) - s))
    if not per_test:
        print(f"n/a (no steps.json in {total} attempts: this RobotKit writes no steps for passing tests; see --probe)")
        return 0
    q = statistics.quantiles(per_test, n=4) if len(per_test) > 1 else per_test * 3
    print(f"median {statistics.median(per_test):.3f} s over {len(per_test)} test runs "
          f"(quartiles {q[0]:.3f} / {q[2]:.3f} s, max {max(per_test):.3f} s"
          + (f"; {missing} attempts without steps.json skipped" if missing else "") + ")")
    return 0


def probe(report):
    """Lines `BENCH_UI_PROBE launch=S terminate=S` from the probe tests' output."""
    launches, terminates = [], []
    for t in tests_of(load(report)):
        for a in t.get("attempts", []):
            for line in a.get("output", "").splitlines():
                if "BENCH_UI_PROBE" in line:
                    fields = dict(p.split("=", 1) for p in line.split() if "=" in p)
                    launches.append(float(fields["launch"]))
                    terminates.append(float(fields["terminate"]))
    if not launches:
        print("n/a (no BENCH_UI_PROBE lines in the probe report)")
        return 1
    both = [a + b for a, b in zip(launches, terminates)]
    print(f"median {statistics.median(both):.3f} s over {len(both)} tests "
          f"(launch + first navigation {statistics.median(launches):.3f} s, terminate {statistics.median(terminates):.3f} s; "
          f"first test {both[0]:.3f} s, max {max(both):.3f} s)")
    return 0


def procs():
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
        except OSError:
            continue
        if comm in NAMES:
            out.append((int(pid), comm))
    return sorted(out)


def leftovers(before_file, tag):
    with open(before_file) as f:
        before = {int(line.split()[0]) for line in f if line.strip()}
    for pid, comm in procs():
        if pid in before:
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                tagged = f"BENCH_UI_TAG={tag}".encode() in f.read().split(b"\0")
        except OSError:
            continue  # gone meanwhile
        print(pid, comm, "tagged" if tagged else "untagged")
    return 0


def busy():
    """Busy CPU-seconds of all CPUs since boot: user+nice+system+irq+softirq+steal jiffies
    (idle and iowait left out), over the clock tick."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    print(f"{(sum(fields) - fields[3] - fields[4]) / os.sysconf('SC_CLK_TCK'):.2f}")
    return 0


def summary(walls_file, target, tests):
    """One line per variant, then the issue's ratios. A line of walls_file is
    `label|wall|busy CPU|tree CPU` (tree CPU "-" when no cgroup could be made)."""
    walls, cpus = {}, {}
    with open(walls_file) as f:
        for line in f:
            variant, wall, busy, tree = line.rstrip("\n").split("|")
            walls.setdefault(variant, []).append(float(wall))
            cpus.setdefault(variant, []).append(float(tree) if tree != "-" else float(busy))
    measure = "tree" if all("|-" not in l for l in open(walls_file)) else "whole-machine busy"
    tests = int(tests)
    def fmt(xs):
        return ", ".join(f"{x:.2f}" for x in xs)
    print(f"  {'':50s} wall best / median       {measure} CPU, median (per test)")
    for variant, xs in walls.items():
        c = statistics.median(cpus[variant])
        print(f"  {variant:50s} {min(xs):6.2f} s / {statistics.median(xs):6.2f} s   {c:6.1f} CPU-s ({c / tests:.2f} per test)"
              f"   walls: {fmt(xs)}; CPU-s: {fmt(cpus[variant])}")
    p = [min(xs) for v, xs in walls.items() if v.startswith("pytest")]
    for mode, keep in (("default isolation (context)", lambda v: "isolation" not in v),
                       ("--isolation reset", lambda v: "isolation reset" in v)):
        r = [min(xs) for v, xs in walls.items() if v.startswith("robotci") and "adaptive-concurrency off" not in v and keep(v)]
        if r and p:
            ratio = min(r) / min(p)
            print(f"  best robotci, {mode}, {min(r):.2f} s, best Playwright {min(p):.2f} s (any browser, any workers): "
                  f"ratio robotci/Playwright = {ratio:.2f} (target <= {target}: {'met' if ratio <= float(target) else 'NOT met'})")
    for ours, theirs, what in (("robotci --shards 1", "pytest serial", "both on the headless shell"),
                               ("robotci --shards 1 --isolation reset", "pytest serial", "both on the headless shell, robotci --isolation reset"),
                               ("robotci --shards 1, full chromium", "pytest serial, full chromium", "both on the full browser"),
                               ("robotci --shards 1", "pytest serial, full chromium", "robotci's default against the port as first written")):
        rc, pc = cpus.get(ours), cpus.get(theirs)
        if rc and pc:
            ratio = statistics.median(rc) / statistics.median(pc)
            print(f"  CPU per test, serial, {what} (median): robotci {statistics.median(rc) / tests:.2f} CPU-s, Playwright "
                  f"{statistics.median(pc) / tests:.2f} CPU-s: ratio = {ratio:.2f} (target <= 0.5: {'met' if ratio <= 0.5 else 'NOT met'})")
    s1 = walls.get("robotci --shards 1")
    s2 = walls.get("robotci --shards 2")
    s8 = walls.get("robotci --shards 8")
    off = walls.get("robotci --shards 8 --adaptive-concurrency off")
    if s1 and s2:
        print(f"  robotci --shards 2 vs --shards 1 (best): {min(s2) / min(s1):.2f} x")
    if s2 and s8:
        r = statistics.median(s8) / statistics.median(s2)
        print(f"  robotci --shards 8 vs --shards 2 (median): {r:.2f} x (target <= 1.1: {'met' if r <= 1.1 else 'NOT met'})"
              f"; best: {min(s8) / min(s2):.2f} x")
    if s8 and off:
        print(f"  robotci --shards 8, adaptive concurrency off vs on (median): {statistics.median(off) / statistics.median(s8):.2f} x")
    return 0


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "check-robotci":
        return check_robotci(argv[2], int(argv[3]))
    if cmd == "overhead":
        return overhead(argv[2:])
    if cmd == "probe":
        return probe(argv[2])
    if cmd == "procs":
        for pid, comm in procs():
            print(pid, comm)
        return 0
    if cmd == "leftovers":
        return leftovers(argv[2], argv[3])
    if cmd == "busy":
        return busy()
    if cmd == "summary":
        return summary(argv[2], argv[3], argv[4])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
