"""Similar nicknames: the "did you mean Bianka?" offered before a duplicate is added."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kiosk.names import are_similar, distance, duplicate_pairs, similar

CLUB = ["Bianka", "Czarek", "Łukasz", "Anna Maria", "Jo", "Zbigniew"]


def test_case_diacritics_typos_and_swapped_words_are_offered() -> None:
    assert similar("bianka ", CLUB) == []  # the same nickname is taken, not similar
    assert similar("Bianca", CLUB) == ["Bianka"]
    assert similar("Lukasz", CLUB) == ["Łukasz"]
    assert similar("Maria Anna", CLUB) == ["Anna Maria"]
    assert similar("Czraek", CLUB) == ["Czarek"]  # two letters swapped
    assert similar("Zbigniw", CLUB) == ["Zbigniew"]


def test_different_people_are_not_offered() -> None:
    assert similar("Dawid", CLUB) == []
    assert similar("Jan", CLUB) == []  # short nicknames must match exactly up to case and accents
    assert similar("Ja", CLUB) == []


def test_the_same_nickname_is_not_its_own_suggestion() -> None:
    assert similar("Bianka", CLUB) == []


def test_duplicate_pairs_for_the_owner() -> None:
    pairs = duplicate_pairs(["Bianka", "bianca", "Czarek", "Łukasz", "Lukasz"])
    assert {frozenset(pair) for pair in pairs} == {frozenset({"Bianka", "bianca"}), frozenset({"Łukasz", "Lukasz"})}


@given(st.text(max_size=12), st.text(max_size=12))
def test_distance_is_symmetric_and_zero_only_for_equal_texts(a: str, b: str) -> None:
    assert distance(a, b, 20) == distance(b, a, 20)
    assert (distance(a, b, 20) == 0) == (a == b)


@given(st.text(min_size=1, max_size=20))
def test_a_nickname_is_similar_to_itself_in_other_case(nick: str) -> None:
    assert are_similar(nick, nick.upper()) or nick.upper().casefold() != nick.casefold()


def test_a_name_typed_without_polish_letters_or_in_another_case_is_found() -> None:
    from kiosk.names import resolve

    club = ["Łucja", "Tymek", "Żaneta", "Zaneta2"]
    assert resolve("Lucja", club) == "Łucja"
    assert resolve("łUCJA", club) == "Łucja"
    assert resolve("  tymek ", club) == "Tymek"
    assert resolve("zaneta", club) == "Żaneta"
    assert resolve("Tymk", club) is None
    assert resolve("", club) is None
    assert resolve("Lucja", ["Łucja", "Lucja"]) == "Lucja"  # an exact name wins
    assert resolve("lucja", ["Łucja", "Łućja"]) is None  # two candidates: no guess


def test_type_ahead_and_did_you_mean_ignore_case_and_polish_letters() -> None:
    from kiosk.names import starting_with, suggestions

    club = ["Łucja", "Lucek", "Tymek", "Bianka", "Ćwierć"]
    assert starting_with("luc", club) == ["Lucek", "Łucja"]
    assert starting_with("cw", club) == ["Ćwierć"]
    assert suggestions("Tymk", club) == ["Tymek"]
    assert suggestions("Bian", club) == ["Bianka"]
    assert suggestions("Xyz", club) == []
