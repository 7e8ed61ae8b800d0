"""The look-alike table (kiosk/confusables.py) and the nickname key built on it (kiosk/names.py)."""

from __future__ import annotations

import unicodedata

import pytest

from kiosk.confusables import PROTOTYPES, skeleton
from kiosk.names import lookalike_key, looks_like

SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "DIGIT", "VERTICAL LINE")


@pytest.mark.parametrize("character", sorted(PROTOTYPES))
def test_every_mapping_is_of_the_clubs_scripts_onto_latin(character: str) -> None:
    """Each entry maps a Latin, Cyrillic or Greek letter (or 0, 1, |) onto Latin letters and marks only."""
    assert unicodedata.name(character).startswith(SCRIPTS)
    for ch in PROTOTYPES[character]:
        assert unicodedata.combining(ch) or unicodedata.name(ch).startswith(("LATIN", "DIGIT"))
    assert len(character) == 1 and PROTOTYPES[character] != character


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("paypal", "pаypаl"),  # Cyrillic а (UTS #39's own example family)
        ("Łucja", "Łucjа"),
        ("Ola", "0la"),
        ("Ian", "lan"),
        ("Kamil", "Karnil"),  # m is rn
        ("Ewa", "Evva"),
        ("ΑΒ", "AB"),  # Greek capitals
        ("Sasza", "Ѕаѕza"),
    ],
)
def test_look_alikes_share_a_skeleton(a: str, b: str) -> None:
    assert skeleton(a) == skeleton(b)
    assert lookalike_key(a) == lookalike_key(b)


@pytest.mark.parametrize(
    ("a", "b"), [("Ania", "Anna"), ("Łucja", "Lucyna"), ("Dawid", "Daniel"), ("Ola", "Ala"), ("Gość 1", "Gość 11")]
)
def test_different_names_stay_different(a: str, b: str) -> None:
    assert lookalike_key(a) != lookalike_key(b)


def test_case_and_accents_fold_away_and_the_name_itself_is_not_its_look_alike() -> None:
    assert lookalike_key("ŁUCJA") == lookalike_key("lucja") == lookalike_key("Łúcja")
    assert looks_like("Łucjа", ["Bartek", "Łucja"]) == "Łucja"
    assert looks_like("łucja", ["Łucja"]) is None  # the same nickname, case aside: "taken", not a look-alike
    assert looks_like("Lucyna", ["Łucja"]) is None
