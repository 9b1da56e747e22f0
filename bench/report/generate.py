#!/usr/bin/env python3
"""Writes a synthetic results.json (robotci-results-v1) for the report benchmark.

usage: generate.py OUT.json [TESTS] [SHARDS] [typical|worst] [HISTORY.json RUNS]
typical: ~5% flaky (2 attempts), ~1% failing (3 attempts), ~0.5% skipped, the rest passed;
failing attempts carry 8 KB of output, a failure with file:line and log/screenshot links.
worst: every test fails 3 times, each attempt with 8 KB of output, a 1 KB message and
five artifacts (log, screenshot, steps, mock, accessibility).
"""
import json
import random
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
shards = int(sys.argv[3]) if len(sys.argv) > 3 else 8
worst = len(sys.argv) > 4 and sys.argv[4] == "worst"
rng = random.Random(42)
noise = "2024-01-01 12:00:00.000 step ok: tapped element 'button' in view hierarchy\n" * 110
clock = [0.0] * shards
batch_tests = [[] for _ in range(shards)]
batch_start = [0.0] * shards
batches, tests = [], []


ARTIFACTS = [("log", "output.log"), ("screenshot", "screenshot.png"), ("steps", "steps.json"),
             ("mock", "mock-requests.json"), ("accessibility", "accessibility.txt")]


def close_batch(w):
    batches.append({"id": len(batches), "worker": w, "start": batch_start[w], "end": clock[w],
                    "tests": batch_tests[w], "termination": "exit 0"})
    batch_tests[w] = []


for i in range(count):
    tid = f"BigSuite.Feature{i // 25}Tests/test{i % 25}_scenarioNumber{i}"
    roll = rng.randrange(1000)
    kinds = (["failed"] * 3 if worst else ["failed", "passed"] if roll < 50 else ["failed"] * 3 if roll < 60
             else ["skipped"] if roll < 65 else ["passed"])
    attempts = []
    for n, kind in enumerate(kinds):
        w = rng.randrange(shards)
        duration = 0.2 + rng.randrange(4000) / 1000
        failing = kind == "failed"
        attempts.append({
            "number": n + 1, "outcome": kind, "duration": duration, "start": clock[w], "worker": w,
            "batch": len(batches),
            "failures": [{"file": f"/ci/work/Tests/BigSuite/Feature{i // 25}Tests.swift", "line": 10 + i % 90,
                          "message": f"XCTAssertTrue failed - element 'checkout.button.{i}' not hittable"
                                     + (" detail" * 150 if worst else "")}] if failing else [],
            "output": noise if failing else f"Test Case 'test{i % 25}' passed ({duration:.3f} seconds).\n",
            "artifacts": [{"kind": kind, "path": f"attachments/{tid.replace('/', '.')}/{n + 1}/{name}"}
                          for kind, name in ARTIFACTS[:5 if worst else 2]] if failing else [],
        })
        clock[w] += duration
        batch_tests[w].append(tid)
        if len(batch_tests[w]) == 40:
            close_batch(w)
            clock[w] += 0.3
            batch_start[w] = clock[w]
    passed = [a["outcome"] for a in attempts]
    outcome = ("flaky" if passed[-1] == "passed" and "failed" in passed else
               "passed" if passed[-1] == "passed" else passed[-1])
    tests.append({"id": tid, "outcome": outcome, "attempts": attempts, "quarantined": False})
for w in range(shards):
    if batch_tests[w]:
        close_batch(w)

result = {
    "format": "robotci-results-v1",
    "metadata": {"runID": "bench", "startedAt": 1700000000, "wallTime": max(clock), "shards": shards, "retries": 2,
                 "robotciVersion": "bench", "commandLine": ["robotci", "run", "--shards", str(shards)],
                 "gitCommit": "0" * 40, "gitBranch": "main", "interrupted": False},
    "tests": tests,
    "batches": batches,
}
with open(out, "w") as f:
    json.dump(result, f)

# history.json of RUNS earlier runs (robotci-history-v1): ~3% of tests flake now and then,
# ~1% fail in some runs, the rest pass; durations wander around each test's own.
if len(sys.argv) > 6:
    hist_out, runs = sys.argv[5], int(sys.argv[6])
    run_table = [{"id": f"bench-{k}", "startedAt": 1700000000 - (runs - k) * 3600, "commit": f"{k:040x}"} for k in range(runs)]
    htests = {}
    for t in tests:
        roll = rng.randrange(100)
        base = int(t["attempts"][0]["duration"] * 1000)
        letters, ds, ats = [], [], []
        for k in range(runs):
            r = rng.randrange(100)
            c = ("K" if roll < 3 and r < 30 else "F" if roll < 4 and r < 20 else "-" if r == 99 else "P")
            letters.append(c)
            ds.append(-1 if c == "-" else max(1, base + rng.randrange(-base // 4 - 1, base // 4 + 1)))
            ats.append(0 if c == "-" else 2 if c == "K" else 3 if c == "F" else 1)
        htests[t["id"]] = {"o": "".join(letters), "d": ds, "a": ats}
    with open(hist_out, "w") as f:
        json.dump({"format": "robotci-history-v1", "runs": run_table, "tests": htests}, f)
