#!/usr/bin/env python3
"""Writes N partition folders of one run, as `robotci run --partition K/N` leaves them, for the
merge benchmark.

usage: generate.py OUT_DIR [TESTS] [PARTITIONS] [HISTORY_RUNS]

Each folder `OUT_DIR/pK` holds what merge reads: results.json (robotci-results-v2, with the
plan: this machine's share and the whole suite, an even split, digests as robotci computes
them), timings.json (the whole suite's durations, as a CI cache restores them before a run),
history.json (its share's tests over HISTORY_RUNS earlier runs plus this one) and the
attachments of failing attempts. Outcomes as bench/report: ~5% flaky, ~1% failing, ~0.5%
skipped. index.html and junit.xml are left out: merge does not read them.
"""
import json
import os
import random
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 29
rng = random.Random(41)


def fnv(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def digest(ids):
    return format(fnv("\n".join(sorted(ids))), "x") + f"-{len(ids)}"


suite = sorted(f"BigSuite.Feature{i // 25}Tests/test{i % 25}_scenarioNumber{i}" for i in range(count))
suite_digest = digest(suite)
split_digest = "even-" + format(fnv(f"even\n{n}\n" + suite_digest), "x")
split_words = f"an even split of the {count} selected tests (sorted by id, dealt round-robin)"
durations = {t: 0.2 + rng.randrange(4000) / 1000 for t in suite}
timings = json.dumps({"version": 1, "tests": durations}, sort_keys=True)
started = 1700000000
history_runs = [{"id": f"bench-{k}", "startedAt": started - (runs - k) * 3600, "commit": f"{k:040x}"} for k in range(runs)]
noise = "2024-01-01 12:00:00.000 step ok: tapped element 'button' in view hierarchy\n" * 110

for k in range(1, n + 1):
    share = suite[k - 1::n]
    folder = os.path.join(out, f"p{k}")
    os.makedirs(folder, exist_ok=True)
    clock = [0.0, 0.0]
    tests, batch_tests, hist = [], [[], []], {}
    for tid in share:
        roll = rng.randrange(1000)
        kinds = (["failed", "passed"] if roll < 50 else ["failed"] * 3 if roll < 60
                 else ["skipped"] if roll < 65 else ["passed"])
        attempts = []
        for number, kind in enumerate(kinds, 1):
            w = rng.randrange(2)
            duration = durations[tid] if kind == "passed" else 0.2 + rng.randrange(4000) / 1000
            failing = kind == "failed"
            artifacts = []
            if failing:
                base = f"attachments/{tid.replace('/', '.')}/{number}"
                os.makedirs(os.path.join(folder, base), exist_ok=True)
                for akind, name in [("log", "output.log"), ("screenshot", "screenshot.png")]:
                    with open(os.path.join(folder, base, name), "w") as f:
                        f.write(noise[:2000])
                    artifacts.append({"kind": akind, "path": f"{base}/{name}"})
            attempts.append({
                "number": number, "outcome": kind, "duration": duration, "start": clock[w], "worker": w, "batch": w,
                "failures": [{"file": "/ci/work/Tests/BigSuite/Feature.swift", "line": 42,
                              "message": f"XCTAssertTrue failed - element 'checkout.button.{tid[-6:]}' not hittable"}] if failing else [],
                "output": noise if failing else f"Test Case '{tid}' passed ({duration:.3f} seconds).\n",
                "artifacts": artifacts,
            })
            clock[w] += duration
            if tid not in batch_tests[w]:
                batch_tests[w].append(tid)
        outs = [a["outcome"] for a in attempts]
        outcome = ("flaky" if outs[-1] == "passed" and "failed" in outs else
                   "passed" if outs[-1] == "passed" else outs[-1])
        tests.append({"id": tid, "outcome": outcome, "attempts": attempts, "quarantined": False})
        letter = {"passed": "P", "flaky": "K", "failed": "F", "skipped": "S"}[outcome]
        ms = int(durations[tid] * 1000)
        earlier = ["P" if rng.randrange(100) < 97 else "K" for _ in range(runs)]
        hist[tid] = {"a": [2 if c == "K" else 1 for c in earlier] + [len(attempts)],
                     "d": [ms] * runs + [int(attempts[-1]["duration"] * 1000)],
                     "o": "".join(earlier) + letter}
    batches = [{"id": w, "worker": w, "start": 0.0, "end": clock[w], "tests": batch_tests[w], "termination": "exit 0"}
               for w in range(2) if batch_tests[w]]
    meta = {"runID": "ci-41", "runIDSource": "CI_PIPELINE_ID (GitLab)", "startedAt": started + rng.randrange(30),
            "wallTime": max(clock), "shards": 2, "retries": 2, "robotciVersion": "bench",
            "commandLine": ["robotci", "run", "--partition", f"{k}/{n}"], "gitCommit": "0" * 40, "gitBranch": "main",
            "hostname": f"ci-runner-{k}", "partition": f"{k}/{n}", "partitionPlan": split_digest, "interrupted": False}
    plan = {"tests": share, "digest": digest(share),
            "partition": {"index": k, "count": n, "suite": suite, "suiteDigest": suite_digest,
                          "split": split_words, "splitDigest": split_digest}}
    result = {"format": "robotci-results-v2", "metadata": meta, "tests": tests, "batches": batches, "plan": plan}
    with open(os.path.join(folder, "results.json"), "w") as f:
        json.dump(result, f, sort_keys=True)
    with open(os.path.join(folder, "timings.json"), "w") as f:
        f.write(timings)
    history = {"format": "robotci-history-v1",
               "runs": history_runs + [{"id": "ci-41", "startedAt": started, "commit": "0" * 40}], "tests": hist}
    with open(os.path.join(folder, "history.json"), "w") as f:
        json.dump(history, f, sort_keys=True)
