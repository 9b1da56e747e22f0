"""The mock backends of the Swift suite (Scenarios/UITestCase+Scenarios.swift, Data+Fixtures.swift),
one function per `given…` scenario, reading the same JSON fixtures from the example's source tree."""
import base64
import json
import os

from mockserver import Response

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                        "Examples", "CharacterApp", "Tests", "CharacterAppUITests", "Fixtures")
ALL_PAGES = ["characters_response", "characters_page_2_response"]

# An 8×8 green PNG, served for every avatar (Data.stubAvatarImage).
STUB_AVATAR_IMAGE = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mOYfs4HK2IYWhIAXv5sQTm2UQ0AAAAASUVORK5CYII=")


def fixture(name, base_url):
    """Fixtures/NAME.json with every {{BASE_URL}} replaced by the test's mock server."""
    with open(os.path.join(FIXTURES, f"{name}.json"), encoding="utf-8") as f:
        return f.read().replace("{{BASE_URL}}", base_url).encode()


def character_fixtures(names, base_url):
    """Each character of the list fixtures as its own JSON document, by id (sorted keys, as the Swift side)."""
    characters = {}
    for name in names:
        for character in json.loads(fixture(name, base_url)).get("results", []):
            characters[character["id"]] = json.dumps(character, sort_keys=True, separators=(",", ":")).encode()
    return characters


def character_id(path):
    """42 for /character/42 (Int(...) of the rest: digits only)."""
    if not path.startswith("/character/"):
        return None
    rest = path[len("/character/"):]
    if rest[:1] in "+-":
        sign, digits = rest[0], rest[1:]
    else:
        sign, digits = "", rest
    return int(sign + digits) if digits.isdigit() and digits.isascii() else None


def detail(id_, details):
    if id_ not in details:
        return Response.json('{"error":"Character not found"}', status=404)
    return Response.json(details[id_])


# MARK: - Initial scenarios


def given_character_list_succeeds(mock):
    characters = fixture("characters_response", mock.base_url)

    def answer(request):
        if request.path.startswith("/avatar/"):
            return Response.image(STUB_AVATAR_IMAGE)
        if request.path == "/character":
            return Response.json(characters)
        return Response.of_status(404)
    mock.register_catch_all(answer)


def given_character_list_and_detail_succeeds(mock):
    characters = fixture("characters_response", mock.base_url)
    details = character_fixtures(ALL_PAGES, mock.base_url)

    def answer(request):
        if request.path.startswith("/avatar/"):
            return Response.image(STUB_AVATAR_IMAGE)
        if request.path == "/character":
            return Response.json(characters)
        id_ = character_id(request.path)
        if id_ is not None:
            return detail(id_, details)
        return Response.of_status(404)
    mock.register_catch_all(answer)


def given_character_list_with_pagination_succeeds(mock):
    first = fixture("characters_response", mock.base_url)
    second = fixture("characters_page_2_response", mock.base_url)

    def answer(request):
        if request.path.startswith("/avatar/"):
            return Response.image(STUB_AVATAR_IMAGE)
        if request.path == "/character":
            return Response.json(second if request.query_parameters.get("page") == "2" else first)
        return Response.of_status(404)
    mock.register_catch_all(answer)


def given_character_list_with_pagination_and_detail_succeeds(mock):
    first = fixture("characters_response", mock.base_url)
    second = fixture("characters_page_2_response", mock.base_url)
    details = character_fixtures(ALL_PAGES, mock.base_url)

    def answer(request):
        if request.path.startswith("/avatar/"):
            return Response.image(STUB_AVATAR_IMAGE)
        if request.path == "/character":
            return Response.json(second if request.query_parameters.get("page") == "2" else first)
        id_ = character_id(request.path)
        if id_ is not None:
            return detail(id_, details)
        return Response.of_status(404)
    mock.register_catch_all(answer)


def given_character_list_with_empty_search_succeeds(mock):
    characters = fixture("characters_response", mock.base_url)
    empty = fixture("characters_empty_response", mock.base_url)

    def answer(request):
        if request.path.startswith("/avatar/"):
            return Response.image(STUB_AVATAR_IMAGE)
        if request.path == "/character":
            name = request.query_parameters.get("name", "")
            return Response.json(characters if not name else empty)
        return Response.of_status(404)
    mock.register_catch_all(answer)


def given_character_detail_succeeds(mock):
    details = character_fixtures(ALL_PAGES, mock.base_url)

    def answer(request):
        if request.path.startswith("/avatar/"):
            return Response.image(STUB_AVATAR_IMAGE)
        id_ = character_id(request.path)
        if id_ is not None:
            return detail(id_, details)
        return Response.of_status(404)
    mock.register_catch_all(answer)


def given_character_detail_fails_but_list_succeeds(mock):
    characters = fixture("characters_response", mock.base_url)

    def answer(request):
        if request.path.startswith("/avatar/"):
            return Response.image(STUB_AVATAR_IMAGE)
        if request.path == "/character":
            return Response.json(characters)
        return Response.of_status(500)
    mock.register_catch_all(answer)


def given_all_requests_fail(mock):
    mock.register_catch_all(lambda request: Response.of_status(500))


def given_all_requests_return_not_found(mock):
    mock.register_catch_all(lambda request: Response.of_status(404))


# MARK: - Recovery scenarios


def given_character_list_recovers(mock):
    characters = fixture("characters_response", mock.base_url)
    mock.register_prefix("GET", "/avatar/", lambda request: Response.image(STUB_AVATAR_IMAGE))
    mock.register("GET", "/character", lambda request: Response.json(characters))


def given_character_detail_recovers(mock):
    details = character_fixtures(ALL_PAGES, mock.base_url)
    mock.register_prefix("GET", "/avatar/", lambda request: Response.image(STUB_AVATAR_IMAGE))

    def answer(request):
        raw = request.path_parameters.get("id", "")
        return detail(int(raw) if raw.isdigit() else 0, details)
    mock.register_parameterized("GET", "/character/:id", answer)
