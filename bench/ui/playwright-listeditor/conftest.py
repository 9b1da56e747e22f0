"""pytest-playwright setup for the port of Examples/ListEditor's robot suite.

The same machinery as ../playwright (the CharacterApp port), whose mock server it shares: one
browser per pytest worker, a new BrowserContext + page per test, Debian's Chromium through
`executable_path`, and a mock backend per test that also serves the app's folder, as the
Swift suite's `serveFolder` does, so page and API share one origin.
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "playwright"))

from mockserver import MockServer  # noqa: E402

CHROMIUM = os.environ.get("BENCH_UI_CHROMIUM", "/usr/bin/chromium")
APP_FOLDER = os.path.realpath(os.path.join(HERE, "..", "..", "..", "Examples", "ListEditor", "app"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # The switches RobotKit gives Chromium that matter here (as in ../playwright/conftest.py).
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--disable-gpu", "--disable-dev-shm-usage", "--force-device-scale-factor=1",
            "--disable-extensions", "--no-first-run", "--disable-component-update",
            "--disable-features=Translate,MediaRouter,OptimizationHints", "--mute-audio",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # RobotKit's default window size.
    return {**browser_context_args, "viewport": {"width": 1024, "height": 768}}


@pytest.fixture
def mock():
    """The test's own mock backend, serving the app's folder at /app/ (ListEditorUITestCase.setUp)."""
    server = MockServer()
    server.serve_folder(APP_FOLDER, at="/app/")
    yield server
    server.stop()


@pytest.fixture
def launch(page, mock):
    """`launch()` / `launch(route:)`: open <mock>/app/[#route] in the test's fresh context and
    wait for the load event (RobotKit waits for readyState complete). No API_BASE_URL, as
    UITestCase hands none to a page the mock serves itself: the app calls its own origin."""
    def _launch(route=None):
        url = mock.base_url + "/app/"
        if route is not None:
            url += "#" + route
        page.goto(url, wait_until="load")
        return page
    return _launch
