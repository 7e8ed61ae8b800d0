"""Lists in, lists out: a roster's CSV and an OpenGotha file's players into tonight's list; the
.h9 and OpenGotha exports of events with late starters and league absences parse back by their formats' rules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree

import pytest
from histories import player

from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.pairing import side_of
from kiosk.roster import RosterRow, from_csv, from_opengotha, grade_of
from kiosk.services import league as leagues
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tournament import A_WINS, Tournament, egd_grade, event_standings, to_h9, to_opengotha

EVENING = date(2026, 11, 2)
NOW = datetime(2026, 11, 2, 19, 30)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        for i in range(14):
            store.record(player(f"Gracz{i:02d}", 13, "member", 30 - i))
        yield store


def test_a_csv_roster_reads_strengths_grades_a_header_and_a_polish_spreadsheet() -> None:
    text = "nickname,size,strength\nAla,13,12\nBolek,13,10k\nCela,13,2 dan\n"
    assert from_csv(text) == [
        RosterRow("Ala", 13, 48),
        RosterRow("Bolek", 13, None, 10),
        RosterRow("Cela", 13, None, None, 2),
    ]
    assert from_csv("\ufeffAla;13;12\nOla;13;30,5\n") == [RosterRow("Ala", 13, 48), RosterRow("Ola", 13, 122)]
    assert grade_of("15 kyu") == (15, None) and grade_of("1D") == (None, 1) and grade_of("51k") is None


@pytest.mark.parametrize(
    ("text", "english", "polish"),
    [
        ("Ala,13,12\nOla,14,3\n", "line 2: '14' is not a board size", "wiersz 2: '14' to nie jest rozmiar planszy"),
        ("Ala,13,12\nOla,13,99k\n", "line 2: '99k' is neither", "wiersz 2: '99k' to ani siła z tablicy"),
        ("Ala,13\n", "line 1: a line needs a nickname", "wiersz 1: w wierszu potrzebny jest nick"),
        ("", "the list has no players", "na liście nie ma graczy"),
        ("Ala,13,1\nala,13,2\n", "ala is named twice", "ala jest podany dwa razy"),
        ("Ala,9,1\n", "line 1: this list is for 13x13, not 9x9", "wiersz 1: ta lista jest na 13x13, nie na 9x9"),
    ],
)
def test_a_damaged_csv_is_refused_whole_with_the_line_in_english_and_polish(
    text: str, english: str, polish: str
) -> None:
    with pytest.raises(HistoryError) as refused:
        from_csv(text, size=13)
    assert refused.value.message("en").startswith(english)
    assert refused.value.message("pl").startswith(polish)


def test_an_import_adds_new_players_and_checks_everyone_in_and_a_bad_list_changes_nothing(club: Store) -> None:
    before = club.history_mark()
    with pytest.raises(HistoryError):
        leagues.import_roster(club, EVENING, from_csv("Gracz01,13,1\nNowa,13,99k\n"), NOW)
    assert club.history_mark() == before and club.checked_in(EVENING) == []
    rows = from_csv("Gracz01,13,20\nNowa,13,12k\nNowy,13,14\n", size=13)
    done = leagues.import_roster(club, EVENING, rows, NOW, origin="owner")
    assert done.added == ("Nowa", "Nowy")
    assert done.checked_in == ("Gracz01", "Nowa", "Nowy")
    assert done.elsewhere == (("Gracz01", 29 * 4, 20 * 4),)  # the board keeps its field
    magnets = club.magnets()
    assert side_of(magnets, "Gracz01", 13).strength == 29 * 4
    assert side_of(magnets, "Nowa", 13).guest and side_of(magnets, "Nowy", 13).strength == 14 * 4


def _late_and_league(club: Store) -> tuple[Tournament, Tournament]:
    """A Swiss with a late starter and one who went home and came back; a league with a night away."""
    event = events.start(club, EVENING, 13, [side_of(club.magnets(), f"Gracz{i:02d}", 13) for i in range(11)], True)
    _play(club, event.id)
    leagues.join(club, event.id, "Gracz12", NOW)
    events.withdraw(club, event.id, "Gracz02", NOW)
    _play(club, event.id)
    leagues.come_back(club, event.id, "Gracz02", NOW)
    _play(club, event.id)
    events.close(club, event.id)
    week = EVENING + timedelta(days=7)
    for i in range(8):
        club.check_in(week, f"Gracz{i:02d}")
    sides = [side_of(club.magnets(), f"Gracz{i:02d}", 13) for i in range(8)]
    league = leagues.start_league(club, week, 13, sides, True, "Liga", 4, 1, absent="half", now=NOW)
    _play(club, league.id)
    later = week + timedelta(days=7)
    for i in range(1, 8):
        club.check_in(later, f"Gracz{i:02d}")
    leagues.pair_evening(club, league.id, later, NOW)
    _play(club, league.id)
    first, second = events.get(club, event.id), events.get(club, league.id)
    assert first is not None and second is not None
    return first, second


def _play(store: Store, event_id: int) -> None:
    event = events.get(store, event_id)
    assert event is not None
    for seat in event.round_seats(event.current):
        if seat.b is not None and seat.result is None:
            events.record_result(store, event_id, event.current, seat.board, A_WINS, "resignation", NOW)


H9_RESULT = re.compile(r"^(\d+)([+=-])(?:/([wb])(\d))?$")


def parse_h9(text: str) -> list[tuple[int, str, str, list[tuple[int, str, str | None]]]]:
    """An .h9 file by the EGD's rules: comment lines start with ';', a player line is place, name, grade,
    country, club and one entry per round, ``<opponent's place><+|-|=>[/<w|b><handicap>]`` (0: no opponent)."""
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.startswith(";"):
            continue
        place, name, grade, country, club, *rounds = line.split()
        assert re.fullmatch(r"\d{1,2}[kd]", grade) and re.fullmatch(r"[A-Z]{2}", country) and club
        parsed = []
        for entry in rounds:
            found = H9_RESULT.match(entry)
            assert found is not None, entry
            parsed.append((int(found.group(1)), found.group(2), found.group(3)))
        rows.append((int(place), name, grade, parsed))
    return rows


def test_the_h9_of_a_late_starter_and_a_league_parses_back_by_its_rules(club: Store) -> None:
    for event in _late_and_league(club):
        rows = parse_h9(to_h9(event, Config()))
        assert [place for place, *_rest in rows] == list(range(1, len(event.players) + 1))
        table = event_standings(event)
        for (place, name, grade, rounds), line in zip(rows, table, strict=True):
            assert name == line.nick and grade == egd_grade(line.strength)
            worth = {"+": Fraction(1), "=": Fraction(1, 2), "-": Fraction(0)}
            assert sum(worth[symbol] for _o, symbol, _c in rounds) == line.score, name
            for number, (opponent, symbol, colour) in enumerate(rounds):
                if opponent:  # both players' lines say the same game
                    back = rows[opponent - 1][3][number]
                    assert back[0] == place and back[1] == {"+": "-", "-": "+", "=": "="}[symbol]
                    assert (colour is None) == (back[2] is None)


def test_the_opengotha_file_parses_back_and_its_players_import(club: Store) -> None:
    swiss, league = _late_and_league(club)
    for event in (swiss, league):
        text = to_opengotha(event, Config())
        root = ElementTree.fromstring(text)
        assert root.tag == "Tournament"
        players = {p.get("name"): p for p in root.findall("Players/Player")}
        assert set(players) == {p.nick for p in event.players}
        rounds = int(root.find("TournamentParameterSet/GeneralParameterSet").get("numberOfRounds"))  # type: ignore[union-attr]
        for element in players.values():
            assert re.fullmatch(f"[01]{{{rounds}}}", element.get("participating", ""))
        imported = from_opengotha(text, 13)
        assert [(r.nick, r.kyu, r.dan) for r in imported] == [
            (p.nick, *grade_of(egd_grade(p.strength))) for p in event.players
        ]
    assert players["Gracz00"].get("participating")[1] == "0"  # away on the league's second evening
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    assert general is not None and general.get("genNBW2ValueAbsent") == "1"  # half a point, by the setting
    late = ElementTree.fromstring(to_opengotha(swiss, Config())).find("Players/Player[@name='Gracz12']")
    assert late is not None and late.get("participating", "").startswith("001")  # joined for round 3


def test_a_damaged_opengotha_file_is_refused() -> None:
    for text in ("<Tournament><Players><Player name='A' rank='99k'/></Players></Tournament>", "<html/>", "<<"):
        with pytest.raises(HistoryError) as refused:
            from_opengotha(text, 13)
        assert refused.value.message("pl") != refused.value.message("en")
