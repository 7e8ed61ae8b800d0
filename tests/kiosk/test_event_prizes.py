"""An event's prizes: the places, class prizes by field, the most wins."""

from __future__ import annotations

import json
from datetime import date, datetime

import pytest

from kiosk.errors import HistoryError
from kiosk.event_prizes import CLASS, PLACE, WINS, check_classes, class_grades, classes, prizes
from kiosk.events import dump_line, parse_line
from kiosk.pairing import Side
from kiosk.tiebreak import Choices
from kiosk.tournament import A_WINS, B_WINS, Seat, fold, standings, start_line

# Eight players, strengths in quarters (fields x 4): two strong, three middle, three children.
FIELD = [
    Side(n, 4 * f, False, False)
    for n, f in (("Ada", 45), ("Bob", 42), ("Cyd", 28), ("Dan", 26), ("Eve", 22), ("Fio", 15), ("Gus", 12), ("Hal", 8))
]
SEATS = [
    Seat(1, 1, "Ada", "Bob", A_WINS),
    Seat(1, 2, "Cyd", "Dan", B_WINS),
    Seat(1, 3, "Eve", "Fio", B_WINS),
    Seat(1, 4, "Gus", "Hal", A_WINS),
    Seat(2, 1, "Ada", "Dan", A_WINS),
    Seat(2, 2, "Fio", "Gus", A_WINS),
    Seat(2, 3, "Bob", "Cyd", A_WINS),
    Seat(2, 4, "Eve", "Hal", A_WINS),
    Seat(3, 1, "Ada", "Fio", A_WINS),
    Seat(3, 2, "Dan", "Bob", B_WINS),
    Seat(3, 3, "Gus", "Cyd", A_WINS),
    Seat(3, 4, "Hal", "Eve", B_WINS),
]


def test_places_then_a_prize_per_class_for_the_best_without_one_then_the_most_wins() -> None:
    table = standings(FIELD, SEATS, ("sos",), unique=True)
    order = [s.nick for s in table]
    assert set(order[:3]) == {"Ada", "Bob", "Fio"}  # Fio, a child of field 15, is on the podium
    won = prizes(table, (4 * 20, 4 * 30))
    assert [(p.kind, p.nick, p.place) for p in won if p.kind == PLACE] == [
        (PLACE, n, i + 1) for i, n in enumerate(order[:3])
    ]
    by_class = {(p.low, p.high): p.nick for p in won if p.kind == CLASS}
    # Up to 19¾: Fio has a place prize, so the best other child; 20 to 29¾: the best of Cyd, Dan, Eve; 30 up: nobody
    # left without a place prize (Ada and Bob have theirs), so no class prize.
    children = next(n for n in order if n in {"Gus", "Hal"})
    middle = next(n for n in order if n in {"Cyd", "Dan", "Eve"})
    assert by_class == {(None, 80): children, (80, 120): middle}
    assert [(p.nick, p.wins) for p in won if p.kind == WINS] == [("Ada", 3)]


def test_the_classes_and_their_grades() -> None:
    assert classes((80, 120)) == [(None, 80), (80, 120), (120, None)]
    assert class_grades(80, 120) == ("30 kyu", "21 kyu")
    assert class_grades(None, 80) == (None, "31 kyu")
    for bad in ((120, 80), (80, 80), (0,), tuple(range(4, 40, 4))):
        with pytest.raises(HistoryError) as caught:
            check_classes(bad)
        assert caught.value.code == "bad-classes"


def test_shared_places_share_the_prize_and_one_win_is_no_most_wins() -> None:
    two = [Side("Ula", 80, False, False), Side("Iza", 80, False, False)]
    table = standings(two, [Seat(1, 1, "Ula", "Iza", "draw")], ())
    won = prizes(table)
    assert [(p.kind, p.nick, p.place) for p in won] == [(PLACE, "Iza", 1), (PLACE, "Ula", 1)]


def test_the_classes_are_history_of_the_start() -> None:
    line = start_line(
        1, datetime(2026, 12, 1, 18), date(2026, 12, 1), 13, FIELD, True, "", None, Choices(prize_classes=(80, 122))
    )
    text = dump_line(line)
    assert json.loads(text)["classes"] == [20, 30.5]
    assert dump_line(parse_line(text)) == text
    assert fold([(1, parse_line(text))])[1].tournament.prize_classes == (80, 122)
    with pytest.raises(HistoryError):
        start_line(
            1, datetime(2026, 12, 1, 18), date(2026, 12, 1), 13, FIELD, True, "", None, Choices(prize_classes=(120, 80))
        )
