"""Port of Tests/ListEditorUITests/ListEditingUITests.swift (14 tests), step for step."""
from robots import FooterRobot, ListEditorRobot
from scenarios import given_empty_list_succeeds, given_list_succeeds, sent_bodies


def test_launch_shows_the_items_the_backend_has(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .verify_item_count(3)
        .verify_item(1, "Buy milk")
        .verify_item(2, "Walk the dog")
        .verify_item(3, "Pay rent")
        .verify_item_is_completed(1, False)
        .verify_item_is_completed(3, True))
    FooterRobot(page).verify_counter("2 items left").verify_selected_filter("All")


def test_empty_list_shows_no_list_and_no_footer(page, mock, launch):
    given_empty_list_succeeds(mock)
    launch()

    ListEditorRobot(page).verify_is_loaded().verify_list_is_empty().verify_new_item_field("")
    FooterRobot(page).verify_is_hidden()


def test_typing_and_enter_adds_an_item(page, mock, launch):
    backend = given_empty_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .add_item("Buy milk")
        .verify_item(1, "Buy milk")
        .verify_item_is_completed(1, False)
        .verify_new_item_field(""))
    FooterRobot(page).verify_counter("1 item left")

    assert sent_bodies(mock, "POST", "/todos") == [{"title": "Buy milk", "completed": False}]
    assert backend.current == [{"id": 1, "title": "Buy milk", "completed": False}]


def test_items_added_in_a_row_keep_their_order(page, mock, launch):
    given_empty_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .add_item("One").add_item("Two").add_item("Three")
        .verify_item_count(3)
        .verify_item(1, "One").verify_item(2, "Two").verify_item(3, "Three"))
    FooterRobot(page).verify_counter("3 items left")

    assert [b["title"] for b in sent_bodies(mock, "POST", "/todos")] == ["One", "Two", "Three"]


def test_blank_text_adds_nothing_and_titles_are_trimmed(page, mock, launch):
    given_empty_list_succeeds(mock)
    launch()

    robot = ListEditorRobot(page).verify_is_loaded()
    robot.type_new_item("   ").press_enter_in_new_item()
    robot.add_item("  Call mom  ").verify_item_count(1).verify_item(1, "Call mom")

    assert [b["title"] for b in sent_bodies(mock, "POST", "/todos")] == ["Call mom"]


def test_double_tap_then_enter_saves_the_new_title(page, mock, launch):
    backend = given_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .double_tap_item(2)
        .verify_edit_field(2, "Walk the dog")
        .replace_edit_text(2, "Walk the cat")
        .press_key_in_edit_field(2, "Enter")
        .verify_is_not_editing(2)
        .verify_item(2, "Walk the cat"))

    assert sent_bodies(mock, "PATCH", "/todos/2") == [{"title": "Walk the cat"}]
    assert [i["title"] for i in backend.current] == ["Buy milk", "Walk the cat", "Pay rent"]


def test_escape_cancels_the_edit(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .double_tap_item(1)
        .append_edit_text(1, " and eggs")
        .press_key_in_edit_field(1, "Escape")
        .verify_is_not_editing(1)
        .verify_item(1, "Buy milk"))

    assert len(mock.requests("PATCH", "/todos/1")) == 0, "Escape must not save"


def test_editing_to_an_empty_title_deletes_the_item(page, mock, launch):
    backend = given_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .double_tap_item(2)
        .replace_edit_text(2, "")
        .press_key_in_edit_field(2, "Enter")
        .verify_item_is_absent(2)
        .verify_item_count(2))
    FooterRobot(page).verify_counter("1 item left")

    assert len(mock.requests("DELETE", "/todos/2")) == 1
    assert [i["id"] for i in backend.current] == [1, 3]


def test_checking_an_item_completes_it(page, mock, launch):
    backend = given_list_succeeds(mock)
    launch()

    ListEditorRobot(page).verify_is_loaded().toggle_item(1).verify_item_is_completed(1, True)
    FooterRobot(page).verify_counter("1 item left")

    assert sent_bodies(mock, "PATCH", "/todos/1") == [{"completed": True}]
    assert backend.current[0]["completed"] is True


def test_unchecking_a_done_item_reopens_it(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    ListEditorRobot(page).verify_is_loaded().toggle_item(3).verify_item_is_completed(3, False)
    FooterRobot(page).verify_counter("3 items left").verify_clear_completed_is_hidden()

    assert sent_bodies(mock, "PATCH", "/todos/3") == [{"completed": False}]


def test_toggle_all_completes_only_the_open_items(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .verify_toggle_all_is_checked(False)
        .tap_toggle_all()
        .verify_item_is_completed(1, True)
        .verify_item_is_completed(2, True)
        .verify_item_is_completed(3, True)
        .verify_toggle_all_is_checked(True))
    FooterRobot(page).verify_counter("0 items left")

    assert [r.path for r in mock.all_requests if r.method == "PATCH"] == ["/todos/1", "/todos/2"]


def test_toggle_all_twice_reopens_every_item(page, mock, launch):
    backend = given_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .tap_toggle_all()
        .verify_toggle_all_is_checked(True)
        .tap_toggle_all()
        .verify_toggle_all_is_checked(False)
        .verify_item_is_completed(3, False))
    FooterRobot(page).verify_counter("3 items left")

    assert not [i for i in backend.current if i["completed"]]


def test_delete_button_removes_the_item(page, mock, launch):
    backend = given_list_succeeds(mock)
    launch()

    ListEditorRobot(page).verify_is_loaded().delete_item(2).verify_item_is_absent(2).verify_item_count(2)
    FooterRobot(page).verify_counter("1 item left")

    assert len(mock.requests("DELETE", "/todos/2")) == 1
    assert [i["id"] for i in backend.current] == [1, 3]


def test_added_items_survive_a_reload(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .add_item("Water the plants")
        .toggle_item(1)
        .verify_item(4, "Water the plants")
        .verify_item_is_completed(1, True)
        .reload()
        .verify_is_loaded()
        .verify_item_count(4)
        .verify_item(4, "Water the plants")
        .verify_item_is_completed(1, True))
    FooterRobot(page).verify_counter("2 items left")

    assert len(mock.requests("GET", "/todos")) == 2, "one load per page load"
