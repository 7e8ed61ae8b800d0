"""English and Polish chosen per phone (the catalogue itself: tests/kiosk/test_catalogue.py)."""

from __future__ import annotations

import html

from flask.testing import FlaskClient


def test_a_polish_phone_gets_polish_pages_and_decimal_commas(client: FlaskClient) -> None:
    page = client.get("/new?size=9&a=Bianka&b=Czarek", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    body = page.get_data(as_text=True)
    assert "Nowa partia" in body
    assert "Bianka gra białymi, Czarek czarnymi." in body
    assert "2 ruchy na start, 0 jeńców" in body
    assert "Różnica 9,5" in body


def test_the_clubs_language_when_the_phone_asks_for_neither(client: FlaskClient, store) -> None:
    assert "New game" in client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    store.save_config(store.config.with_changes(language="pl"))
    assert "Nowa partia" in client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)


def test_a_polish_phone_gets_a_bad_grade_and_margin_explained_in_polish(send, client: FlaskClient, game) -> None:
    client.set_cookie("lang", "pl")
    page = send("/players/new", {"nick": "Zosia", "size": "9", "start": "kyu", "grade": "dużo"})
    assert page.status_code == 400
    assert "Stopień to liczba: od 1 do 50 kyu albo od 1 do 9 dan. Wpisz samą liczbę." in html.unescape(
        page.get_data(as_text=True)
    )
    page = send("/new", {**game, "points": "nan"})
    assert page.status_code == 400
    assert "Wpisz punkty jako liczbę od 0,5 do 81, na przykład 7 albo 7,5." in page.get_data(as_text=True)
