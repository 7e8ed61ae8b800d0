"""Every message names its field, the field is marked and tied to it, and it says what would be accepted:
the phone's game form, a new guest, tonight's check-in and the owner's forms."""

from __future__ import annotations

import html
import re
import time

from flask.testing import FlaskClient

from kiosk.store import Store
from web.pin import hash_pin


def summary(page: str) -> list[str]:
    """The messages of the summary at the top (role=alert), in order, as a person reads them."""
    box = re.search(r'<div class="errors" role="alert"[^>]*>(.*?)</div>', page, flags=re.S)
    assert box, "no summary of what is wrong"
    lines = re.findall(r"<p[^>]*>(.*?)</p>", box[1], flags=re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", line)).split()) for line in lines]


def marked(page: str, name: str) -> str:
    """The message a field with ``name`` is tied to by aria-describedby; fails when it is not marked."""
    field = re.search(rf'<input[^>]*\bname="{name}"[^>]*>', page)
    assert field, name
    assert 'aria-invalid="true"' in field[0], field[0]
    tied = re.search(r'aria-describedby="([^"]+)"', field[0])
    assert tied, field[0]
    said = re.search(rf'id="{tied[1]}"[^>]*>(.*?)<', page)
    assert said, tied[1]
    return " ".join(html.unescape(said[1]).split())


def test_an_empty_form_first_says_player_1(client: FlaskClient, send) -> None:
    page = send("/new", {"a": "", "b": "", "size": "9"}).get_data(as_text=True)
    said = summary(page)
    assert said[0] == "Player 1: type a nickname (1 to 30 letters)."
    assert said[1] == "Player 2: type a nickname (1 to 30 letters)."
    assert said[2] == "Who won: tap one of the two players, or Draw."
    assert marked(page, "a") == said[0]
    assert marked(page, "b") == said[1]
    assert 'href="#a"' in page  # the summary's message leads to its field


def test_an_empty_player_1_names_player_1_in_polish(client: FlaskClient, send) -> None:
    client.set_cookie("lang", "pl")
    page = send("/new", {"a": "", "b": "Czarek", "size": "9", "winner": "b", "by": "resignation"})
    text = page.get_data(as_text=True)
    assert page.status_code == 400
    assert summary(text) == ["Gracz 1: wpisz nick (od 1 do 30 znaków)."]
    assert marked(text, "a") == "Gracz 1: wpisz nick (od 1 do 30 znaków)."
    assert 'name="b"' in text and 'aria-invalid="true"' not in re.search(r'<input[^>]*name="b"[^>]*>', text)[0]


def test_a_43_letter_name_is_too_long(client: FlaskClient, send, store: Store) -> None:
    before = list(store.export_lines())
    page = send("/new", {"a": "B" * 43, "b": "Czarek", "size": "9", "winner": "b", "by": "resignation"})
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert marked(text, "a") == "Player 1: the nickname is too long (43 letters; at most 30)."
    assert list(store.export_lines()) == before
    client.set_cookie("lang", "pl")
    text = send("/new", {"a": "Bianka", "b": "C" * 43, "size": "9", "winner": "b"}).get_data(as_text=True)
    assert marked(text, "b") == "Gracz 2: nick jest za długi (43 znaki; najwyżej 30)."


def test_who_won_and_how_are_marked_in_turn(send, game: dict[str, str]) -> None:
    text = send("/new", {**game, "winner": ""}).get_data(as_text=True)
    assert summary(text) == ["Who won: tap one of the two players, or Draw."]
    assert 'id="winner" aria-invalid="true" aria-describedby="winner-problem"' in text
    text = send("/new", {**game, "by": ""}).get_data(as_text=True)
    assert summary(text) == ["How the game ended: tap By points, By resignation, or On time / other."]
    text = send("/new", {**game, "points": ""}).get_data(as_text=True)
    assert marked(text, "points") == "Points: type the points, like 7 or 7.5."


def test_a_core_error_is_tied_to_its_field(send, game: dict[str, str]) -> None:
    text = send("/new", {**game, "points": "abc"}).get_data(as_text=True)
    assert marked(text, "points").startswith("Points: ")
    text = send("/new", {**game, "b": "Bianka"}).get_data(as_text=True)
    assert marked(text, "b") == "Player 2: Player 1 and player 2 are both Bianka. Pick two different players."
    text = send("/new", {**game, "b": "Czark"}).get_data(as_text=True)
    assert marked(text, "b").startswith("Player 2: Czark is not on the board yet.")


def test_seven_days_back_starts_with_a_capital(client: FlaskClient, send, store: Store, game) -> None:
    store.save_config(store.config.with_changes(days_back=7))
    text = send("/new", {**game, "at": "2020-01-01T19:00"}).get_data(as_text=True)
    said = marked(text, "at")
    assert said.startswith("Played at: The game was played more than 7 days ago (2020-01-01 19:00).")
    client.set_cookie("lang", "pl")
    said = marked(send("/new", {**game, "at": "2020-01-01T19:00"}).get_data(as_text=True), "at")
    assert said.startswith("Kiedy grana: Partia była ponad 7 dni temu")


def test_a_new_guest_too_long_and_a_bad_grade(send) -> None:
    text = send("/players/new", {"nick": "x" * 31, "size": "9", "start": "zero"}).get_data(as_text=True)
    assert marked(text, "nick") == "Nickname: the nickname is too long (31 letters; at most 30)."
    text = send("/players/new", {"nick": "Nowy", "size": "9", "start": "kyu", "grade": "77"}).get_data(as_text=True)
    assert marked(text, "grade").startswith("Grade: ")


def test_tonight_names_and_marks_the_nickname(client: FlaskClient, send) -> None:
    text = send("/tonight", {"nick": ""}, url="/tonight/here").get_data(as_text=True)
    assert marked(text, "nick") == "Your nickname: type it, then tap “I'm here”."
    client.set_cookie("lang", "pl")
    text = send("/tonight", {"nick": "Nikt"}, url="/tonight/here").get_data(as_text=True)
    assert marked(text, "nick").startswith("Twój nick: Nikt")


def owner(client: FlaskClient, store: Store) -> None:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    with client.session_transaction() as session:
        session["owner"] = time.time() - 60


def test_the_owners_forms_name_and_mark_their_fields(client: FlaskClient, send, store: Store) -> None:
    owner(client, store)
    text = send("/owner/member", {"nick": "Nowa", "size": "9", "strength": "22.5"}).get_data(as_text=True)
    assert marked(text, "strength") == (
        "Strength (a field of the board): 22.5 is not a field of the scale; the nearest fields are 22 and 23"
    )
    text = send("/owner/correction", {"nick": "Bianka", "size": "9", "strength": "31.3", "with": ""}).get_data(
        as_text=True
    )
    assert marked(text, "with").startswith("Strong member who agreed (required): ")
    text = send("/owner/correction", {"nick": "Bianka", "size": "9", "strength": "31.3", "with": "Czarek"})
    assert "the nearest fields are 31 and 31.5" in marked(text.get_data(as_text=True), "strength")
    text = send("/owner/magnets", {"nick": "Bianka", "to": ""}, url="/owner/magnets/rename").get_data(as_text=True)
    assert marked(text, "to").startswith("New nickname: ")
    client.set_cookie("lang", "pl")
    text = send("/owner/member", {"nick": "Nowa", "size": "9", "strength": "22.5"}).get_data(as_text=True)
    assert "najbliższe pola to 22 i 23" in marked(text, "strength")


def test_the_handicap_calculator_marks_the_field_it_answers_about(client: FlaskClient) -> None:
    # 22.5 is no field: the second field is marked and named, with the fields that would do; the first is not.
    page = client.get("/handicap?size=13&a=30&b=22.5").get_data(as_text=True)
    said = "Player 2: 22.5 is not a field of the board. The nearest fields are 22 and 23."
    assert summary(page) == [said]
    assert marked(page, "b") == said
    assert 'aria-invalid="true"' not in re.search(r'<input[^>]*name="a"[^>]*>', page)[0]
    assert 'href="#b"' in page
    client.set_cookie("lang", "pl")
    page = client.get("/handicap?size=13&a=Nikt&b=Czarek").get_data(as_text=True)
    assert marked(page, "a").startswith("Gracz 1: ")
    assert 'aria-invalid="true"' not in re.search(r'<input[^>]*name="b"[^>]*>', page)[0]
