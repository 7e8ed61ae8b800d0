"""Tonight's suggested pairs while a small event runs: its players play there, never paired here."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

from histories import board_of, player
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tonight import HISTORY, semedori
from test_tonight import NOW as PAIR_NOW

from kiosk.config import Config
from kiosk.events import nick_key
from kiosk.pairing import side_of
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tonight import Evening, for_evening, seated
from kiosk.tournament import A_WINS, Tournament, first_rounds, format_for

CONFIG = Config()
NAMES = ["Ala", "Łucja", "Ваня", "小龍", "Ewa", "Gosia", "Olek", "Żaneta", "Bartek", "Celina", "Darek", "🐉Smok"]
BOARD = board_of(*(player(nick, 13, "member", 5 + 2 * i) for i, nick in enumerate(NAMES)))
EVENING = date(2026, 11, 2)
STARTS, NOW = datetime(2026, 11, 2, 17, 0), datetime(2026, 11, 2, 19, 30)  # the club's clock, injected


def event_of(nicks: list[str], withdrawn: tuple[str, ...] = (), closed: bool = False) -> Tournament:
    """An event of tonight as the owner starts it from the check-in list (first round on, no result yet)."""
    sides = [side_of(BOARD.magnets, nick, 13) for nick in nicks]
    fmt = format_for(len(sides))
    seats = tuple(first_rounds(fmt, sides))
    return Tournament(
        1, EVENING, 13, fmt, 3, True, tuple(sides), seats, "Turniej", closed, tuple((n, 1) for n in withdrawn)
    )


def finished(event: Tournament) -> Tournament:
    """The same event with every game's result in: over, though the owner has not closed it yet."""
    seats = tuple(s if s.b is None else s._replace(result=A_WINS) for s in event.seats)
    return replace(event, seats=seats)


def evening(here: list[str], event: Tournament | None) -> Evening:
    return for_evening(13, BOARD.magnets, here, CONFIG, BOARD.games, STARTS, NOW, in_event=seated(event))


def paired(e: Evening) -> list[str]:
    bye = [e.suggestion.bye.nick] if e.suggestion.bye else []
    return [side.nick for p in e.suggestion.pairs for side in p.sides] + bye


def test_the_events_players_are_named_as_playing_there_and_the_others_paired() -> None:
    here = ["Ala", "Łucja", "Ваня", "小龍", "Ewa", "Gosia", "Olek"]
    e = evening(here, event_of(["Ваня", "Ewa", "Olek", "Ala"]))
    assert e.in_event == ("Ala", "Ваня", "Ewa", "Olek")  # in the order they came tonight
    assert sorted(paired(e)) == sorted(["Łucja", "小龍", "Gosia"])
    assert e.suggestion.bye is not None and e.waiting == ()


def test_a_closed_or_finished_event_seats_nobody_so_everyone_is_paired_again() -> None:
    here = ["Ala", "Łucja", "Ваня", "小龍"]
    event = event_of(["Ala", "Łucja", "Ваня", "小龍"])
    assert paired(evening(here, event)) == [] and evening(here, event).in_event == tuple(here)
    for over in (replace(event, closed=True), finished(event), None):
        e = evening(here, over)
        assert e.in_event == () and sorted(paired(e)) == sorted(here)
        assert seated(over) == ()


def test_a_withdrawn_player_still_on_tonights_list_is_paired_like_anyone_else() -> None:
    # Withdrawn means gone home as far as the event knows; tonight's list says whether they are still here.
    event = event_of(["Ala", "Łucja", "Ваня", "小龍", "Ewa"], withdrawn=("ewa",))
    assert set(seated(event)) == {"Ala", "Łucja", "Ваня", "小龍"}
    e = evening(["Ala", "Łucja", "Ваня", "小龍", "Ewa", "Gosia"], event)
    assert [tuple(side.nick for side in p.sides) for p in e.suggestion.pairs] == [("Gosia", "Ewa")]
    # Once "Leaves" took her off tonight's list she is not suggested, nor named as playing in the event.
    e = evening(["Ala", "Łucja", "Ваня", "小龍", "Gosia"], event)
    assert paired(e) == ["Gosia"] and "Ewa" not in e.in_event


def test_the_events_nicknames_match_whatever_their_case() -> None:
    e = for_evening(13, BOARD.magnets, ["ALA", "łucja", "Ewa", "Gosia"], CONFIG, (), STARTS, NOW, in_event=["ala"])
    assert e.in_event == ("ALA",) and sorted(paired(e), key=nick_key) == [
        "Ewa",
        "Gosia",
        "Łucja",
    ]  # the board's spelling


@st.composite
def nights(draw: st.DrawFn) -> tuple[list[str], list[str], tuple[str, ...], bool]:
    """Who is here (in the order they came), who plays in the event, who withdrew from it, is it over."""
    here = draw(st.permutations(NAMES).map(lambda names: names[: draw(st.integers(0, len(NAMES)))]))
    players = draw(st.lists(st.sampled_from(NAMES), min_size=4, max_size=10, unique=True))
    withdrawn = tuple(draw(st.lists(st.sampled_from(players), max_size=3, unique=True)))
    return here, players, withdrawn, draw(st.booleans())


@given(nights())
@settings(max_examples=150, deadline=None)
def test_nobody_seated_in_the_open_event_is_ever_paired_and_everyone_else_here_is(
    night: tuple[list[str], list[str], tuple[str, ...], bool],
) -> None:
    here, players, withdrawn, over = night
    event = event_of(players, withdrawn)
    if over:
        event = finished(event)
    e = evening(here, event)
    playing = set() if over else set(players) - set(withdrawn)
    assert not set(paired(e)) & playing  # never a suggestion to play someone else, nor a bye
    assert set(e.in_event) == set(here) & playing
    assert sorted(paired(e)) == sorted(n for n in here if n not in playing)  # the others as before
    assert len(paired(e)) == len(set(paired(e)))  # each at most once


def test_semedori_pair_leaves_tonights_event_out_of_the_check_in_list_but_pairs_players_named(tmp_path: Path) -> None:
    home = tmp_path / "club"
    home.mkdir()
    history = home / "history.jsonl"
    history.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in HISTORY), encoding="utf-8")
    assert semedori(home, "import", str(history)).returncode == 0
    evening = date(2026, 11, 4)
    with Store.open(home) as store:
        for nick in ("Ewa", "Gosia", "Olek", "Franek", "Żaneta", "Hania"):
            store.check_in(evening, nick)
        seated_ = ["Ewa", "Gosia", "Olek", "Franek"]
        events.start(store, evening, 13, [side_of(store.magnets(), n, 13) for n in seated_], counts=True)
    result = semedori(home, "pair", "--size", "13", "--json", "--now", PAIR_NOW)
    assert result.returncode == 0, result.stderr
    paired_ = [[p["nick"] for p in pair["players"]] for pair in json.loads(result.stdout)["pairs"]]
    assert paired_ == [["Hania", "Żaneta"]]  # only the two not in the event
    named_ = semedori(home, "pair", "--size", "13", "--json", "--now", PAIR_NOW, "Ewa", "Gosia")
    assert [[p["nick"] for p in pair["players"]] for pair in json.loads(named_.stdout)["pairs"]] == [["Ewa", "Gosia"]]
