"""Port of Tests/CharacterAppUITests/DeepLinkUITests.swift (9 tests), step for step."""
from robots import CharacterDetailRobot, CharacterListRobot, HomeRobot, NotFoundRobot
from scenarios import (given_all_requests_fail, given_all_requests_return_not_found,
                       given_character_detail_recovers, given_character_detail_succeeds,
                       given_character_list_and_detail_succeeds, given_character_list_succeeds)


def test_deep_link_opens_character_detail(page, mock, launch):
    given_character_detail_succeeds(mock)
    launch(deep_link="/character/2")

    CharacterDetailRobot(page).verify_is_visible().verify_character_name("Morty Smith").verify_status("Alive")

    assert mock.requests("GET", "/character") == [], "a deep link to a character loads only that character"


def test_deep_link_back_goes_to_character_list(page, mock, launch):
    given_character_list_and_detail_succeeds(mock)
    launch(deep_link="/character/5")

    CharacterDetailRobot(page).verify_character_name("Jerry Smith").tap_back()
    CharacterListRobot(page).verify_is_visible().verify_character_exists(5, "Jerry Smith").tap_back()
    HomeRobot(page).verify_is_visible()


def test_deep_link_opens_character_list(page, mock, launch):
    given_character_list_succeeds(mock)
    launch(deep_link="/characters")

    CharacterListRobot(page).verify_is_visible().verify_row_count(8).tap_back()
    HomeRobot(page).verify_is_visible()


def test_deep_link_to_unknown_character_shows_not_found(page, mock, launch):
    given_character_detail_succeeds(mock)
    launch(deep_link="/character/999")

    NotFoundRobot(page).verify_is_visible().verify_message_mentions("/character/999")

    assert mock.did_receive("GET", "/character/999"), "the app asks the API before deciding the character does not exist"


def test_deep_link_to_unknown_route_shows_not_found_without_calling_the_api(page, mock, launch):
    given_all_requests_return_not_found(mock)
    launch(deep_link="/episodes/1")

    NotFoundRobot(page).verify_is_visible().verify_message_mentions("/episodes/1")

    assert [f"{r.method} {r.path}" for r in mock.all_requests] == []


def test_deep_link_with_malformed_id_shows_not_found(page, mock, launch):
    given_character_detail_succeeds(mock)
    launch(deep_link="/character/rick")

    NotFoundRobot(page).verify_is_visible().verify_message_mentions("/character/rick")


def test_deep_link_when_all_requests_return_not_found_shows_not_found(page, mock, launch):
    given_all_requests_return_not_found(mock)
    launch(deep_link="/character/1")

    NotFoundRobot(page).verify_is_visible()


def test_not_found_go_home_shows_home(page, mock, launch):
    given_all_requests_return_not_found(mock)
    launch(deep_link="/nowhere")

    NotFoundRobot(page).verify_is_visible().tap_home_button()
    HomeRobot(page).verify_is_visible().tap_character_button()
    CharacterListRobot(page).verify_error_is_visible()


def test_deep_link_detail_failure_recovers_on_retry(page, mock, launch):
    given_all_requests_fail(mock)
    launch(deep_link="/character/1")

    CharacterDetailRobot(page).verify_error_is_visible()

    given_character_detail_recovers(mock)

    CharacterDetailRobot(page).tap_retry().verify_character_name("Rick Sanchez").verify_status("Alive")
