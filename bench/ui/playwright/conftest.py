"""pytest-playwright setup for the port of Examples/CharacterApp's robot suite.

One browser per pytest worker (pytest-playwright's session-scoped `browser`), a new
BrowserContext + page per test (its default `page` fixture), Debian's Chromium through
`executable_path` (never `playwright install`), and a mock backend per test (`mock`).
"""
import os
import sys
from urllib.parse import quote

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mockserver import MockServer  # noqa: E402

CHROMIUM = os.environ.get("BENCH_UI_CHROMIUM", "/usr/bin/chromium")
APP_PAGE = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                         "Examples", "CharacterApp", "app", "index.html"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # The switches RobotKit gives Chromium (WebApp.chromiumArguments) that matter here;
    # Playwright adds its own automation defaults (and --no-sandbox, as root needs).
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--disable-gpu", "--disable-dev-shm-usage", "--force-device-scale-factor=1",
            "--disable-extensions", "--no-first-run", "--disable-component-update",
            "--disable-features=Translate,MediaRouter,OptimizationHints", "--mute-audio",
            "--allow-file-access-from-files",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # RobotKit's default window size.
    return {**browser_context_args, "viewport": {"width": 1024, "height": 768}}


@pytest.fixture
def mock():
    """The test's own mock backend (UITestCase creates one in setUp, stops it in tearDown)."""
    server = MockServer()
    yield server
    server.stop()


@pytest.fixture
def launch(page, mock):
    """`launch()` / `launch(deepLink:)`: open app/index.html?API_BASE_URL=<mock>[#route] in the
    test's fresh context and wait for the load event (RobotKit waits for readyState complete)."""
    def _launch(deep_link=None):
        url = "file://" + quote(APP_PAGE) + "?API_BASE_URL=" + mock.base_url
        if deep_link is not None:
            url += "#" + deep_link
        page.goto(url, wait_until="load")
        return page
    return _launch
