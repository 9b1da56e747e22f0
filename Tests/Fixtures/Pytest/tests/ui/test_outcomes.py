"""Every verdict robotci must give a pytest suite through the command driver."""
import os

import pytest


def test_passes():
    assert 2 + 2 == 4


def test_fails():
    total = 2 + 2
    assert total == 5, "two and two"


def test_flaky():
    # Fails on the first attempt only: robotci's retry must turn it into "flaky".
    attempt = os.environ.get("ROBOTCI_ATTEMPT")
    assert attempt != "1", "first attempt fails on purpose"


@pytest.mark.skip(reason="not on this platform")
def test_skipped():
    pass


@pytest.mark.parametrize("value", [2, 4, "it's"])
def test_parametrized(value):
    assert value is not None


class TestLogin:
    def test_in_a_class(self):
        assert "robot".upper() == "ROBOT"


def test_prints_its_environment():
    # Careless but common: robotci must mask secret-looking values before they reach a report.
    print("DEPLOY_TOKEN is", os.environ.get("DEPLOY_TOKEN", "unset"))
    assert os.environ.get("DEPLOY_TOKEN") == "wrong on purpose", dict(os.environ)
