"""Children's privacy on the phone pages and the API: labels, hidden players, the owner's page.

The public pages and the API never spell a hidden (or initials-only) nickname anywhere in
their HTML or JSON; the owner's pages show every nickname.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from flask.testing import FlaskClient

from kiosk.events import parse_line
from kiosk.privacy import INITIALS, SHORT, PlayerPrivacy
from kiosk.store import Store
from web.pin import hash_pin

HIDDEN = "Zuzanna Wiśniewska"
SECRET = "Zuzanna"  # a part of the hidden nickname no public answer may hold
PIN = "2468"


@pytest.fixture(autouse=True)
def _hidden_player(home: Path) -> None:
    """The small club, and a child on 9x9 who lost to Czarek."""
    with Store.open(home) as store:
        lines = [
            {"type": "player", "at": "2026-11-01T10:07", "nick": HIDDEN, "size": 9, "status": "member", "strength": 18},
            {"type": "game", "at": "2026-11-03T18:00", "size": 9, "players": [HIDDEN, "Czarek"], "winner": "Czarek",
             "by": "resignation"},
        ]  # fmt: skip
        for line in lines:
            store.record(parse_line(json.dumps(line, ensure_ascii=False)))


def hide(store: Store) -> None:
    """The owner hides the child from the public pages."""
    store.set_player_privacy(HIDDEN, PlayerPrivacy(hidden=True))


def _body(client: FlaskClient, url: str) -> tuple[int, str]:
    """A page as text, without the language links that carry the page's own address back (what was typed)."""
    response = client.get(url)
    return response.status_code, re.sub(r'next=[^"]*', "", html.unescape(response.get_data(as_text=True)))


def _game_id(store: Store) -> int:
    return next(g.id for g in store.recent_games(limit=10) if HIDDEN in g.players)


def public_urls(store: Store) -> list[str]:
    """Every public page and API answer where a player's name could appear."""
    game_id = _game_id(store)
    return [
        "/",
        "/?size=9",
        "/?size=13",
        "/games",
        "/games?player=Z.W.",
        "/players/Czarek",
        "/players/Z.W.",
        "/handicap?size=9&a=Czarek&b=Z.W.",
        "/handicap?size=9&a=Czarek&b=Zuzana",  # a near miss: no "did you mean" with the hidden nickname
        f"/games/{game_id}",
        "/tonight?size=9",
        "/new?size=9&a=Z.W.&b=Czarek",
        "/new/handicap?size=9&a=Z.W.&b=Czarek",
        "/new/handicap?size=9&a=Zuzana&b=Czarek",
        "/api/board?size=9",
        "/api/players",
        "/api/players/Czarek",
        "/api/players/Z.W.",
        "/api/games",
        f"/api/games/{game_id}",
        "/api/handicap?size=9&a=Czarek&b=Z.W.",
    ]


def test_public_pages_and_the_api_never_contain_a_hidden_nickname(client: FlaskClient, store: Store) -> None:
    hide(store)
    for url in public_urls(store):
        status, body = _body(client, url)
        assert status in (200, 400, 404), url
        assert SECRET not in body and "Wi\\u015b" not in body, url


STRANGER = "Zuzanna Kowalczyk"  # nobody in the club
TYPED = [
    "/games?player={}",
    "/players/{}",
    "/handicap?size=9&a=Czarek&b={}",
    "/new?size=9&a={}&b=Czarek",
    "/new/handicap?size=9&a={}&b=Czarek",
    "/api/games?player={}",
    "/api/players/{}",
    "/api/handicap?size=9&a=Czarek&b={}",
]


@pytest.mark.parametrize("url", TYPED)
def test_a_hidden_nickname_typed_whole_is_answered_as_for_a_stranger(
    client: FlaskClient, store: Store, url: str
) -> None:
    """Nobody can tie a hidden child's nickname to their label or games by typing it."""
    hide(store)

    def seen(name: str) -> tuple[int, str]:
        status, body = _body(client, url.format(name))
        body = re.sub(r"<input[^>]*type=\"hidden\"[^>]*>", "", body)  # one-time tokens differ per page
        for spelled in (name, json.dumps(name)[1:-1], quote_plus(name)):  # as typed, in JSON, in a link
            body = body.replace(spelled, "NAME")
        return status, body

    assert seen(HIDDEN) == seen(STRANGER)


def test_results_involving_a_hidden_player_show_the_label(client: FlaskClient, store: Store) -> None:
    hide(store)
    _, games = _body(client, "/games")
    assert "Z.W. – Czarek" in games
    game = json.loads(client.get(f"/api/games/{_game_id(store)}").get_data(as_text=True))
    assert game["players"] == ["Z.W.", "Czarek"] and set(game["moves"]) == {"Z.W.", "Czarek"}
    assert client.get("/api/handicap?size=9&a=Czarek&b=Z.W.").get_json()["players"] == ["Czarek", "Z.W."]


def test_a_hidden_player_is_not_listed_and_has_no_public_page(client: FlaskClient, store: Store) -> None:
    hide(store)
    board = client.get("/api/board?size=9").get_json()
    assert "Z.W." not in [m["nick"] for m in board["magnets"]] and len(board["magnets"]) == 3
    assert "Z.W." not in [p["nick"] for p in client.get("/api/players").get_json()["players"]]
    assert client.get("/players/Z.W.").status_code == 404
    assert client.get("/api/players/Z.W.").status_code == 404
    _, board_page = _body(client, "/?size=9")
    assert "Z.W." not in board_page and "Czarek" in board_page
    _, tonight = _body(client, "/tonight?size=9")
    assert '<option value="Czarek">' in tonight and "Z.W." not in tonight  # the type-ahead leaves them out


def test_the_owners_pages_show_the_hidden_nickname(owner: FlaskClient, store: Store) -> None:
    hide(store)
    assert HIDDEN in _body(owner, "/owner/privacy/")[1]
    assert HIDDEN in _body(owner, "/owner/magnets")[1]
    assert HIDDEN in _body(owner, f"/owner/games/{_game_id(store)}")[1]


def test_initials_for_the_whole_club_on_every_public_page(client: FlaskClient, store: Store) -> None:
    store.set_club_privacy(INITIALS)
    store.set_player_privacy("Czarek", PlayerPrivacy(SHORT, "Czaruś"))
    names = {m["nick"] for m in client.get("/api/board?size=9").get_json()["magnets"]}
    assert names == {"B.", "Czaruś", "D.", "Z.W."}
    for url in public_urls(store):
        _status, body = _body(client, url)
        for nick in ("Bianka", "Dawid", SECRET):
            assert nick not in body or "player=" in url, (url, nick)  # the games search keeps what was typed
    assert client.get("/players/B.").status_code == 200
    assert client.get("/players/Bianka").status_code == 200  # a whole nickname typed still finds the player
    assert "Bianka" not in _body(client, "/players/Bianka")[1]


def test_a_game_recorded_by_labels_is_saved_under_the_nicknames(send, client: FlaskClient, store: Store) -> None:
    hide(store)
    form = {"size": "9", "a": "Z.W.", "b": "Czarek", "winner": "a", "by": "resignation", "at": "2026-11-04T19:00"}
    response = send("/new", form)
    assert response.status_code == 302, response.get_data(as_text=True)
    assert store.recent_games(limit=1)[0].players == (HIDDEN, "Czarek")
    _, saved = _body(client, response.headers["Location"])
    assert "Z.W." in saved and SECRET not in saved


def test_a_hidden_player_checks_in_by_label_and_tonight_shows_only_the_label(
    send, client: FlaskClient, store: Store
) -> None:
    hide(store)
    response = send("/tonight?size=9", {"nick": "z.w."}, url="/tonight/here")
    assert response.status_code == 302
    _, page = _body(client, "/tonight?size=9")
    assert "Z.W. is here tonight." in page and SECRET not in page


def test_every_public_page_and_the_api_carry_noindex(client: FlaskClient, owner: FlaskClient, store: Store) -> None:
    hide(store)
    urls = [*public_urls(store), "/rules", "/board.png?size=9", "/api", "/api/openapi.json", "/nowhere"]
    for url in urls:
        assert client.get(url).headers["X-Robots-Tag"] == "noindex, nofollow", url
    for url in ("/owner/privacy/", "/owner/privacy/player?nick=Czarek", "/owner/privacy/players.csv"):
        assert owner.get(url).headers["X-Robots-Tag"] == "noindex, nofollow", url


# --- the owner's page ---------------------------------------------------------------------------


def test_the_owner_sets_the_club_default_and_a_players_label(owner: FlaskClient, send, store: Store) -> None:
    assert send("/owner/privacy/", {"show": "initials"}, url="/owner/privacy/club").status_code == 302
    assert store.privacy().club_show == INITIALS
    form = {"nick": "czarek", "show": "short", "short_name": " Czaruś ", "hidden": "yes", "minor": "yes"}
    assert send("/owner/privacy/player?nick=Czarek", form, url="/owner/privacy/player").status_code == 302
    assert store.privacy().of("Czarek") == PlayerPrivacy(SHORT, "Czaruś", hidden=True, minor=True)
    _, overview = _body(owner, "/owner/privacy/")
    assert "Czarek" in overview and "shown as Czaruś" in overview and "hidden from public pages" in overview
    form = {"nick": "Czarek", "show": "club", "short_name": ""}
    assert send("/owner/privacy/player?nick=Czarek", form, url="/owner/privacy/player").status_code == 302
    assert store.privacy().of("Czarek") == PlayerPrivacy()


@pytest.mark.parametrize(
    ("form", "english", "polish"),
    [
        ({"show": "everything"}, "Choose how this player is shown.", "Wybierz, jak pokazywać tego gracza."),
        (
            {"show": "short", "short_name": ""},
            "Type the short name, or choose initials.",
            "Wpisz krótką nazwę albo wybierz inicjały.",
        ),
        (
            {"show": "short", "short_name": "x" * 21},
            "A short name has at most 20 characters.",
            "Krótka nazwa ma najwyżej 20 znaków.",
        ),
        (
            {"show": "short", "short_name": "bianka"},
            "Another player is already shown by that name: choose another short name.",
            "Inny gracz jest już pokazywany pod tą nazwą: wybierz inną krótką nazwę.",
        ),
    ],
)
def test_bad_input_on_the_owners_page_says_why_and_changes_nothing(
    owner: FlaskClient, send, store: Store, form: dict[str, str], english: str, polish: str
) -> None:
    before = (store.privacy(), store.change_counter())
    for language, sentence in (("en", english), ("pl", polish)):
        owner.set_cookie("lang", language)
        response = send("/owner/privacy/player?nick=Czarek", {"nick": "Czarek", **form}, url="/owner/privacy/player")
        assert response.status_code == 400
        assert sentence in html.unescape(response.get_data(as_text=True))
        assert (store.privacy(), store.change_counter()) == before


def test_a_bad_club_default_or_unknown_player_is_refused(owner: FlaskClient, send, store: Store) -> None:
    owner.set_cookie("lang", "pl")
    response = send("/owner/privacy/", {"show": "all"}, url="/owner/privacy/club")
    assert response.status_code == 400
    assert "Wybierz, jak pokazywać graczy: nick, inicjały albo krótka nazwa." in html.unescape(response.get_data(True))
    assert owner.get("/owner/privacy/player?nick=Nobody").status_code == 404
    response = send("/owner/privacy/", {"nick": "Nobody", "show": "initials"}, url="/owner/privacy/player")
    assert response.status_code == 400 and "Nie ma gracza o takim nicku." in response.get_data(as_text=True)
    assert store.privacy().club_show == "nick"


def test_a_visitor_without_the_pin_is_sent_to_the_login(client: FlaskClient, send, store: Store) -> None:
    assert client.get("/owner/privacy/").status_code == 302
    response = client.post("/owner/privacy/club", data={"show": "initials"})
    assert response.status_code == 302 and "/owner/login" in response.headers["Location"]
    assert store.privacy().club_show == "nick"


def _rows(owner: FlaskClient, url: str) -> list[dict[str, str]]:
    response = owner.get(url)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def test_the_players_export_marks_minors_only_when_asked(owner: FlaskClient, store: Store) -> None:
    store.set_player_privacy(HIDDEN, PlayerPrivacy(hidden=True, minor=True))
    store.set_player_privacy("Czarek", PlayerPrivacy(minor=True))
    plain = _rows(owner, "/owner/privacy/players.csv")
    assert "minor" not in plain[0]
    assert {r["nick"] for r in plain} >= {HIDDEN, "Czarek", "Bianka"}
    assert next(r for r in plain if r["nick"] == HIDDEN)["hidden"] == "yes"
    marked = _rows(owner, "/owner/privacy/players.csv?minors=yes")
    assert {r["nick"] for r in marked if r["minor"] == "yes"} == {HIDDEN, "Czarek"}
    assert next(r for r in marked if r["nick"] == HIDDEN)["label"] == "Z.W."


@pytest.fixture
def owner(client: FlaskClient, store: Store, send) -> FlaskClient:
    """A phone on which the owner typed the PIN."""
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    return client


def test_a_forged_post_without_its_token_changes_nothing(owner: FlaskClient, store: Store) -> None:
    owner.set_cookie("lang", "pl")
    before = (store.privacy(), store.change_counter())
    for url, form in (
        ("/owner/privacy/club", {"show": "initials"}),
        ("/owner/privacy/player", {"nick": "Czarek", "show": "initials", "hidden": "yes"}),
    ):
        response = owner.post(url, data=form)
        assert response.status_code == 400 and "nic nie zapisano" in response.get_data(as_text=True), url
    assert (store.privacy(), store.change_counter()) == before


def test_an_error_about_a_hidden_player_names_the_label(send, client: FlaskClient, store: Store) -> None:
    hide(store)
    early = {"size": "9", "a": "Z.W.", "b": "Czarek", "winner": "a", "by": "resignation", "at": "2026-10-20T19:00"}
    response = send("/new", early)  # before the child joined: refused, and said with the label
    body = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 400 and "Z.W." in body and SECRET not in body
    api = client.post("/api/games", json={"size": 9, "players": ["Z.W.", "Czarek"], "winner": "Z.W.",
                                          "at": "2026-10-20T19:00"})  # fmt: skip
    assert api.status_code == 400 and "Z.W." in api.get_json()["error"]["message"]
    assert SECRET not in api.get_data(as_text=True)


def test_a_hidden_players_label_links_to_no_page(client: FlaskClient, store: Store) -> None:
    hide(store)
    _, games = _body(client, "/games")
    assert 'href="/players/Czarek"' in games and "/players/Z.W." not in games


def test_a_short_name_typed_under_as_the_club_is_shown(owner: FlaskClient, send, store: Store) -> None:
    form = {"nick": "Czarek", "show": "club", "short_name": "Czaruś"}
    assert send("/owner/privacy/player?nick=Czarek", form, url="/owner/privacy/player").status_code == 302
    assert store.privacy().of("Czarek") == PlayerPrivacy(SHORT, "Czaruś")
    form = {"nick": "Czarek", "show": "initials", "short_name": "Czaruś"}  # initials chosen: kept for later
    assert send("/owner/privacy/player?nick=Czarek", form, url="/owner/privacy/player").status_code == 302
    assert [m["nick"] for m in owner.get("/api/board?size=9").get_json()["magnets"]].count("C.") == 1


# --- minors by initials, a consent noted ------------------------------------------------


def test_a_minor_is_shown_by_initials_until_a_consent_is_noted(owner: FlaskClient, send, store: Store) -> None:
    form = {"nick": "Czarek", "show": "club", "short_name": "", "minor": "yes"}
    assert send("/owner/privacy/player?nick=Czarek", form, url="/owner/privacy/player").status_code == 302
    assert store.privacy().of("Czarek") == PlayerPrivacy(minor=True)
    _, board = _body(owner.application.test_client(), "/?size=9")  # a phone without the owner's PIN
    assert "C." in board and "Czarek" not in board  # the public board: initials
    form = {**form, "consent": "given", "consent_on": "2026-09-01"}
    assert send("/owner/privacy/player?nick=Czarek", form, url="/owner/privacy/player").status_code == 302
    assert store.privacy().of("Czarek") == PlayerPrivacy(minor=True, consent=True, consent_on="2026-09-01")
    page = owner.get("/owner/privacy/player?nick=Czarek").get_data(as_text=True)
    assert 'value="given" checked' in page and 'value="2026-09-01"' in page
    assert "keeps no names of parents" in page
    # a consent not given: initials again; the club may show minors as everyone
    assert (
        send(
            "/owner/privacy/player?nick=Czarek", {**form, "consent": "not-given"}, url="/owner/privacy/player"
        ).status_code
        == 302
    )
    assert store.privacy().of("Czarek").consent is False
    assert send("/owner/privacy/", {"show": "nick", "minors": "club"}, url="/owner/privacy/club").status_code == 302
    assert store.privacy().minors_show == "club"


def test_a_bad_consent_day_is_refused_kindly_and_changes_nothing(owner: FlaskClient, send, store: Store) -> None:
    form = {"nick": "Czarek", "show": "club", "minor": "yes", "consent": "given", "consent_on": "2999-01-01"}
    answer = send("/owner/privacy/player?nick=Czarek", form, url="/owner/privacy/player")
    assert answer.status_code == 400 and "in the future" in html.unescape(answer.get_data(as_text=True))
    answer = send("/owner/privacy/player?nick=Czarek", {**form, "consent_on": "jutro"}, url="/owner/privacy/player")
    assert answer.status_code == 400
    answer = send("/owner/privacy/player?nick=Czarek", {**form, "consent": "maybe"}, url="/owner/privacy/player")
    assert answer.status_code == 400 and "Choose whether a consent was given." in answer.get_data(as_text=True)
    assert store.privacy().of("Czarek") == PlayerPrivacy()


def test_a_childs_progress_card_is_a_png_for_the_owner_only(owner: FlaskClient, store: Store) -> None:
    from PIL import Image

    page = owner.get("/owner/privacy/player?nick=Czarek").get_data(as_text=True)
    assert "/owner/privacy/card.png?nick=Czarek&amp;size=9" in page
    answer = owner.get("/owner/privacy/card.png?nick=czarek&size=9")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    with Image.open(io.BytesIO(answer.data)) as card:
        assert card.size == (2480, 1748)
    assert owner.get("/owner/privacy/card.png?nick=Nobody").status_code == 404
    assert owner.get("/owner/privacy/card.png?nick=Czarek&size=13").status_code == 404
    stranger = owner.application.test_client().get("/owner/privacy/card.png?nick=Czarek&size=9")
    assert stranger.status_code in (302, 303)
