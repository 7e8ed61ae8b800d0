"""Public labels and hidden players (children's privacy): the pure core."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.board import GameResult, Magnet, Move
from kiosk.events import nick_key
from kiosk.handicap import EVEN
from kiosk.privacy import (
    INITIALS,
    NICK,
    SHORT,
    PlayerPrivacy,
    Privacy,
    check_short_name,
    initials,
    public_labels,
    public_names,
)


@pytest.mark.parametrize(
    ("nick", "expected"),
    [
        ("Łucja Kowalska", "Ł.K."),
        ("żaneta", "Ż."),
        ("Źdźbło Ścisłe", "Ź.Ś."),
        ("ąę óś", "Ą.Ó."),
        ("Anna-Maria Nowak", "A.M.N."),
        ("Ёжик в тумане", "Ё.В.Т."),
        ("王小明", "王."),
        ("小龍 Li", "小.L."),
        ("🐉 Smok", "🐉.S."),
        ("🇵🇱 Polak", "🇵🇱.P."),
        ("👨\u200d👩\u200d👧 family", "👨\u200d👩\u200d👧.F."),
        ("!!!", "!."),
        ("kasia_99", "K.9."),
    ],
)
def test_initials_keep_polish_letters_whole_characters_and_are_never_empty(nick: str, expected: str) -> None:
    assert initials(nick) == expected


def test_initials_of_a_decomposed_polish_name_are_the_composed_letter() -> None:
    assert initials("L\u0301ukasz Z\u0307ak") == "Ĺ.Ż."  # NFD input, as some phones send it


def test_the_club_default_shows_nicknames_and_a_player_may_show_initials_or_a_short_name() -> None:
    privacy = Privacy(NICK, {"łucja kowalska": PlayerPrivacy(show=INITIALS), "bob": PlayerPrivacy(SHORT, "Bobek")})
    labels = public_labels(["Łucja Kowalska", "Bob", "Ala"], privacy)
    assert labels == {"Łucja Kowalska": "Ł.K.", "Bob": "Bobek", "Ala": "Ala"}


def test_a_club_showing_initials_lets_one_player_show_the_nickname() -> None:
    privacy = Privacy(INITIALS, {"ala": PlayerPrivacy(show=NICK)})
    assert public_labels(["Ala", "Bob Kot"], privacy) == {"Ala": "Ala", "Bob Kot": "B.K."}


def test_a_short_name_asked_for_but_not_given_falls_back_to_initials() -> None:
    assert public_labels(["Jan Nowak"], Privacy(SHORT)) == {"Jan Nowak": "J.N."}


def test_a_hidden_player_is_never_labelled_by_the_nickname() -> None:
    privacy = Privacy(
        NICK, {"jan nowak": PlayerPrivacy(hidden=True), "ola": PlayerPrivacy(hidden=True, short_name="O")}
    )
    assert public_labels(["Jan Nowak", "Ola"], privacy) == {"Jan Nowak": "J.N.", "Ola": "O"}


def test_two_players_with_the_same_initials_are_told_apart_by_a_raised_number() -> None:
    labels = public_labels(["Adam Kowal", "Anna Kot", "Alicja Kamińska"], Privacy(INITIALS))
    assert labels == {"Adam Kowal": "A.K.", "Alicja Kamińska": "A.K.²", "Anna Kot": "A.K.³"}


def test_a_nickname_shown_keeps_it_and_the_label_that_would_read_the_same_moves_aside() -> None:
    privacy = Privacy(INITIALS, {"a.k.": PlayerPrivacy(show=NICK)})
    labels = public_labels(["A.K.", "Adam Kowal"], privacy)
    assert labels == {"A.K.": "A.K.", "Adam Kowal": "A.K.²"}


def test_labels_are_compared_without_case() -> None:
    privacy = Privacy(NICK, {"bob": PlayerPrivacy(SHORT, "ala")})
    assert public_labels(["Ala", "Bob"], privacy) == {"Ala": "Ala", "Bob": "ala²"}


_letters = st.sampled_from(list("AaBbĄąŁłŻżŚśКкЖж王小龍🐉🙂 -._!1"))
_nicks = st.text(_letters, min_size=1, max_size=30).filter(lambda n: n.strip())
_modes = st.sampled_from([None, NICK, INITIALS, SHORT])
_own = st.builds(PlayerPrivacy, _modes, st.text(_letters, max_size=5), st.booleans(), st.booleans())


@settings(max_examples=300, deadline=None)
@given(st.lists(_nicks, max_size=40), st.sampled_from([NICK, INITIALS, SHORT]), st.data())
def test_labels_are_unique_never_empty_and_hidden_nicknames_never_shown(
    nicks: list[str], club: str, data: st.DataObject
) -> None:
    players = {nick_key(n): data.draw(_own) for n in nicks}
    privacy = Privacy(club, players)
    labels = public_labels(nicks, privacy)
    assert {nick_key(n) for n in labels} == {nick_key(n) for n in nicks}  # everyone has one
    assert all(label.strip() for label in labels.values())
    keys = [nick_key(label) for label in labels.values()]
    assert len(set(keys)) == len(keys)
    for nick, label in labels.items():
        if privacy.hidden(nick) and nick_key(label) == nick_key(nick):
            # Only where the nickname is itself what the initials or short name make ("A." is "A.").
            assert label in (initials(nick), " ".join(privacy.of(nick).short_name.split()))


def _game(a: str, b: str) -> GameResult:
    return GameResult(
        1, datetime(2026, 11, 2, 19), 13, (a, b), a, None, a, EVEN,
        {a: Move(80, 84, "win"), b: Move(80, 76, "loss")}, (("even", a, b),),
    )  # fmt: skip


def test_public_names_relabel_games_and_leave_hidden_players_off_lists() -> None:
    privacy = Privacy(NICK, {"jan nowak": PlayerPrivacy(hidden=True)})
    names = public_names(["Jan Nowak", "Ala"], privacy)
    magnets = (Magnet("Jan Nowak", 13, 80, "member"), Magnet("Ala", 13, 80, "member"))
    assert [m.nick for m in names.shown(magnets)] == ["Ala"]
    game = names.game(_game("Jan Nowak", "Ala"))
    assert "Jan Nowak" not in repr(game)
    assert game.players == ("J.N.", "Ala") and game.winner == "J.N." and game.white == "J.N."
    assert set(game.moves) == {"J.N.", "Ala"} and game.milestones == (("even", "J.N.", "Ala"),)


def test_a_phone_finds_a_player_by_label_or_the_whole_nickname_but_not_by_part_of_a_hidden_one() -> None:
    privacy = Privacy(INITIALS, {"łucja kowalska": PlayerPrivacy(SHORT, "Łucja")})
    names = public_names(["Łucja Kowalska", "Adam Kowal"], privacy)
    assert names.nick_for("Łucja") == "Łucja Kowalska"
    assert names.nick_for("lucja") == "Łucja Kowalska"  # without Polish letters, as the game form allows
    assert names.nick_for("a.k.") == "Adam Kowal"
    assert names.nick_for("adam kowal") == "Adam Kowal"  # a child may type their own nickname
    assert names.nick_for("Kowal") is None
    assert names.nick_for("   ") is None


def test_a_short_name_must_be_short_printable_and_not_anothers_name() -> None:
    nicks = ["Ala", "Bob"]
    labels = {"Ala": "Ala", "Bob": "B."}
    assert check_short_name("  Bo   bek ", "Bob", nicks, labels) == "Bo bek"
    assert check_short_name("", "Bob", nicks, labels) == ""
    for raw, code in [("x" * 21, "short-name-long"), ("ala", "short-name-taken"), ("a\x00", "short-name-control")]:
        with pytest.raises(ValueError, match=code):
            check_short_name(raw, "Bob", nicks, labels)
    assert check_short_name("bob", "Bob", nicks, labels) == "bob"  # one's own nickname is one's own


def test_a_label_stands_for_its_nickname_only_when_given_exactly() -> None:
    names = public_names(["Ala Kot", "Bob"], Privacy(INITIALS))
    assert names.nick_of_label("a.k.") == "Ala Kot"
    assert names.nick_of_label("A.K.\x00") is None and names.nick_of_label("Ala Kot") is None


def test_a_hidden_players_nickname_typed_whole_finds_nobody_but_the_label_does() -> None:
    privacy = Privacy(NICK, {"zuzanna wiśniewska": PlayerPrivacy(hidden=True)})
    names = public_names(["Zuzanna Wiśniewska", "Ala"], privacy)
    assert names.nick_for("Zuzanna Wiśniewska") is None
    assert names.nick_for("z.w.") == "Zuzanna Wiśniewska"
    assert names.nick_for("ala") == "Ala"


def test_the_wall_draws_the_owners_symbol_beside_the_label_and_the_phone_keeps_the_label() -> None:
    from kiosk.privacy import public_names

    privacy = Privacy(INITIALS, {"ola": PlayerPrivacy(mark="★"), "oliwia": PlayerPrivacy(mark="♥")})
    names = public_names(["Ola", "Oliwia", "Olek"], privacy)
    assert [names.label(n) for n in ("Ola", "Olek", "Oliwia")] == ["O.", "O.²", "O.³"]  # the labels phones type
    assert names.mark("O.³") == names.mark("Oliwia") == "♥" and names.mark("Olek") == ""
    wall = names.on_the_wall()
    assert [wall.label(n) for n in ("Ola", "Olek", "Oliwia")] == ["★ O.", "O.²", "♥ O.³"]
    assert wall.nick_of_label("♥ O.³") == "Oliwia"  # the wall's pages still find whose label it is
