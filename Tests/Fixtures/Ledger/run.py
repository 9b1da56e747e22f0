"""Writes JUnit for the ids given (the command driver's run step).
test_alternating: passes, then fails, then passes… one verdict per execution, counted in the
file $LEDGER_COUNTER. test_fails always fails, test_passes always passes. test_retry_flaky
fails its first attempt when $LEDGER_RETRY_FLAKY is 1 (flaky within a run), else passes."""
import os
import sys

junit, ids = sys.argv[1], sys.argv[2:]
cases = []
for test_id in ids:
    cls, name = test_id.rsplit("/", 1)
    failed = False
    if name == "test_alternating":
        path = os.environ["LEDGER_COUNTER"]
        n = int(open(path).read() or "0") if os.path.exists(path) else 0
        with open(path, "w") as f:
            f.write(str(n + 1))
        failed = n % 2 == 1
    elif name == "test_fails":
        failed = True
    elif name == "test_retry_flaky":
        failed = os.environ.get("LEDGER_RETRY_FLAKY") == "1" and os.environ.get("ROBOTCI_ATTEMPT", "1") == "1"
    body = '<failure message="%s failed">on purpose</failure>' % name if failed else ""
    cases.append('<testcase classname="%s" name="%s" time="0.01">%s</testcase>' % (cls, name, body))
with open(junit, "w") as f:
    f.write('<?xml version="1.0"?><testsuites><testsuite name="s" tests="%d">%s</testsuite></testsuites>\n'
            % (len(cases), "".join(cases)))
