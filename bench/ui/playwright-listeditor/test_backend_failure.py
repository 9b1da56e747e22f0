"""Port of Tests/ListEditorUITests/BackendFailureUITests.swift (4 tests), step for step."""
from robots import FooterRobot, ListEditorRobot
from scenarios import given_all_requests_fail, given_list_recovers, given_saving_fails


def test_load_failure_shows_error_and_retry_loads_the_list(page, mock, launch):
    given_all_requests_fail(mock)
    launch()

    ListEditorRobot(page).verify_error("Could not load your list.", True).verify_list_is_empty()

    given_list_recovers(mock)

    (ListEditorRobot(page).tap_retry()
        .verify_no_error()
        .verify_item_count(3)
        .verify_item(1, "Buy milk"))
    FooterRobot(page).verify_counter("2 items left")


def test_failed_add_shows_an_error_and_gives_the_text_back(page, mock, launch):
    given_saving_fails(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .add_item("Water the plants")
        .verify_error('Could not add "Water the plants".', False)
        .verify_new_item_field("Water the plants")
        .verify_item_count(3))

    assert len(mock.requests("POST", "/todos")) == 1


def test_failed_check_leaves_the_item_open(page, mock, launch):
    given_saving_fails(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .toggle_item(1)
        .verify_error('Could not save "Buy milk".', False)
        .verify_item_is_completed(1, False))
    FooterRobot(page).verify_counter("2 items left")


def test_failed_edit_keeps_the_old_title(page, mock, launch):
    given_saving_fails(mock)
    launch()

    (ListEditorRobot(page).verify_is_loaded()
        .double_tap_item(2)
        .replace_edit_text(2, "Walk the cat")
        .press_key_in_edit_field(2, "Enter")
        .verify_error('Could not save "Walk the dog".', False)
        .verify_item(2, "Walk the dog"))
