"""English and Polish: the catalogue is complete, compiled, and chosen per phone."""

from __future__ import annotations

import html
import io
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

import web
from kiosk import catalogue

WEB = Path(web.__file__).parent
PO = catalogue.FOLDER / "pl" / "LC_MESSAGES" / "messages.po"


def polish() -> object:
    """The Polish catalogue as committed."""
    with PO.open("rb") as file:
        return read_po(file, locale="pl")


def test_the_compiled_catalogue_is_up_to_date_with_the_po_file() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, polish())
    assert compiled.getvalue() == PO.with_suffix(".mo").read_bytes(), "run: pybabel compile -d kiosk/translations"


def test_every_sentence_of_the_app_has_a_polish_translation() -> None:
    catalog = polish()
    method_map = [("**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None}
    for _file, _line, message, _comments, _context in extract_from_dir(str(WEB), method_map, keywords=keywords):
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)  # type: ignore[attr-defined]
        assert entry is not None, f"not in the catalogue: {key!r} (run pybabel extract and update)"
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(strings) and not entry.fuzzy, f"not translated: {key!r}"


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
