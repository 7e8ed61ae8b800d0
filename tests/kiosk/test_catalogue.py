"""The one catalogue (kiosk/catalogue.py): every message of the web, the wall, the core and the CLI, in Polish."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from kiosk import catalogue
from kiosk.catalogue import language_of, translate

ROOT = Path(__file__).resolve().parent.parent.parent
PO = catalogue.FOLDER / "pl" / "LC_MESSAGES" / "messages.po"
# As babel.cfg and its extract command say.
METHODS = {
    "kiosk": [("**.py", "python")],
    "display": [("**.py", "python")],
    "web": [("**.py", "python"), ("templates/**.html", "jinja2")],
}
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "_l": None,
    "lazy_gettext": None,
    "N_": None,
    "translate": (2,),
    "translate_plural": (2, 3),
}


def polish() -> Catalog:
    """The Polish catalogue as committed."""
    with PO.open("rb") as file:
        return read_po(file, locale="pl")


def message_ids() -> list[tuple[str, str]]:
    """Every message id the code uses, with the package it is in."""
    found = []
    for package, methods in METHODS.items():
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / package), methods, keywords=KEYWORDS
        ):
            key = message[0] if isinstance(message, tuple) else message
            if key:
                found.append((package, key))
    return found


def test_the_compiled_catalogue_is_up_to_date_with_the_po_file() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, polish())
    assert compiled.getvalue() == PO.with_suffix(".mo").read_bytes(), "run: pybabel compile -d kiosk/translations"


def test_every_message_of_every_part_is_in_the_catalogue_in_polish() -> None:
    catalog = polish()
    found = message_ids()
    assert {package for package, _ in found} == set(METHODS)  # the extraction sees the core and the wall too
    for package, key in found:
        entry = catalog.get(key)
        assert entry is not None, f"{package}: not in the catalogue: {key!r} (run pybabel extract and update)"
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(strings) and not entry.fuzzy, f"{package}: not translated: {key!r}"


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)", text)) | set(re.findall(r"%\((\w+)\)", text))


def test_a_translation_fills_in_the_same_fields_as_its_english() -> None:
    for entry in polish():
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for text in strings:
            assert _fields(text) <= set().union(*map(_fields, ids)), (entry.id, text)


def test_the_core_and_the_wall_read_the_catalogue_without_flask() -> None:
    assert translate("pl", "no games yet") == "jeszcze bez partii"
    assert translate("pl", "line {line}: {text}", line=5, text="x") == "wiersz 5: x"
    assert translate("en", "no games yet") == "no games yet"
    assert translate("de", "no games yet") == "no games yet"  # a language we do not have: English


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "pl:en", "LANG": "en_US.UTF-8"}, "pl"),
        ({"LC_ALL": "C"}, "en"),
        ({}, "en"),
    ],
)
def test_a_terminal_asks_for_its_language(environ: dict[str, str], language: str) -> None:
    assert language_of(environ) == language
