"""The Swift suite's robots (Tests/CharacterAppUITests/Robots/*.swift) in Playwright.

Same lookups, same waits, same checks, method by method:

- `app.buttons[id]`, `app.staticTexts[id]`, `app.scrollViews[id]`, `app.otherElements[id]`,
  `app.cells[id]`, `app.textFields[id]` (identifier = data-testid) → `page.get_by_test_id(id)`;
- `app.navigationBars.buttons.element(boundBy: 0)` (RobotKit: a top-level <header> is a
  navigation bar) → `get_by_role("banner").get_by_role("button").first` (same rule: a
  <header> not inside article/aside/main/nav/section);
- `scrollViews[id].cells` (<li>) → `get_by_test_id(id).get_by_role("listitem")`;
- `waitForExistence(timeout: t)` → `wait_for(state="visible", timeout=t)` (RobotKit's
  "exists" means present and visible); `waitForNonExistence` → `wait_for(state="hidden")`;
- `.exists` → `is_visible()` (no wait); `.label` of a text → its normalized innerText, of an
  image → its alt text;
- `app.wait(until: count == n, timeout: 5)` + `XCTAssertEqual(count, n)` → `expect(...).to_have_count(n, timeout=5000)`;
- `tap()` → `click()`; `typeText` → `press_sequentially` (key by key, like WebDriver's
  send keys); `clearText()` → select the text + Backspace (what RobotKit does);
- `swipeUp()` → the same scroll RobotKit performs (its scroll container down by 80 % of its height).
"""
import re

from playwright.sync_api import Page, expect

# RobotKit's `scroll(el, 'up')` (Sources/RobotKit/Query/QueryScript.swift), verbatim in effect.
SWIPE_UP = """(el) => {
  let target = null;
  for (let n = el; n && n !== document.documentElement && n !== document.body; n = n.parentElement) {
    const s = getComputedStyle(n);
    if (/(auto|scroll|overlay)/.test(s.overflowY + ' ' + s.overflowX) &&
        (n.scrollHeight > n.clientHeight || n.scrollWidth > n.clientWidth)) { target = n; break; }
  }
  target = target || document.scrollingElement || document.documentElement;
  const page = target === document.scrollingElement || target === document.documentElement;
  target.scrollBy({ left: 0, top: (page ? innerHeight : target.clientHeight) * 0.8, behavior: 'instant' });
}"""


def label(locator):
    """RobotKit's label of a text element: innerText with whitespace collapsed."""
    return re.sub(r"\s+", " ", locator.inner_text()).strip()


def wait_for_existence(locator, timeout):
    locator.wait_for(state="visible", timeout=timeout * 1000)


class Robot:
    def __init__(self, page: Page):
        self.page = page

    def back_button(self):
        return self.page.get_by_role("banner").get_by_role("button").first


class HomeRobot(Robot):
    VIEW = "home.view"
    CHARACTER_BUTTON = "home.characterButton"

    def tap_character_button(self):
        button = self.page.get_by_test_id(self.CHARACTER_BUTTON)
        wait_for_existence(button, 5)
        button.click()
        return self

    def verify_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.VIEW), 5)
        return self


class CharacterListRobot(Robot):
    SCROLL_VIEW = "characterList.scrollView"
    SEARCH_FIELD = "characterList.searchField"
    LOAD_MORE_BUTTON = "characterList.loadMoreButton"
    EMPTY_STATE = "characterList.emptyState"
    ERROR_LABEL = "characterList.errorLabel"
    RETRY_BUTTON = "characterList.retryButton"

    @staticmethod
    def row(id_):
        return f"characterList.row.{id_}"

    # Actions

    def tap_character(self, id_):
        row = self.page.get_by_test_id(self.row(id_)).first
        wait_for_existence(row, 10)
        row.click()
        return self

    def tap_back(self):
        button = self.back_button()
        wait_for_existence(button, 5)
        button.click()
        return self

    def tap_retry(self):
        button = self.page.get_by_test_id(self.RETRY_BUTTON)
        wait_for_existence(button, 5)
        button.click()
        return self

    def scroll_down(self):
        scroll_view = self.page.get_by_test_id(self.SCROLL_VIEW)
        wait_for_existence(scroll_view, 5)
        scroll_view.evaluate(SWIPE_UP)
        return self

    def tap_load_more(self):
        button = self.page.get_by_test_id(self.LOAD_MORE_BUTTON)
        wait_for_existence(button, 5)
        button.click()
        return self

    def search(self, text):
        field = self.page.get_by_test_id(self.SEARCH_FIELD)
        wait_for_existence(field, 5)
        field.click()
        field.press_sequentially(text)
        return self

    def clear_search(self):
        field = self.page.get_by_test_id(self.SEARCH_FIELD)
        wait_for_existence(field, 5)
        field.select_text()
        field.press("Backspace")
        return self

    # Verifications

    def verify_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.SCROLL_VIEW), 5)
        return self

    def verify_character_exists(self, id_, name):
        title = self.page.get_by_test_id(f"{self.row(id_)}.title")
        wait_for_existence(title, 5)
        assert label(title) == name
        return self

    def verify_row(self, id_, name, status):
        row = self.page.get_by_test_id(self.row(id_))
        wait_for_existence(row, 5)
        assert row.get_by_test_id(f"{self.row(id_)}.image").get_attribute("alt") == name
        assert label(row.get_by_test_id(f"{self.row(id_)}.title")) == name
        assert label(row.get_by_test_id(f"{self.row(id_)}.status")) == status
        return self

    def verify_row_count(self, expected):
        rows = self.page.get_by_test_id(self.SCROLL_VIEW).get_by_role("listitem")
        expect(rows).to_have_count(expected, timeout=5000)
        return self

    def verify_load_more_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.LOAD_MORE_BUTTON), 5)
        return self

    def verify_load_more_is_hidden(self):
        self.page.get_by_test_id(self.LOAD_MORE_BUTTON).wait_for(state="hidden", timeout=5000)
        return self

    def verify_empty_state_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.EMPTY_STATE), 5)
        return self

    def verify_error_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.ERROR_LABEL), 5)
        assert self.page.get_by_test_id(self.RETRY_BUTTON).is_visible()
        return self


class CharacterDetailRobot(Robot):
    SCROLL_VIEW = "characterDetail.scrollView"
    NAME_LABEL = "characterDetail.nameLabel"
    STATUS_LABEL = "characterDetail.statusLabel"
    ERROR_LABEL = "characterDetail.errorLabel"
    RETRY_BUTTON = "characterDetail.retryButton"

    def tap_back(self):
        button = self.back_button()
        wait_for_existence(button, 5)
        button.click()
        return self

    def tap_retry(self):
        button = self.page.get_by_test_id(self.RETRY_BUTTON)
        wait_for_existence(button, 5)
        button.click()
        return self

    def verify_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.SCROLL_VIEW), 5)
        return self

    def verify_character_name(self, name):
        text = self.page.get_by_test_id(self.NAME_LABEL)
        wait_for_existence(text, 5)
        assert label(text) == name, "character name"
        return self

    def verify_status(self, status):
        text = self.page.get_by_test_id(self.STATUS_LABEL)
        wait_for_existence(text, 5)
        assert label(text) == status, "character status"
        return self

    def verify_error_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.ERROR_LABEL), 5)
        assert self.page.get_by_test_id(self.RETRY_BUTTON).is_visible()
        return self


class NotFoundRobot(Robot):
    VIEW = "notFound.view"
    MESSAGE_LABEL = "notFound.messageLabel"
    HOME_BUTTON = "notFound.homeButton"

    def tap_home_button(self):
        button = self.page.get_by_test_id(self.HOME_BUTTON)
        wait_for_existence(button, 5)
        button.click()
        return self

    def verify_is_visible(self):
        wait_for_existence(self.page.get_by_test_id(self.VIEW), 5)
        return self

    def verify_message_mentions(self, route):
        message = self.page.get_by_test_id(self.MESSAGE_LABEL)
        wait_for_existence(message, 5)
        text = label(message)
        assert route in text, f'"{text}" does not mention {route}'
        return self
