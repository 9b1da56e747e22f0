"""Port of Tests/ListEditorUITests/FilterUITests.swift (8 tests), step for step."""
from robots import FooterRobot, ListEditorRobot
from scenarios import given_empty_list_succeeds, given_list_succeeds


def test_active_filter_shows_only_open_items(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    ListEditorRobot(page).verify_is_loaded()
    FooterRobot(page).tap_filter("Active").verify_selected_filter("Active")
    ListEditorRobot(page).verify_item_count(2).verify_item_is_absent(3).verify_item(1, "Buy milk")
    assert page.url.endswith("#/active")


def test_completed_filter_shows_only_done_items(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    ListEditorRobot(page).verify_is_loaded()
    FooterRobot(page).tap_filter("Completed").verify_selected_filter("Completed")
    ListEditorRobot(page).verify_item_count(1).verify_item(3, "Pay rent").verify_item_is_absent(1)
    FooterRobot(page).verify_counter("2 items left")


def test_back_and_forward_move_between_filters(page, mock, launch):
    given_list_succeeds(mock)
    launch()

    list_, footer = ListEditorRobot(page), FooterRobot(page)
    list_.verify_is_loaded().verify_item_count(3)
    footer.tap_filter("Active").verify_selected_filter("Active")
    list_.verify_item_count(2)
    footer.tap_filter("Completed").verify_selected_filter("Completed")
    list_.verify_item_count(1)

    footer.go_back().verify_selected_filter("Active")
    list_.verify_item_count(2)
    footer.go_back().verify_selected_filter("All")
    list_.verify_item_count(3)
    footer.go_forward().verify_selected_filter("Active")
    list_.verify_item_count(2)

    assert len(mock.requests("GET", "/todos")) == 1, "moving between filters reloads nothing"


def test_launch_on_a_filter_route_opens_that_filter(page, mock, launch):
    given_list_succeeds(mock)
    launch(route="/completed")

    ListEditorRobot(page).verify_is_loaded().verify_item_count(1).verify_item(3, "Pay rent")
    FooterRobot(page).verify_selected_filter("Completed")


def test_checking_an_item_under_active_hides_it(page, mock, launch):
    given_list_succeeds(mock)
    launch(route="/active")

    (ListEditorRobot(page).verify_is_loaded()
        .verify_item_count(2)
        .toggle_item(2)
        .verify_item_is_absent(2)
        .verify_item_count(1))
    FooterRobot(page).verify_counter("1 item left").tap_filter("Completed")
    ListEditorRobot(page).verify_item_count(2).verify_item_is_completed(2, True)


def test_counter_follows_every_change(page, mock, launch):
    given_empty_list_succeeds(mock)
    launch()

    list_, footer = ListEditorRobot(page), FooterRobot(page)
    list_.verify_is_loaded().add_item("First")
    footer.verify_counter("1 item left")
    list_.add_item("Second")
    footer.verify_counter("2 items left")
    list_.toggle_item(1)
    footer.verify_counter("1 item left")
    list_.delete_item(2)
    footer.verify_counter("0 items left")


def test_clear_completed_removes_only_done_items(page, mock, launch):
    backend = given_list_succeeds(mock, [
        {"id": 1, "title": "Buy milk", "completed": True},
        {"id": 2, "title": "Walk the dog", "completed": False},
        {"id": 3, "title": "Pay rent", "completed": True},
    ])
    launch()

    ListEditorRobot(page).verify_is_loaded()
    FooterRobot(page).verify_counter("1 item left").tap_clear_completed()
    (ListEditorRobot(page).verify_item_is_absent(1)
        .verify_item_is_absent(3)
        .verify_item_count(1)
        .verify_item(2, "Walk the dog"))
    FooterRobot(page).verify_clear_completed_is_hidden().verify_counter("1 item left")

    assert [r.path for r in mock.all_requests if r.method == "DELETE"] == ["/todos/1", "/todos/3"]
    assert [i["id"] for i in backend.current] == [2]


def test_clear_completed_shows_only_with_done_items(page, mock, launch):
    given_list_succeeds(mock, [{"id": 1, "title": "Buy milk", "completed": False}])
    launch()

    ListEditorRobot(page).verify_is_loaded()
    FooterRobot(page).verify_counter("1 item left").verify_clear_completed_is_hidden()
    ListEditorRobot(page).toggle_item(1)
    FooterRobot(page).verify_clear_completed_is_visible()
