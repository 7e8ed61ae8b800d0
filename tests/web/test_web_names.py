"""Who a game belongs to: labels stay with their player, look-alike
nicknames are refused, and adding a guest never confirms a hidden child is a member.

On the real app with a real store: a phone adds guests through the two-step form, as at the
table (check the field, then save), and records games with "That's me".
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from club_days import on_the_club_clock
from flask.testing import FlaskClient
from form_fields import hidden_fields

from kiosk.events import parse_line
from kiosk.privacy import INITIALS, SHORT, PlayerPrivacy
from kiosk.store import Store
from web.pin import hash_pin

PIN = "2468"
POLISH = {"Accept-Language": "pl"}


def add_guest(phone: FlaskClient, nick: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """The add-guest form as a phone sends it: check, then save. Status and page of the last step."""
    page = phone.get("/players/new", headers=headers).get_data(as_text=True)
    typed = {"nick": nick, "size": "13", "start": "zero"}
    checked = phone.post("/players/new", data={**hidden_fields(page), **typed}, headers=headers)
    if checked.status_code != 200 or "confirmed" not in checked.get_data(as_text=True):
        return checked.status_code, html.unescape(checked.get_data(as_text=True))
    fields = hidden_fields(checked.get_data(as_text=True))
    if not fields.get("confirmed"):
        return checked.status_code, html.unescape(checked.get_data(as_text=True))
    saved = phone.post("/players/new", data={**fields, **typed}, headers=headers)
    return saved.status_code, html.unescape(saved.get_data(as_text=True))


def errors(page: str) -> str:
    """The form's error lines, without the one-time tokens and the page around them."""
    box = re.search(r'<div class="errors" role="alert">(.*?)</div>', page, flags=re.S)
    found = re.findall(r"<p>(.*?)</p>", box.group(1), flags=re.S) if box else []
    return " | ".join(" ".join(text.split()) for text in found)


def nicks(store: Store) -> set[str]:
    return {m.nick for m in store.magnets()}


@pytest.fixture
def owner(home: Path) -> FlaskClient:
    from web import create_app

    with Store.open(home) as store:
        store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    app = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True}))
    phone = app.test_client()
    page = phone.get("/owner/login").get_data(as_text=True)
    assert phone.post("/owner/login", data={**hidden_fields(page), "pin": PIN}).status_code == 302
    return phone


# --- item 4: labels stay with their player ----------------------------------------------------------


def labels(client: FlaskClient) -> dict[str, str]:
    """The public board of 9x9: label -> strength, as a phone's API call sees it."""
    board = client.get("/api/board?size=9").get_json()["magnets"]
    return {m["nick"]: m["strength"] for m in board}


def test_a_new_guest_never_takes_another_players_label(client: FlaskClient, store: Store) -> None:
    store.set_club_privacy(INITIALS)  # the club shows initials: Dawid is "D."
    before = labels(client)
    assert "D." in before
    dawid = before["D."]

    # A kid names themself "D.": refused, nothing saved, Dawid keeps "D.".
    status, page = add_guest(client, "D.")
    assert status == 400  # main: 302, and Dawid became "D.²"
    assert "cannot be used" in errors(page)
    assert "D." not in nicks(store)
    # An honest "Daniel" (initials "D." too) gets the next label; Dawid keeps his.
    status, _ = add_guest(client, "Daniel")
    assert status == 302
    store.record(parse_line(json.dumps({"type": "player", "at": "2026-11-04T10:00", "nick": "Dominik", "size": 9,
                                         "status": "member", "strength": 5})))  # fmt: skip
    after = labels(client)
    assert after["D."] == dawid  # main: "D." was Daniel's (and later Dominik's)
    with Store.open(Path(store.folder)) as fresh:
        from kiosk.privacy import public_labels

        given = public_labels([m.nick for m in fresh.magnets()], fresh.privacy())
    assert given["Dawid"] == "D." and given["Daniel"] == "D.²" and given["Dominik"] == "D.³"


def test_that_s_me_stays_with_the_player_when_their_label_moves(client: FlaskClient, store: Store, send) -> None:
    store.set_club_privacy(INITIALS)
    game = {"size": "9", "a": "D.", "b": "C.", "winner": "a", "by": "resignation", "me": "y", "at": "2026-11-03T19:00"}
    assert send("/new", game).status_code == 302  # Dawid's phone: "That's me"
    # The owner gives Dawid a short name, and a newcomer's initials are now "D.": the label text moved.
    store.set_player_privacy("Dawid", PlayerPrivacy(show=SHORT, short_name="Dawi"))
    store.record(parse_line(json.dumps({"type": "player", "at": "2026-11-04T10:00", "nick": "Dagmara", "size": 9,
                                         "status": "member", "strength": 5})))  # fmt: skip
    page = client.get("/new").get_data(as_text=True)
    form = hidden_fields(page)
    prefilled = re.search(r'name="a"[^>]*value="([^"]*)"', page) or re.search(r'value="([^"]*)"[^>]*name="a"', page)
    assert prefilled is not None
    typed = html.unescape(prefilled.group(1))
    assert typed == "Dawi"  # main: "D.", now Dagmara's label
    win = {"size": "9", "a": typed, "b": "C.", "winner": "a", "by": "resignation", "at": "2026-11-04T19:00"}
    assert client.post("/new", data={**form, **win}).status_code == 302
    latest = store.recent_games(limit=1)[0]
    assert latest.winner == "Dawid"  # main (with a label moved to the newcomer): the newcomer's win


# --- item 5: look-alike nicknames ------------------------------------------------------------------


@pytest.fixture
def lucja(store: Store) -> Store:
    store.record(parse_line(json.dumps({"type": "player", "at": "2026-11-01T11:00", "nick": "Łucja", "size": 13,
                                         "status": "member", "strength": 12})))  # fmt: skip
    return store


@pytest.mark.parametrize("nick", ["Łucjа", "Lucja", "LUCJA", "Łuсја", "Łúcja"])
def test_a_nickname_that_looks_like_another_players_is_refused_naming_them(
    client: FlaskClient, lucja: Store, nick: str
) -> None:
    status, page = add_guest(client, nick)
    assert status == 400  # main: 302 for each (a Cyrillic а, с, ј; no accents; another accent)
    assert "Łucja" in errors(page) and "looks" in errors(page)
    assert nicks(lucja) == nicks(lucja) - {nick} and nick not in nicks(lucja)
    polish_status, polish = add_guest(client, nick, POLISH)
    assert polish_status == 400 and "wygląda" in errors(polish)


def test_the_api_refuses_a_look_alike_too(client: FlaskClient, lucja: Store) -> None:
    answer = client.post("/api/players", json={"nick": "Łucjа", "size": 13})
    assert answer.status_code == 400  # main: 201
    assert answer.get_json()["error"]["code"] == "nick-looks-like"
    assert "Łucja" in answer.get_json()["error"]["message"]


def test_typing_lucja_still_finds_lucja_and_a_different_name_is_welcome(client: FlaskClient, lucja: Store) -> None:
    assert add_guest(client, "Lucja")[0] == 400
    assert add_guest(client, "Lucyna")[0] == 302  # a different name is not a look-alike
    found = client.get("/api/players/lucja").get_json()
    assert found["nick"] == "Łucja"  # main: the kid's "Lucja"


def test_the_owner_may_add_a_look_alike_deliberately(owner: FlaskClient, lucja: Store) -> None:
    status, _ = add_guest(owner, "Lucja")
    assert status == 302
    assert "Lucja" in nicks(lucja)


# --- item 15: a hidden child's nickname is not confirmed ----------------------------------------------------


def test_adding_a_hidden_childs_nickname_does_not_say_it_is_taken(client: FlaskClient, store: Store) -> None:
    child, other = "Zuzanna Wiśniewska", "Tomasz Zieliński"
    for n, nick in enumerate((child, other)):
        store.record(parse_line(json.dumps({"type": "player", "at": f"2026-11-01T11:0{n}", "nick": nick, "size": 9,
                                             "status": "member", "strength": 10})))  # fmt: skip
    store.set_player_privacy(child, PlayerPrivacy(hidden=True))
    store.set_player_privacy(other, PlayerPrivacy(show=INITIALS))  # shown as initials, not hidden

    def said(nick: str) -> tuple[int, str]:
        status, page = add_guest(client, nick)
        return status, errors(page).replace(nick, "NAME")

    hidden_answer = said(child)
    assert hidden_answer[0] == 400 and hidden_answer[1]
    assert "already on the board" not in hidden_answer[1]  # main: "NAME is already on the board. Pick that name…"
    assert "Z.W." not in hidden_answer[1]
    # The same answer as for any nickname the phone may not see: a player shown by initials, and a name
    # nobody has that only looks like the hidden one (so the answer does not tell the two apart).
    assert hidden_answer == said(other) == said("Zuzanna Wisniewska")
    assert len(nicks(store)) == 9


def test_that_s_me_in_a_club_of_nicknames_survives_the_switch_to_initials(
    client: FlaskClient, store: Store, send
) -> None:
    game = {"size": "9", "a": "Dawid", "b": "Czarek", "winner": "a", "by": "resignation", "me": "y"}
    assert send("/new", {**game, "at": "2026-11-03T19:00"}).status_code == 302
    store.set_club_privacy(INITIALS)  # later the owner turns initials on
    page = client.get("/new").get_data(as_text=True)
    prefilled = re.search(r'name="a"[^>]*value="([^"]*)"', page) or re.search(r'value="([^"]*)"[^>]*name="a"', page)
    assert prefilled is not None and html.unescape(prefilled.group(1)) == "D."
    # An older phone's cookie holding a label's text ("C.") is not trusted where a label can move.
    client.set_cookie("me", "C.")
    page = client.get("/new").get_data(as_text=True)
    prefilled = re.search(r'name="a"[^>]*value="([^"]*)"', page) or re.search(r'value="([^"]*)"[^>]*name="a"', page)
    assert prefilled is None or html.unescape(prefilled.group(1)) == ""


def test_the_owner_is_told_whose_label_a_new_members_nickname_is(owner: FlaskClient, store: Store) -> None:
    """The owner may add look-alikes, but a member named "D." would still take Dawid's label: refused, and why."""
    store.set_club_privacy(INITIALS)
    page = owner.get("/owner/member").get_data(as_text=True)
    answer = owner.post("/owner/member", data={**hidden_fields(page), "nick": "D.", "size": "9", "strength": "10"})
    assert answer.status_code == 400  # main: 302, and Dawid became "D.²"
    assert "how the wall and the public pages show Dawid" in html.unescape(answer.get_data(as_text=True))
    assert "D." not in nicks(store)
