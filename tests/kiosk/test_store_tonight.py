"""The store's check-in list and refused pairs of an evening, on a real SQLite file.

Beside tests/kiosk/test_store.py rather than in it: the tables are an addition of their own.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from histories import game, player

from kiosk.config import DATABASE_NAME, Config
from kiosk.evening import club_evening
from kiosk.store import Store
from kiosk.tonight import for_evening, pair_of

MONDAY = date(2026, 11, 2)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        for nick, strength in [("Ala", 20), ("Łucja", 22), ("Ваня", 10), ("小龍", 11), ("🐉 Smok", 30)]:
            store.record(player(nick, 13, "member", strength))
        yield store


def test_a_checked_in_player_is_on_that_evenings_list_only(club: Store) -> None:
    assert club.checked_in(MONDAY) == []
    assert club.check_in(MONDAY, "Łucja", origin="phone:x") is True
    assert club.check_in(MONDAY, "Ваня") is True
    assert club.checked_in(MONDAY) == ["Łucja", "Ваня"]  # in the order they came
    assert club.checked_in(MONDAY + timedelta(days=1)) == []  # the next evening starts empty


def test_checking_in_twice_keeps_one_line_whatever_the_spelling(club: Store) -> None:
    club.check_in(MONDAY, "Łucja")
    assert club.check_in(MONDAY, "ŁUCJA") is False
    assert club.checked_in(MONDAY) == ["Łucja"]


def test_checking_out_takes_a_player_off_and_back_on(club: Store) -> None:
    club.check_in(MONDAY, "小龍")
    club.check_in(MONDAY, "🐉 Smok")
    assert club.check_out(MONDAY, "小龍") is True
    assert club.check_out(MONDAY, "小龍") is False
    assert club.checked_in(MONDAY) == ["🐉 Smok"]
    club.check_in(MONDAY, "小龍")
    assert club.checked_in(MONDAY) == ["🐉 Smok", "小龍"]


def test_the_list_survives_reopening_and_is_not_history(club: Store, tmp_path: Path) -> None:
    before = (club.export_lines(), club.change_counter())
    club.check_in(MONDAY, "Ala")
    club.refuse(MONDAY, "Ala", "Łucja")
    assert list(club.export_lines()) == list(before[0])  # nothing in the history
    assert club.change_counter() == before[1] + 2  # but the wall is told: one change counter for every write
    with Store.open(tmp_path) as again:
        assert again.checked_in(MONDAY) == ["Ala"]
        assert again.refusals(MONDAY) == {pair_of("Łucja", "ala")}
        assert again.check() == []


def test_a_store_that_never_had_a_check_in_reads_empty(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        assert store.checked_in(MONDAY) == [] and store.refusals(MONDAY) == set()
        assert store.check_out(MONDAY, "Ala") is False
    tables = {row[0] for row in sqlite3.connect(tmp_path / DATABASE_NAME).execute("SELECT name FROM sqlite_master")}
    assert "checkin" not in tables  # reading made nothing


def test_refusals_belong_to_their_evening(club: Store) -> None:
    club.refuse(MONDAY, "Ala", "Łucja")
    club.refuse(MONDAY, "łucja", "ALA")
    assert club.refusals(MONDAY) == {pair_of("Ala", "Łucja")}
    assert club.refusals(MONDAY + timedelta(days=1)) == set()
    assert club.unrefuse(MONDAY, "ŁUCJA", "ala") is True  # a mistaken tap, taken back
    assert club.unrefuse(MONDAY, "Ala", "Łucja") is False
    assert club.refusals(MONDAY) == set()


# --- tonight's pairs from the list ------------------------------------------------------------


def test_tonights_pairs_follow_arrivals_departures_and_refusals(club: Store) -> None:
    evening, start, _ = club_evening(Config(), datetime(2026, 11, 2, 18, 0))
    now = datetime(2026, 11, 2, 19, 0)

    def pairs() -> tuple[list[tuple[str, str]], str | None, list[str]]:
        e = for_evening(
            13,
            club.magnets(),
            club.checked_in(evening),
            Config(),
            club.games_since(now - timedelta(7)),
            start,
            now,
            club.refusals(evening),
        )
        names = [(p.sides[0].nick, p.sides[1].nick) for p in e.suggestion.pairs]
        return names, e.suggestion.bye.nick if e.suggestion.bye else None, [s.nick for s in e.waiting]

    for nick in ("Ala", "Łucja", "Ваня"):
        club.check_in(evening, nick)
    assert pairs() == ([("Łucja", "Ala")], "Ваня", [])
    club.check_in(evening, "小龍")
    assert pairs() == ([("Łucja", "Ala"), ("小龍", "Ваня")], None, [])
    club.refuse(evening, "Ala", "Łucja")
    assert pairs() == ([("Łucja", "小龍"), ("Ala", "Ваня")], None, [])  # re-paired round the refusal
    club.check_out(evening, "小龍")
    club.check_out(evening, "Ваня")
    assert pairs() == ([], None, ["Łucja", "Ala"])  # only the refused pair is left: not suggested again


def test_a_game_played_tonight_is_not_suggested_again(club: Store) -> None:
    evening, start, _ = club_evening(Config(), datetime(2026, 11, 2, 18, 0))
    club.record(game(13, "Ala", "Łucja", "Ala", "resignation", when="2026-11-02T19:10"))
    for nick in ("Ala", "Łucja", "Ваня", "小龍"):
        club.check_in(evening, nick)
    now = datetime(2026, 11, 2, 20, 0)
    e = for_evening(
        13, club.magnets(), club.checked_in(evening), Config(), club.games_since(now - timedelta(7)), start, now
    )
    assert pair_of("Ala", "Łucja") not in {pair_of(p.sides[0].nick, p.sides[1].nick) for p in e.suggestion.pairs}
    assert len(e.suggestion.pairs) == 2 and e.suggestion.rematches == 0
    # The next evening the same two are the nearest strengths again (last week's pair, nothing better).
    tomorrow, start, _ = club_evening(Config(), datetime(2026, 11, 3, 18, 0))
    for nick in ("Ala", "Łucja"):
        club.check_in(tomorrow, nick)
    e = for_evening(
        13,
        club.magnets(),
        club.checked_in(tomorrow),
        Config(),
        club.games_since(now - timedelta(7)),
        start,
        datetime(2026, 11, 3, 18, 0),
    )
    assert [pair_of(p.sides[0].nick, p.sides[1].nick) for p in e.suggestion.pairs] == [pair_of("Ala", "Łucja")]
    assert e.suggestion.rematches == 0 and e.suggestion.recent == 1


def test_a_player_renamed_since_checking_in_is_named_not_paired(club: Store) -> None:
    evening = MONDAY
    club.check_in(evening, "Ala")
    club.check_in(evening, "Zenek")  # a name the board does not have (any more)
    e = for_evening(
        13, club.magnets(), club.checked_in(evening), Config(), [], datetime(2026, 11, 2, 17), datetime(2026, 11, 2, 19)
    )
    assert e.off_board == ("Zenek",)
    assert e.suggestion.bye is not None and e.suggestion.bye.nick == "Ala"


def test_sixteen_phones_checking_in_at_once_are_all_on_the_list(club: Store, tmp_path: Path) -> None:
    nicks = [f"Gracz{n:02d}" for n in range(16)]
    for nick in nicks:
        club.record(player(nick, 13, "member", 10))
    errors: list[BaseException] = []

    def phone(nick: str) -> None:
        try:
            with Store.open(tmp_path) as own:  # each phone's request has its own connection
                own.check_in(MONDAY, nick, origin=f"phone:{nick}")
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=phone, args=(nick,)) for nick in nicks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(club.checked_in(MONDAY)) == nicks


def test_every_change_to_tonights_list_moves_the_one_change_counter_and_a_non_change_does_not(club: Store) -> None:
    counted = club.change_counter
    start = counted()
    assert club.check_in(MONDAY, "Ala") and counted() == start + 1
    assert not club.check_in(MONDAY, "ala") and counted() == start + 1  # already here: nothing changed
    club.check_in(MONDAY, "Łucja")
    club.refuse(MONDAY, "Ala", "Łucja")
    assert counted() == start + 3
    club.refuse(MONDAY, "Łucja", "Ala")  # refused already
    assert counted() == start + 3
    assert club.unrefuse(MONDAY, "Ala", "Łucja") and counted() == start + 4
    assert not club.unrefuse(MONDAY, "Ala", "Łucja") and counted() == start + 4
    assert club.check_out(MONDAY, "Łucja") and counted() == start + 5
    assert not club.check_out(MONDAY, "Łucja") and counted() == start + 5
