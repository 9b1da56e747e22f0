"""Port of Tests/CharacterAppUITests/CharacterFlowUITests.swift (14 tests), step for step."""
import os

from robots import CharacterDetailRobot, CharacterListRobot, HomeRobot
from scenarios import (given_all_requests_fail, given_all_requests_return_not_found,
                       given_character_detail_fails_but_list_succeeds, given_character_detail_recovers,
                       given_character_list_and_detail_succeeds, given_character_list_recovers,
                       given_character_list_succeeds, given_character_list_with_empty_search_succeeds,
                       given_character_list_with_pagination_and_detail_succeeds,
                       given_character_list_with_pagination_succeeds)


def test_navigation_from_list_to_detail_and_back(page, mock, launch):
    given_character_list_and_detail_succeeds(mock)
    expected_name = "Evil Rick" if os.environ.get("ROBOTCI_DEMO_FAIL") == "1" else "Rick Sanchez"
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).verify_is_visible().tap_character(1)
    CharacterDetailRobot(page).verify_is_visible().verify_character_name(expected_name).tap_back()
    CharacterListRobot(page).verify_is_visible().tap_back()
    HomeRobot(page).verify_is_visible()


def test_list_shows_rows_with_image_title_and_status(page, mock, launch):
    given_character_list_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    (CharacterListRobot(page).verify_is_visible()
        .verify_row_count(8)
        .verify_row(1, "Rick Sanchez", "Alive")
        .verify_row(7, "Abradolf Lincler", "unknown")
        .verify_row(8, "Adjudicator Rick", "Dead"))

    for id_ in range(1, 9):
        mock.wait_for_request("GET", f"/avatar/{id_}.png", timeout=5)


def test_detail_shows_the_tapped_character(page, mock, launch):
    given_character_list_and_detail_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).verify_is_visible().tap_character(8)
    CharacterDetailRobot(page).verify_is_visible().verify_character_name("Adjudicator Rick").verify_status("Dead")

    assert len(mock.requests("GET", "/character/8")) == 1


def test_back_from_detail_keeps_the_loaded_list(page, mock, launch):
    given_character_list_with_pagination_and_detail_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    (CharacterListRobot(page).verify_is_visible()
        .scroll_down()
        .tap_load_more()
        .verify_row_count(12)
        .tap_character(11))
    CharacterDetailRobot(page).verify_character_name("Albert Einstein").tap_back()
    CharacterListRobot(page).verify_is_visible().verify_row_count(12).verify_load_more_is_hidden()

    assert len(mock.requests("GET", "/character")) == 2, "Back shows the list it left, without reloading it"


def test_back_from_list_returns_home(page, mock, launch):
    given_character_list_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).verify_is_visible().tap_back()
    HomeRobot(page).verify_is_visible()


def test_load_more_appends_the_next_page(page, mock, launch):
    given_character_list_with_pagination_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    (CharacterListRobot(page).verify_is_visible()
        .verify_row_count(8)
        .verify_load_more_is_visible()
        .scroll_down()
        .tap_load_more()
        .verify_row_count(12)
        .verify_character_exists(1, "Rick Sanchez")
        .verify_character_exists(12, "Alexander"))

    second_page = mock.requests("GET", "/character")[-1]
    assert second_page.query_parameters.get("page") == "2"


def test_last_page_hides_load_more(page, mock, launch):
    given_character_list_with_pagination_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    (CharacterListRobot(page).verify_load_more_is_visible()
        .tap_load_more()
        .verify_character_exists(9, "Agency Director")
        .verify_load_more_is_hidden())


def test_search_without_results_shows_empty_state(page, mock, launch):
    given_character_list_with_empty_search_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    (CharacterListRobot(page).verify_is_visible()
        .verify_character_exists(1, "Rick Sanchez")
        .search("Squanchy")
        .verify_empty_state_is_visible()
        .verify_row_count(0))

    searches = [r.query_parameters["name"] for r in mock.requests("GET", "/character") if "name" in r.query_parameters]
    assert searches[-1] == "Squanchy"


def test_clearing_the_search_shows_characters_again(page, mock, launch):
    given_character_list_with_empty_search_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    (CharacterListRobot(page).search("Squanchy")
        .verify_empty_state_is_visible()
        .clear_search()
        .verify_character_exists(2, "Morty Smith")
        .verify_row_count(8))


def test_list_shows_error_and_retry_loads_content(page, mock, launch):
    given_all_requests_fail(mock)
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).verify_error_is_visible()

    given_character_list_recovers(mock)

    CharacterListRobot(page).tap_retry().verify_is_visible().verify_character_exists(1, "Rick Sanchez")


def test_retry_while_still_failing_keeps_showing_the_error(page, mock, launch):
    given_all_requests_fail(mock)
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).verify_error_is_visible().tap_retry().verify_error_is_visible()

    assert len(mock.requests("GET", "/character")) == 2, "the first load and the retry"


def test_detail_failure_shows_error_and_back_returns_to_list(page, mock, launch):
    given_character_detail_fails_but_list_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).tap_character(2)
    CharacterDetailRobot(page).verify_error_is_visible().tap_back()
    CharacterListRobot(page).verify_is_visible().verify_character_exists(2, "Morty Smith")


def test_detail_error_retry_loads_character(page, mock, launch):
    given_character_detail_fails_but_list_succeeds(mock)
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).tap_character(3)
    CharacterDetailRobot(page).verify_error_is_visible()

    given_character_detail_recovers(mock)

    (CharacterDetailRobot(page).tap_retry()
        .verify_is_visible()
        .verify_character_name("Summer Smith")
        .verify_status("Alive"))


def test_all_requests_not_found_shows_list_error(page, mock, launch):
    given_all_requests_return_not_found(mock)
    launch()

    HomeRobot(page).tap_character_button()
    CharacterListRobot(page).verify_error_is_visible()
