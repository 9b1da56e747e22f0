import os

_broken = []


def pytest_runtest_logreport(report):
    if report.when == "call" and report.nodeid.endswith("::test_breaks_the_session"):
        _broken.append(report.nodeid)


def pytest_unconfigure(config):
    # After the JUnit file is written (pytest_sessionfinish): the process fails though
    # every case in the file passed, as a plugin's own error would make it.
    if _broken:
        os._exit(3)
