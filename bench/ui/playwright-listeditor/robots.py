"""The Swift suite's robots (Tests/ListEditorUITests/Robots/*.swift) in Playwright.

Same lookups, same waits, same checks, method by method:

- `app.textFields[id]`, `app.switches[id]`, `app.buttons[id]`, `app.staticTexts[id]`,
  `app.cells[id]` (identifier = data-testid) → `page.get_by_test_id(id)`;
- `app.links["Active"]` (accessible name) → `get_by_role("link", name="Active", exact=True)`;
- predicate queries: `staticTexts.matching(label ENDSWITH "left")` → `get_by_text(re.compile("left$"))`,
  `buttons.matching(label BEGINSWITH[c] "clear")` → `get_by_role("button", name=re.compile("^clear", re.I))`;
- `waitForExistence` / `waitForNonExistence` → `wait_for(state="visible" / "hidden")`;
- `wait(for: \\.label, toEqual:)` → `expect(...).to_have_text(...)`; `wait(for: \\.isSelected, toEqual:)`
  → `to_be_checked(checked=...)` (a checkbox) or `aria-current="page"` (a filter link);
  a query's `wait(for: \\.count, toEqual:)` → `to_have_count(...)`; all with the same 5 s;
- `tap()` → `click()`; `doubleTap()` → `dblclick()`; `typeText` → `press_sequentially`;
  `typeKey(.enter / .escape)` → `press("Enter" / "Escape")`; `clearText()` → select + Backspace;
- `app.goBack()` / `goForward()` / `reload()` → `page.go_back()` / `go_forward()` / `reload()`.
"""
import re

from playwright.sync_api import Page, expect

TIMEOUT = 5000


def wait_for_existence(locator):
    locator.wait_for(state="visible", timeout=TIMEOUT)


def wait_for_non_existence(locator):
    locator.wait_for(state="hidden", timeout=TIMEOUT)


class ListEditorRobot:
    NEW_ITEM_FIELD = "listEditor.newItemField"
    LIST = "listEditor.list"
    TOGGLE_ALL = "listEditor.toggleAll"
    LOADING = "listEditor.loading"
    ERROR = "listEditor.error"
    ERROR_TEXT = "listEditor.errorText"
    RETRY_BUTTON = "listEditor.retryButton"

    def __init__(self, page: Page):
        self.page = page

    def _id(self, suffix):
        return self.page.get_by_test_id(suffix)

    @staticmethod
    def item(id_):
        return f"listEditor.item.{id_}"

    # Actions

    def add_item(self, title):
        return self.type_new_item(title).press_enter_in_new_item()

    def type_new_item(self, text):
        field = self._id(self.NEW_ITEM_FIELD)
        wait_for_existence(field)
        field.click()
        field.press_sequentially(text)
        return self

    def press_enter_in_new_item(self):
        self._id(self.NEW_ITEM_FIELD).press("Enter")
        return self

    def double_tap_item(self, id_):
        title = self._id(self.item(id_) + ".title")
        wait_for_existence(title)
        title.dblclick()
        return self

    def replace_edit_text(self, id_, text):
        field = self._id(self.item(id_) + ".editField")
        wait_for_existence(field)
        field.select_text()
        field.press("Backspace")
        field.press_sequentially(text)
        return self

    def append_edit_text(self, id_, text):
        field = self._id(self.item(id_) + ".editField")
        wait_for_existence(field)
        field.press_sequentially(text)
        return self

    def press_key_in_edit_field(self, id_, key):
        field = self._id(self.item(id_) + ".editField")
        wait_for_existence(field)
        field.press(key)
        return self

    def toggle_item(self, id_):
        checkbox = self._id(self.item(id_) + ".toggle")
        wait_for_existence(checkbox)
        checkbox.click()
        return self

    def delete_item(self, id_):
        button = self._id(self.item(id_) + ".delete")
        wait_for_existence(button)
        button.click()
        return self

    def tap_toggle_all(self):
        checkbox = self._id(self.TOGGLE_ALL)
        wait_for_existence(checkbox)
        checkbox.click()
        return self

    def tap_retry(self):
        button = self._id(self.RETRY_BUTTON)
        wait_for_existence(button)
        button.click()
        return self

    def reload(self):
        self.page.reload()
        return self

    # Verifications

    def verify_is_loaded(self):
        wait_for_non_existence(self._id(self.LOADING))
        assert not self._id(self.ERROR).is_visible(), "an error shows"
        return self

    def verify_item(self, id_, title):
        label = self._id(self.item(id_) + ".title")
        wait_for_existence(label)
        expect(label).to_have_text(title, timeout=TIMEOUT)
        return self

    def verify_item_is_absent(self, id_):
        wait_for_non_existence(self._id(self.item(id_)))
        return self

    def verify_item_count(self, count):
        expect(self._id(self.LIST).get_by_role("listitem")).to_have_count(count, timeout=TIMEOUT)
        return self

    def verify_list_is_empty(self):
        wait_for_non_existence(self._id(self.LIST))
        assert not self._id(self.TOGGLE_ALL).is_visible()
        return self

    def verify_item_is_completed(self, id_, completed):
        checkbox = self._id(self.item(id_) + ".toggle")
        wait_for_existence(checkbox)
        expect(checkbox).to_be_checked(checked=completed, timeout=TIMEOUT)
        return self

    def verify_toggle_all_is_checked(self, checked):
        checkbox = self._id(self.TOGGLE_ALL)
        wait_for_existence(checkbox)
        expect(checkbox).to_be_checked(checked=checked, timeout=TIMEOUT)
        return self

    def verify_edit_field(self, id_, text):
        field = self._id(self.item(id_) + ".editField")
        wait_for_existence(field)
        assert field.input_value() == text
        expect(field).to_be_focused(timeout=0)
        return self

    def verify_is_not_editing(self, id_):
        wait_for_non_existence(self._id(self.item(id_) + ".editField"))
        return self

    def verify_new_item_field(self, text):
        field = self._id(self.NEW_ITEM_FIELD)
        wait_for_existence(field)
        assert field.input_value() == text
        return self

    def verify_error(self, message, can_retry):
        text = self._id(self.ERROR_TEXT)
        wait_for_existence(text)
        expect(text).to_have_text(message, timeout=TIMEOUT)
        assert self._id(self.RETRY_BUTTON).is_visible() == can_retry, "Retry"
        return self

    def verify_no_error(self):
        wait_for_non_existence(self._id(self.ERROR))
        return self


class FooterRobot:
    def __init__(self, page: Page):
        self.page = page

    def _link(self, name):
        return self.page.get_by_role("link", name=name, exact=True)

    def _counter(self):
        return self.page.get_by_text(re.compile(r"left$")).first

    def _clear_completed(self):
        return self.page.get_by_role("button", name=re.compile(r"^clear", re.I)).first

    # Actions

    def tap_filter(self, name):
        link = self._link(name)
        wait_for_existence(link)
        link.click()
        return self

    def tap_clear_completed(self):
        button = self._clear_completed()
        wait_for_existence(button)
        button.click()
        return self

    def go_back(self):
        self.page.go_back()
        return self

    def go_forward(self):
        self.page.go_forward()
        return self

    # Verifications

    def verify_counter(self, text):
        counter = self._counter()
        wait_for_existence(counter)
        expect(counter).to_have_text(text, timeout=TIMEOUT)
        return self

    def verify_is_hidden(self):
        wait_for_non_existence(self._counter())
        assert not self._link("All").is_visible()
        return self

    def verify_selected_filter(self, name):
        link = self._link(name)
        wait_for_existence(link)
        expect(link).to_have_attribute("aria-current", "page", timeout=TIMEOUT)
        for other in ("All", "Active", "Completed"):
            if other != name:
                assert self._link(other).get_attribute("aria-current") is None, f"{other} is selected too"
        return self

    def verify_clear_completed_is_visible(self):
        wait_for_existence(self._clear_completed())
        return self

    def verify_clear_completed_is_hidden(self):
        wait_for_non_existence(self._clear_completed())
        return self
