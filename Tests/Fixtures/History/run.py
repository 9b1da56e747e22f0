"""Writes JUnit for the ids given. test_wobbly fails the first attempt of every other run:
the run number is a counter in $HISTORY_COUNTER, bumped on each first attempt of it."""
import os
import sys

junit, ids = sys.argv[1], sys.argv[2:]
cases = []
for test_id in ids:
    cls, name = test_id.rsplit("/", 1)
    failed = False
    if name == "test_wobbly" and os.environ.get("ROBOTCI_ATTEMPT", "1") == "1":
        path = os.environ["HISTORY_COUNTER"]
        n = int(open(path).read() or "0") if os.path.exists(path) else 0
        with open(path, "w") as f:
            f.write(str(n + 1))
        failed = n % 2 == 0
    body = '<failure message="wobbly failed on run %d">flaky on purpose</failure>' % n if failed else ""
    cases.append('<testcase classname="%s" name="%s" time="0.05">%s</testcase>' % (cls, name, body))
with open(junit, "w") as f:
    f.write('<?xml version="1.0"?><testsuites><testsuite name="s" tests="%d">%s</testsuite></testsuites>\n'
            % (len(cases), "".join(cases)))
