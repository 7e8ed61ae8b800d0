"""Games that don't move magnets on the phone, in the API and for the owner, in English and Polish."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from test_web_api import check

from kiosk.store import Store
from web.chart import history
from web.pin import hash_pin

PIN = "2468"
# Czarek beats Bianka by 21 on 9x9: as a rated game it is docs/rules.md's example (25 → 27, 34.5 → 33.5).
TEACHING = {
    "size": "9",
    "a": "Bianka",
    "b": "Czarek",
    "winner": "b",
    "by": "points",
    "points": "21",
    "at": "2026-11-03T19:10",
    "kind": "teaching",
}
API_GAME = {"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 21, "at": "2026-11-03T19:10"}


def text(response) -> str:
    """The page as a person reads it: tags dropped, entities decoded, spaces folded."""
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    page = re.sub(r"</?(a|span|b|strong)\b[^>]*>", "", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def strengths(store: Store) -> dict[str, float]:
    return {m.nick: m.strength / 4 for m in store.magnets()}


# --- the phone's form --------------------------------------------------------------------


def test_the_form_keeps_the_kind_behind_a_closed_disclosure_with_rated_ticked(client: FlaskClient) -> None:
    page = client.get("/new?size=9&a=Bianka&b=Czarek").get_data(as_text=True)
    details = re.search(r'<details class="kind" id="kind"( open)?>(.*?)</details>', page, flags=re.S)
    assert details is not None and details.group(1) is None, "closed: the usual game costs no tap here"
    assert "Not a rated game?" in details.group(2)
    checked = re.findall(r'<input[^>]*name="kind"[^>]*>', details.group(2))
    assert len(checked) == 5 and [i for i in checked if "checked" in i] == [
        next(i for i in checked if 'value="rated"' in i)
    ]


def test_the_polish_form_asks_in_polish(client: FlaskClient) -> None:
    client.set_cookie("lang", "pl")
    page = text(client.get("/new?size=9&a=Bianka&b=Czarek"))
    assert "Partia nierankingowa?" in page
    assert "Partia ucząca (lekcja)" in page and "Symultana (jedna osoba gra z kilkoma)" in page


def test_a_teaching_game_moves_no_magnet_and_the_result_page_says_why(send, client: FlaskClient, store: Store) -> None:
    before = strengths(store)
    response = send("/new", TEACHING)
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "Saved!" in page
    assert (
        "Kind of game: teaching game. It is not a rated game, so the magnets did not move and no free loss was used."
        in page
    )
    assert "Bianka: not a rated game: stays at 34.5" in page
    assert "Czarek: not a rated game: stays at 25" in page
    assert strengths(store) == before
    assert store.recent_games(limit=1)[0].kind == "teaching"


def test_a_teaching_game_in_polish(send, client: FlaskClient, store: Store) -> None:
    client.set_cookie("lang", "pl")
    response = send("/new", {**TEACHING, "kind": "simultaneous"})
    page = text(client.get(response.headers["Location"]))
    assert "Rodzaj partii: symultana. To nie jest partia rankingowa, więc magnesy się nie przesunęły" in page
    assert "Bianka: partia nierankingowa: zostaje na 34,5" in page


def test_a_form_without_a_kind_records_a_rated_game(send, client: FlaskClient, store: Store) -> None:
    form = {k: v for k, v in TEACHING.items() if k != "kind"}
    page = text(client.get(send("/new", form).headers["Location"]))
    assert "Czarek: clear win, 2 arrows up: 25 → 27" in page
    assert "not a rated game" not in page


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("en", "Pick what kind of game it was: a rated game, or one of the others under the question."),
        ("pl", "Wybierz rodzaj partii: rankingowa albo jedna z pozostałych pod pytaniem."),
    ],
)
def test_an_unknown_kind_from_a_form_is_refused_and_changes_nothing(
    send, client: FlaskClient, store: Store, lang: str, says: str
) -> None:
    client.set_cookie("lang", lang)
    games = len(store.recent_games(limit=100))
    response = send("/new", {**TEACHING, "kind": "friendly"})
    assert response.status_code == 400
    assert says in text(response)
    assert len(store.recent_games(limit=100)) == games
    # What was typed comes back, with the disclosure open at the bad choice.
    assert '<details class="kind" id="kind" open>' in response.get_data(as_text=True)


def test_a_teaching_game_on_a_size_neither_has_needs_no_second_look(send, client: FlaskClient, store: Store) -> None:
    # A rated game on 19x19 between two 9x9 players asks first "no magnet would move"; a teaching game does not.
    assert 'id="nobody-moves"' in client.get("/new/handicap?size=19&a=Bianka&b=Czarek").get_data(as_text=True)
    teaching = client.get("/new/handicap?size=19&a=Bianka&b=Czarek&kind=teaching").get_data(as_text=True)
    assert 'id="nobody-moves"' not in teaching
    response = send("/new", {**TEACHING, "size": "19"})
    assert response.status_code == 302
    assert store.recent_games(limit=1)[0].size == 19


# --- the player's page ---------------------------------------------------------------------


def test_the_player_page_shows_the_kind_and_leaves_it_out_of_the_record_per_size(
    send, client: FlaskClient, store: Store
) -> None:
    send("/new", TEACHING)
    page = text(client.get("/players/Czarek"))
    assert "teaching game not rated: no magnet moved" in page
    # Czarek's record on 9x9: no games counted (the teaching game only), but head-to-head knows it.
    assert "Wins and losses" not in page
    assert "Bianka 1 won · 0 lost · 0 drawn" in page
    client.set_cookie("lang", "pl")
    assert "partia ucząca nierankingowa: żaden magnes się nie przesunął" in text(client.get("/players/Czarek"))


def test_the_strength_chart_leaves_out_games_that_are_not_rated(send, store: Store) -> None:
    send("/new", TEACHING)
    games = store.games_page(limit=100, nick="Czarek")
    changes = store.changes_of("Czarek")
    teaching = next(g for g in games if g.kind == "teaching")
    assert teaching.at not in [at for at, _ in history("Czarek", 9, games, changes)]


# --- the API -----------------------------------------------------------------------------------


def test_the_api_records_a_game_of_each_kind_as_its_description_says(client: FlaskClient, store: Store) -> None:
    before = strengths(store)
    for n, kind in enumerate(("teaching", "simultaneous", "rengo", "event")):
        response = client.post("/api/games", json={**API_GAME, "at": f"2026-11-03T19:1{n}", "kind": kind})
        assert response.status_code == 201
        body = check(client, response, "/api/games", "post")
        assert body["kind"] == kind
        assert {move["why"] for move in body["moves"].values()} == {"not-rated"}
        check(client, client.get(f"/api/games/{body['id']}"), "/api/games/{id}")
    assert strengths(store) == before
    rated_game = {**API_GAME, "at": "2026-11-03T19:20", "kind": "rated"}
    rated = check(client, client.post("/api/games", json=rated_game), "/api/games", "post")
    assert "kind" not in rated and rated["moves"]["Czarek"]["why"] == "clear-win"
    listed = check(client, client.get("/api/games?limit=10"), "/api/games")
    assert [g.get("kind", "rated") for g in listed["games"][:5]] == [
        "rated",
        "event",
        "rengo",
        "simultaneous",
        "teaching",
    ]


@pytest.mark.parametrize("bad", ["friendly", None, 3, ["teaching"]])
@pytest.mark.parametrize(
    ("language", "says"),
    [("en", "a game's kind is rated, teaching"), ("pl", "rodzaj partii to rated, teaching")],
)
def test_the_api_refuses_an_unknown_kind_in_the_users_language(
    client: FlaskClient, store: Store, bad: object, language: str, says: str
) -> None:
    games = len(store.recent_games(limit=100))
    response = client.post("/api/games", json={**API_GAME, "kind": bad}, headers={"Accept-Language": language})
    assert response.status_code == 400
    body = check(client, response, "/api/games", "post")
    assert body["error"]["code"] == "bad-kind" and body["error"]["message"].startswith(says)
    assert len(store.recent_games(limit=100)) == games


def test_the_openapi_description_names_the_kinds(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    new_game = spec["components"]["schemas"]["NewGame"]["properties"]["kind"]
    assert (
        new_game["enum"] == ["rated", "teaching", "simultaneous", "rengo", "event"] and new_game["default"] == "rated"
    )
    assert "kind" in spec["components"]["schemas"]["Game"]["properties"]


# --- the owner ----------------------------------------------------------------------------------


@pytest.fixture
def owner(client: FlaskClient, store: Store, send) -> FlaskClient:
    """A phone on which the owner typed the PIN."""
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    return client


def test_the_owner_changes_a_rated_game_into_a_teaching_game_and_back(owner: FlaskClient, send, store: Store) -> None:
    assert send("/new", {k: v for k, v in TEACHING.items() if k != "kind"}).status_code == 302
    assert strengths(store)["Czarek"] == 27
    page = owner.get("/owner/games/2").get_data(as_text=True)
    assert re.search(r'<input type="radio" name="kind" value="rated" checked>', page)
    form = {
        "action": "edit",
        "size": "9",
        "a": "Bianka",
        "b": "Czarek",
        "winner": "b",
        "by": "points",
        "points": "21",
        "played": "2026-11-03T19:10",
        "kind": "teaching",
    }
    assert send("/owner/games/2", form).status_code == 302
    assert strengths(store)["Czarek"] == 25 and store.game(2).kind == "teaching"  # type: ignore[union-attr]
    assert re.search(r'name="kind" value="teaching" checked', owner.get("/owner/games/2").get_data(as_text=True))
    assert "teaching game" in text(owner.get("/games"))
    assert send("/owner/games/2", {**form, "kind": "rated"}).status_code == 302
    assert strengths(store)["Czarek"] == 27 and store.check() == []
    audit = text(owner.get("/owner/audit"))
    assert "Corrected the game Bianka – Czarek. Now a teaching game: it moves no magnet." in audit
    bad = send("/owner/games/2", {**form, "kind": "friendly"})
    assert bad.status_code == 400 and "a game's kind is rated, teaching" in text(bad)


def test_a_voided_teaching_game_counted_again_stays_a_teaching_game(owner: FlaskClient, send, store: Store) -> None:
    assert send("/new", TEACHING).status_code == 302
    assert send("/owner/games/2", {"action": "void-confirmed"}).status_code == 302
    assert store.game(2) is None
    assert send("/owner/games/2", {"action": "restore"}).status_code == 302
    again = store.recent_games(limit=1)[0]
    assert again.kind == "teaching" and {m.why for m in again.moves.values()} == {"not-rated"}
    assert "Recorded the game Bianka – Czarek. A teaching game: it moves no magnet." in text(owner.get("/owner/audit"))
    owner.set_cookie("lang", "pl")
    assert "Rodzaj: partia ucząca; nie przesuwa magnesów." in text(owner.get("/owner/audit"))


def test_the_rules_page_explains_games_that_are_not_rated(client: FlaskClient) -> None:
    assert 'tap "Not a rated game?" on the form. The game is kept, but no magnet moves' in text(client.get("/rules"))
    polish = text(client.get("/rules", headers={"Accept-Language": "pl-PL,pl;q=0.9"}))
    assert "stuknij „Partia nierankingowa?” w formularzu. Partia zostaje w historii" in polish


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_kind_of_the_core_has_a_name_and_a_choice_in_both_languages(app, lang: str) -> None:
    from flask_babel import force_locale

    from kiosk.events import GAME_KINDS
    from web.forms import KIND_CHOICES
    from web.words import kind_name

    assert [choice.value for choice in KIND_CHOICES] == list(GAME_KINDS)
    with app.test_request_context(), force_locale(lang):
        names = [kind_name(kind) for kind in GAME_KINDS]
        labels = [str(choice.label) for choice in KIND_CHOICES]
    assert len(set(names)) == len(GAME_KINDS) and names != list(GAME_KINDS)
    assert len(set(labels)) == len(GAME_KINDS)
    assert ("partia ucząca" in names) == (lang == "pl")
