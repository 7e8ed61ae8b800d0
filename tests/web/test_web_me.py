"""The phone that said "That's me": the board at your field, one-tap check-in, your own name,
the owner's symbols beside labels, and a hidden player's own page."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from club_days import CLUB_EVENING
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from kiosk.evening import club_evening
from kiosk.events import nick_key
from kiosk.privacy import INITIALS, PlayerPrivacy
from kiosk.rules import club_now
from kiosk.services import settings
from kiosk.store import Store
from web.pin import hash_pin
from web.recording import me_signature

Send = Callable[..., TestResponse]  # conftest's send: open a form page, send its form


def said_me(client: FlaskClient, store: Store, nick: str, typed_whole: bool = True) -> None:
    """This phone said "That's me" for ``nick``: the cookie the game form sets (the joining entry, signed)."""
    entry = store.privacy().joined.get(nick_key(nick))  # none before the owner's first privacy setting
    value = f"p:{entry}:{'k' if typed_whole else 'l'}" if entry is not None else f"n:{nick}"
    with client.application.test_request_context():
        signature = me_signature(value)
    client.set_cookie("me", f"{value}:{signature}" if entry is not None else f"n:{signature}:{nick}")


def my_magnet(page: str) -> str:
    found = re.search(r'<li class="me" id="me">(.*?)</li>', page, re.S)
    assert found, "no magnet marked as this phone's"
    return found.group(1)


def test_the_board_opens_at_my_field_with_whom_i_can_catch_and_who_is_behind(client: FlaskClient, store: Store) -> None:
    said_me(client, store, "Czarek")
    page = client.get("/").get_data(as_text=True)  # no size asked: Czarek's size, 9x9, not the club's 13x13
    mine = my_magnet(page)
    assert "Czarek" in mine and ">you<" in mine
    catch = re.search(r"You can catch:(.*?)</p>", mine, re.S)
    behind = re.search(r"Close behind you:(.*?)</p>", mine, re.S)
    assert catch and "Bianka" in catch.group(1) and "Dawid" not in catch.group(1)
    assert behind and "Dawid" in behind.group(1) and "Bianka" not in behind.group(1)
    assert 'href="#me"' in page  # "Find me on the board" without JavaScript
    # A phone that never said who it is: no magnet marked, the club's most used size.
    other = client.application.test_client().get("/").get_data(as_text=True)
    assert 'id="me"' not in other and "You can catch" not in other


def test_the_board_shows_the_walls_arrows_of_the_last_evening(client: FlaskClient) -> None:
    page = client.get("/?size=9").get_data(as_text=True)

    # 2 November: Dawid beat Bianka, so Dawid went up; Bianka's loss was her free loss of the week and Czarek
    # did not play: neither moved.
    def row(nick: str) -> str:
        found = re.search(rf'<span class="nick">{nick}(.*?)</span>\s', page, re.S)
        assert found, nick
        return found.group(1)

    assert "↑" in row("Dawid") and "up on the last club evening" in row("Dawid")
    assert "↓" not in row("Bianka") and "↑" not in row("Bianka")
    assert "↑" not in row("Czarek") and "↓" not in row("Czarek")


def test_the_arrows_follow_the_last_evening_with_games(client: FlaskClient, send: Send, game: dict[str, str]) -> None:
    assert send("/new", game).status_code == 302  # 3 November: Czarek beats Bianka, her free loss already used
    page = client.get("/?size=9").get_data(as_text=True)
    assert re.search(r'<span class="nick">Czarek&nbsp;<span class="arrow up"', page)
    assert re.search(r'<span class="nick">Bianka&nbsp;<span class="arrow down" role="img" aria-label="down on', page)
    assert re.search(r'<span class="nick">Dawid</span>', page)  # his move was the evening before: no arrow now


def test_check_in_is_one_tap_on_the_phone_that_said_thats_me(client: FlaskClient, store: Store) -> None:
    said_me(client, store, "Czarek")
    page = client.get("/tonight").get_data(as_text=True)
    form = re.search(r'<form method="post" action="/tonight/here" class="check-in-me">(.*?)</form>', page, re.S)
    assert form, "no one-tap check-in"
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))
    assert fields["nick"] == "Czarek"
    response = client.post("/tonight/here", data=fields)  # the one tap: nothing typed
    assert response.status_code == 302
    assert store.checked_in(tonight(store)) == ["Czarek"]
    again = client.get("/tonight").get_data(as_text=True)
    assert "check-in-me" not in again  # here already: the button has gone
    # The board offers the same tap until the player is here.
    assert "I'm here tonight" not in client.get("/").get_data(as_text=True)


def tonight(store: Store) -> date:
    return club_evening(store.config, club_now(store.config, CLUB_EVENING))[0]


def test_a_child_sees_their_own_name_and_everyone_else_sees_initials(client: FlaskClient, store: Store) -> None:
    settings.set_club_privacy(store, INITIALS)
    said_me(client, store, "Czarek")
    mine = client.get("/?size=9").get_data(as_text=True)
    assert "Czarek" in my_magnet(mine)  # the child's own name, on the child's own phone
    assert "Bianka" not in mine and "Dawid" not in mine  # the others stay initials
    stranger = client.application.test_client().get("/?size=9").get_data(as_text=True)
    assert "Czarek" not in stranger and "C." in stranger


def test_the_owners_symbol_shows_beside_the_label_on_the_phone(client: FlaskClient, store: Store) -> None:
    settings.set_club_privacy(store, INITIALS)
    settings.set_player_privacy(store, "Czarek", PlayerPrivacy(mark="★"))
    page = client.get("/?size=9").get_data(as_text=True)
    assert re.search(r'<span class="nick"><span class="mark">★</span> C\.', page)
    assert page.count('class="mark"') == 1  # only the player the owner gave one
    assert store.privacy().of("Czarek").mark == "★"  # kept with the player's other privacy settings


def test_a_hidden_players_own_phone_sees_their_own_page(client: FlaskClient, store: Store) -> None:
    settings.set_player_privacy(store, "Czarek", PlayerPrivacy(hidden=True))
    label = "C."
    stranger = client.application.test_client()
    assert stranger.get(f"/players/{label}").status_code == 404
    said_me(client, store, "Czarek")
    own = client.get(f"/players/{label}")
    assert own.status_code == 200
    text = own.get_data(as_text=True)
    assert "<h1>Czarek</h1>" in text and "Only your phone shows this page" in text
    # The board leaves a hidden child off, but their own phone still finds them and who is near.
    board = client.get("/?size=9").get_data(as_text=True)
    assert "Only your phone shows you here" in board and "You can catch:" in board
    assert "Czarek" not in stranger.get("/?size=9").get_data(as_text=True)


def test_the_owner_gives_a_symbol_on_the_privacy_page_and_a_made_up_one_is_refused(
    client: FlaskClient, store: Store, send: Send
) -> None:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    assert send("/owner/login", {"pin": "2468"}).status_code == 302
    page = "/owner/privacy/player?nick=Dawid"
    assert 'name="mark" value="♥"' in client.get(page).get_data(as_text=True)
    before = (store.privacy(), store.change_counter())
    client.set_cookie("lang", "pl")
    refused = send(page, {"nick": "Dawid", "show": "club", "mark": "X"})
    assert refused.status_code == 400 and "Wybierz jeden ze znaczków" in refused.get_data(as_text=True)
    assert (store.privacy(), store.change_counter()) == before  # nothing changed
    assert send(page, {"nick": "Dawid", "show": "club", "mark": "♥"}).status_code == 302
    assert store.privacy().of("Dawid").mark == "♥"
    assert '<span class="mark">♥</span> Dawid' in client.get("/?size=9").get_data(as_text=True)
    assert send(page, {"nick": "Dawid", "show": "club", "mark": ""}).status_code == 302  # "no symbol" takes it off
    assert store.privacy().of("Dawid").mark == ""


def test_a_hidden_player_is_not_counted_as_resting_on_the_public_board(client: FlaskClient, store: Store) -> None:
    settings.set_player_privacy(store, "Czarek", PlayerPrivacy(hidden=True))
    page = client.get("/?size=9").get_data(as_text=True)
    assert "Resting off the board" not in page  # "1 resting" would tell the public a hidden child is there


def test_the_board_shows_my_pair_tonight_one_tap_from_its_game_form(client: FlaskClient, store: Store) -> None:
    said_me(client, store, "Czarek")
    assert "Your pair tonight" not in client.get("/").get_data(as_text=True)  # not here yet: no pair
    for nick in ("Czarek", "Bianka"):
        settings.check_in(store, tonight(store), nick)
    mine = my_magnet(client.get("/").get_data(as_text=True))
    pair = re.search(r'<div class="my-pair">(.*?)</div>', mine, re.S)
    assert pair and "Your pair tonight:" in pair.group(1) and "<b>Bianka</b>" in pair.group(1)
    assert 'href="/new?a=Bianka&amp;b=Czarek&amp;size=9"' in pair.group(1)
    other = client.application.test_client().get("/").get_data(as_text=True)
    assert "Your pair tonight" not in other  # a phone that never said who it is


def test_a_made_up_cookie_opens_no_hidden_page_and_tells_no_nickname(client: FlaskClient, store: Store) -> None:
    settings.set_player_privacy(store, "Czarek", PlayerPrivacy(hidden=True))
    entry = store.privacy().joined[nick_key("czarek")]
    for forged in (f"p:{entry}", f"p:{entry}:k:AAAAAAAAAAAAAAAA", f"p:{entry}:k:"):
        client.set_cookie("me", forged)  # typed into the browser, not given by the kiosk
        assert client.get("/players/C.").status_code == 404, forged
        assert "Czarek" not in client.get("/?size=9").get_data(as_text=True), forged


def test_a_phone_that_typed_only_the_label_is_not_told_the_nickname(client: FlaskClient, store: Store) -> None:
    settings.set_club_privacy(store, INITIALS)
    said_me(client, store, "Czarek", typed_whole=False)  # "C." and "That's me": the phone never knew "Czarek"
    page = client.get("/?size=9").get_data(as_text=True)
    assert "Czarek" not in page and ">you<" in my_magnet(page)  # still its own magnet, by its label


def test_thats_me_typed_whole_on_the_game_form_then_shows_the_nickname(
    client: FlaskClient, store: Store, send: Send, game: dict[str, str]
) -> None:
    settings.set_club_privacy(store, INITIALS)
    assert send("/new", {**game, "a": "czarek", "b": "B.", "winner": "a", "me": "y"}).status_code == 302
    assert "Czarek" in my_magnet(client.get("/?size=9").get_data(as_text=True))
    other = client.application.test_client()
    assert send("/new", {**game, "a": "C.", "b": "B.", "winner": "a", "me": "y", "same": "again"},
                phone=other).status_code == 302  # fmt: skip
    assert "Czarek" not in other.get("/?size=9").get_data(as_text=True)  # the label typed: the label shown


def test_a_phone_that_said_thats_me_before_the_owner_hid_the_child_still_sees_their_page(
    client: FlaskClient, store: Store, send: Send, game: dict[str, str]
) -> None:
    assert send("/new", {**game, "me": "y"}).status_code == 302  # Bianka, in a club with no privacy settings yet
    settings.set_player_privacy(store, "Bianka", PlayerPrivacy(hidden=True))
    assert client.get("/players/B.").status_code == 200
    forged = client.application.test_client()
    forged.set_cookie("me", "n:Bianka")  # whoever knows the nickname, without the kiosk's signature
    assert forged.get("/players/B.").status_code == 404
