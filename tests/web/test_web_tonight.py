"""Tonight on the phone: check in, the suggested pairs with handicaps, refuse, leave, record."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from club_days import CLUB_EVENING, on_the_club_clock
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.evening import club_evening
from kiosk.rules import club_now
from kiosk.store import Store
from web import create_app

POLISH = {"Accept-Language": "pl-PL,pl;q=0.9"}


def tonight(store: Store) -> date:
    return club_evening(store.config, club_now(store.config, CLUB_EVENING))[0]


def text(response) -> str:  # type: ignore[no-untyped-def]
    return html.unescape(response.get_data(as_text=True))


def token(client: FlaskClient) -> dict[str, str]:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/tonight").get_data(as_text=True))
    assert found
    return {"csrf_token": found.group(1)}


def here(client: FlaskClient, *nicks: str, size: str = "9") -> None:
    for nick in nicks:
        response = client.post("/tonight/here", data={**token(client), "nick": nick, "size": size})
        assert response.status_code == 302, text(response)


def pairs(page: str) -> list[str]:
    return re.findall(r"<h3>\d+\. (.+?)</h3>", page)


def test_the_home_page_leads_to_tonight(client: FlaskClient) -> None:
    page = text(client.get("/"))
    assert 'href="/tonight"' in page and "Tonight: who is here, who plays whom" in page


def test_nobody_here_yet(client: FlaskClient) -> None:
    page = text(client.get("/tonight"))
    assert "Here tonight (0)" in page and "Nobody has checked in yet tonight." in page
    assert pairs(page) == []


def test_checked_in_players_get_pairs_with_their_handicaps_and_a_bye(client: FlaskClient, store: Store) -> None:
    here(client, "Bianka", "czarek", "Dawid")  # any spelling: the board's is kept
    assert store.checked_in(tonight(store)) == ["Bianka", "Czarek", "Dawid"]
    page = text(client.get("/tonight?size=9"))
    assert "Here tonight (3)" in page
    assert pairs(page) == ["Czarek – Dawid"]  # 25 and 22 are the nearest strengths (Dawid won on 2 November)
    assert "Czarek takes White, Dawid takes Black." in page
    assert "Black plays first, no komi, 0 prisoners" in page
    assert "Sits out this round: Bianka" in page
    assert 'href="/new?a=Czarek&b=Dawid&size=9"' in page


def test_a_training_game_is_shown_as_such(client: FlaskClient) -> None:
    here(client, "Bianka", "Franek")  # 34.5 on 9x9 against a guest at 0 (primary magnet on 13x13)
    page = text(client.get("/tonight?size=9"))
    assert pairs(page) == ["Bianka – Franek"]
    assert "Training game: Bianka (White) does not move." in page
    assert "Franek has no magnet on this size: primary magnet used" in page


def test_the_pairs_follow_the_size_chosen(client: FlaskClient) -> None:
    here(client, "Ewa", "Gosia", "Hania", "Franek")
    assert pairs(text(client.get("/tonight?size=13"))) == ["Gosia – Ewa", "Hania – Franek"]


def test_record_this_game_opens_the_form_filled_in(client: FlaskClient) -> None:
    page = text(client.get("/new?a=Czarek&b=Dawid&size=9"))
    assert 'value="Czarek"' in page and 'value="Dawid"' in page
    assert re.search(r'value="9"\s+checked|checked[^>]*value="9"', page)
    assert "Czarek takes White, Dawid takes Black." in page


def test_a_player_who_leaves_is_paired_no_more(client: FlaskClient, store: Store) -> None:
    here(client, "Bianka", "Czarek", "Dawid")
    response = client.post("/tonight/leave", data={**token(client), "nick": "Czarek", "size": "9"})
    assert response.status_code == 302
    page = text(client.get(response.location))
    assert "Czarek has left; the pairs are made again." in page
    assert pairs(page) == ["Bianka – Dawid"] and "Sits out" not in page
    assert store.checked_in(tonight(store)) == ["Bianka", "Dawid"]


def test_another_phone_is_asked_before_a_player_leaves_and_their_own_phone_is_not(
    app, client: FlaskClient, store: Store
) -> None:
    here(client, "Bianka", "Czarek", "Dawid")  # this phone checked in all three
    stranger = app.test_client()
    page = text(stranger.get("/tonight?size=9"))
    assert 'aria-label="Is Czarek not here?"' in page and "Czarek leaves" not in page
    asked = stranger.post("/tonight/leave", data={**token(stranger), "nick": "Czarek"})
    assert asked.status_code == 200
    assert "Is Czarek not here any more? Their pairs will be made again without them." in text(asked)
    assert 'value="Czarek"' not in re.search(r'<form[^>]*class="check-in".*?</form>', text(asked), re.S).group(0)
    assert store.checked_in(tonight(store)) == ["Bianka", "Czarek", "Dawid"]  # nothing changed yet
    sure = stranger.post("/tonight/leave", data={**token(stranger), "nick": "Czarek", "confirmed": "yes"})
    assert sure.status_code == 302 and store.checked_in(tonight(store)) == ["Bianka", "Dawid"]
    # The phone that checked a player in takes them off in one tap, so does the player's own phone.
    assert 'aria-label="Bianka leaves"' in text(client.get("/tonight?size=9"))
    assert client.post("/tonight/leave", data={**token(client), "nick": "Bianka"}).status_code == 302
    own = app.test_client()
    own.set_cookie("me", "Dawid")
    assert own.post("/tonight/leave", data={**token(own), "nick": "Dawid"}).status_code == 302
    assert store.checked_in(tonight(store)) == []


def test_the_owner_takes_anyone_off_tonights_list_in_one_tap(app, client: FlaskClient, store: Store) -> None:
    import time

    from web.pin import hash_pin

    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))  # without a PIN nobody is the owner
    here(client, "Bianka")
    owner = app.test_client()
    with owner.session_transaction() as session:
        session["owner"] = time.time() - 60
    assert owner.post("/tonight/leave", data={**token(owner), "nick": "Bianka"}).status_code == 302
    assert store.checked_in(tonight(store)) == []


def test_a_refused_pair_is_avoided_for_the_evening(client: FlaskClient, store: Store) -> None:
    here(client, "Bianka", "Czarek", "Dawid", "Ewa")
    assert pairs(text(client.get("/tonight?size=9"))) == ["Bianka – Ewa", "Czarek – Dawid"]
    response = client.post("/tonight/refuse", data={**token(client), "a": "Czarek", "b": "Dawid", "size": "9"})
    page = text(client.get(response.location))
    assert "Czarek and Dawid will not be paired tonight." in page
    assert "Czarek – Dawid" not in pairs(page) and len(pairs(page)) == 2
    # Down to the two of them: they are not suggested again, they wait for someone else.
    for nick in ("Bianka", "Ewa"):
        client.post("/tonight/leave", data={**token(client), "nick": nick})
    page = text(client.get("/tonight?size=9"))
    assert pairs(page) == []
    assert "Waiting for someone else to arrive: Czarek, Dawid" in page
    # A mistaken tap is taken back: they are paired again.
    assert "Not paired tonight, at their wish" in page
    response = client.post("/tonight/pair-again", data={**token(client), "a": "Czarek", "b": "Dawid", "size": "9"})
    page = text(client.get(response.location))
    assert "Czarek and Dawid may be paired again tonight." in page
    assert pairs(page) == ["Czarek – Dawid"] and "Not paired tonight" not in page
    assert store.refusals(tonight(store)) == set()


def test_a_game_played_tonight_is_not_suggested_again(client: FlaskClient, send, store: Store) -> None:
    here(client, "Bianka", "Czarek", "Dawid", "Ewa")
    game = {"size": "9", "a": "Czarek", "b": "Dawid", "winner": "a", "by": "resignation", "at": ""}
    assert send("/new?a=Czarek&b=Dawid&size=9", game).status_code == 302  # "at" empty: now, tonight
    page = text(client.get("/tonight?size=9"))
    assert "Czarek – Dawid" not in pairs(page) and len(pairs(page)) == 2
    assert "Played tonight (1)" in page and "Czarek won by resignation" in page


def test_yesterdays_list_is_not_tonights(client: FlaskClient, store: Store) -> None:
    store.check_in(tonight(store) - timedelta(days=1), "Bianka")
    page = text(client.get("/tonight"))
    assert "Here tonight (0)" in page and "/players/Bianka" not in page


def test_a_name_not_on_the_board_is_refused_with_a_suggestion(client: FlaskClient, store: Store) -> None:
    response = client.post("/tonight/here", data={**token(client), "nick": "Bianca"})
    assert response.status_code == 400
    page = text(response)
    assert "Your nickname: Bianca is not on the board yet." in page and "Did you mean:" in page
    assert re.search(r'name="nick" value="Bianka"><button type="submit" class="secondary">Bianka</button>', page)
    assert 'value="Bianca"' in page  # what was typed is still there
    assert store.checked_in(tonight(store)) == []
    response = client.post("/tonight/here", data={**token(client), "nick": "  "})
    assert response.status_code == 400 and "Your nickname: type it" in text(response)


def test_polish_phone_gets_polish_page_and_messages(client: FlaskClient) -> None:
    client.set_cookie("lang", "pl")
    page = text(client.get("/"))
    assert "Dziś: kto jest, kto z kim gra" in page
    here(client, "Bianka", "Czarek", "Dawid")
    page = text(client.get("/tonight?size=9"))
    for words in (
        "Dziś w klubie (3)",
        "Proponowane pary",
        "Czarek gra białymi, Dawid czarnymi.",
        "Zapisz tę partię",
        "Nie ta para",
        "Pauzuje w tej rundzie: Bianka",
        "Jestem",
        "Dawid jest dziś w klubie.",
    ):
        assert words in page, words
    assert "34,5" in page  # a decimal comma
    response = client.post("/tonight/here", data={**token(client), "nick": "Zenek"})
    assert response.status_code == 400 and "Twój nick: Zenek" in text(response)


def test_every_post_needs_its_csrf_token(client: FlaskClient, store: Store) -> None:
    for url, data in [
        ("/tonight/here", {"nick": "Bianka"}),
        ("/tonight/leave", {"nick": "Bianka"}),
        ("/tonight/refuse", {"a": "Bianka", "b": "Czarek"}),
    ]:
        response = client.post(url, data=data)
        assert response.status_code == 400, url
        assert "nothing was saved" in text(response)
    client.set_cookie("lang", "pl")
    assert "nic nie zapisano" in text(client.post("/tonight/here", data={"nick": "Bianka"}))
    assert store.checked_in(tonight(store)) == [] and store.refusals(tonight(store)) == set()


def test_refusing_a_pair_that_is_not_here_changes_nothing(client: FlaskClient, store: Store) -> None:
    here(client, "Bianka")
    for a, b in [("Bianka", "Czarek"), ("Bianka", "bianka"), ("", "Bianka")]:
        response = client.post("/tonight/refuse", data={**token(client), "a": a, "b": b})
        assert response.status_code == 400 and "not on tonight's list any more" in text(response)
    assert store.refusals(tonight(store)) == set()


def test_the_buttons_are_big_enough_for_a_thumb() -> None:
    from pathlib import Path

    import web

    css = (Path(web.__file__).parent / "static" / "app.css").read_text()
    assert re.search(r"button, a\.button \{[^}]*min-height: 48px", css)
    assert re.search(r"ul\.here-list li \{[^}]*min-height: 52px", css)


anything = st.one_of(st.text(max_size=30), st.sampled_from(["", "9", "13", "19", "0", "Bianka", "Czarek", "-1"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    url=st.sampled_from(["/tonight/here", "/tonight/leave", "/tonight/refuse", "/tonight/pair-again"]),
    fields=st.fixed_dictionaries({}, optional={name: anything for name in ("nick", "a", "b", "size")}),
    query=anything,
)
def test_whatever_a_phone_sends_tonight_never_fails(
    home, hidden: Callable[[str], dict[str, str]], url: str, fields: dict[str, str], query: str
) -> None:
    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home)})).test_client()
    assert client.get("/tonight", query_string={"size": query}).status_code == 200
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/tonight").get_data(as_text=True))
    assert csrf
    response = client.post(url, data={"csrf_token": csrf.group(1), **fields})
    asked = url == "/tonight/leave" and response.status_code == 200  # another phone's player: asked first
    assert response.status_code in (302, 400) or asked


def test_names_in_any_script_check_in_and_reach_the_game_form(client: FlaskClient, store: Store) -> None:
    from kiosk.events import parse_event

    for nick, strength in [("Łucja", 30), ("Ваня", 30.5), ("小龍", 28), ("🐉 Smok", 27)]:
        store.record(
            parse_event(
                {
                    "type": "player",
                    "at": "2026-11-01T11:00",
                    "nick": nick,
                    "size": 13,
                    "status": "member",
                    "strength": strength,
                }
            )
        )
    here(client, "łucja", "ВАНЯ", "小龍", "🐉 smok", size="13")
    page = text(client.get("/tonight?size=13"))
    assert pairs(page) == ["Ваня – Łucja", "小龍 – 🐉 Smok"]
    link = re.search(r'href="(/new\?a=%E5%B0%8F%E9%BE%8D[^"]+)"', page)
    assert link, page
    form = text(client.get(link.group(1)))
    assert 'value="小龍"' in form and 'value="🐉 Smok"' in form


def test_a_name_typed_without_polish_letters_checks_in_the_boards_player(client: FlaskClient, store: Store) -> None:
    # The same matching as the game form (kiosk.names.resolve): "lucja" is Łucja.
    from kiosk.recording import new_guest

    store.record(new_guest("Łucja", 9, datetime(2026, 11, 1, 11), store.magnets()))
    here(client, "lucja", "CZAREK")
    assert store.checked_in(tonight(store)) == ["Łucja", "Czarek"]
