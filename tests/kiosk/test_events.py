"""History events and the history file's lines (docs/rules.md §7)."""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction
from typing import Any

import pytest
from histories import histories
from hypothesis import HealthCheck, given, settings

from kiosk.errors import HistoryError
from kiosk.events import (
    Correction,
    GamePlayed,
    PlayerAdded,
    Shift,
    clean_nick,
    dump_line,
    format_at,
    nick_key,
    parse_event,
    parse_line,
)
from kiosk.scale import quarters

T = "2026-11-03T19:10"

# The lines of docs/rules.md §7, with T, N, A, B filled in.
RULES_LINES = [
    {"type": "player", "at": T, "nick": "Bianka", "size": 13, "status": "member", "strength": 34.5},
    {"type": "player", "at": T, "nick": "Gość", "size": 13, "status": "guest", "strength": 0},
    {"type": "player", "at": T, "nick": "Czarek", "size": 9, "status": "guest", "kyu": 10},
    {"type": "player", "at": T, "nick": "Dorota", "size": 9, "status": "guest", "dan": 1},
    {"type": "game", "at": T, "size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 21},
    {"type": "game", "at": T, "size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": "resignation"},
    {"type": "game", "at": T, "size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": None},
    {"type": "game", "at": T, "size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 0.5},
    {"type": "game", "at": T, "size": 9, "players": ["Bianka", "Czarek"], "winner": None, "by": None},
    {"type": "correction", "at": T, "nick": "Bianka", "size": 13, "strength": 30, "status": "member", "note": "..."},
    {"type": "correction", "at": T, "nick": "Bianka", "size": 13, "strength": 30},
    {"type": "correction", "at": T, "nick": "Bianka", "size": 13, "status": "guest"},
    {"type": "shift", "at": T, "amount": -5, "size": 13, "nicks": None},
    {"type": "shift", "at": T, "amount": -10, "size": None, "nicks": ["Bianka", "Czarek"]},
    {"type": "merge", "at": T, "from": "Bianka2", "into": "Bianka"},
]


@pytest.mark.parametrize("raw", RULES_LINES)
def test_every_line_of_rules_7_reads_and_writes_back_the_same(raw: dict[str, Any]) -> None:
    text = json.dumps(raw, ensure_ascii=False)
    assert json.loads(dump_line(parse_line(text))) == raw


def test_a_game_line_as_an_event() -> None:
    event = parse_event(RULES_LINES[4])
    assert event == GamePlayed(datetime(2026, 11, 3, 19, 10), 9, ("Bianka", "Czarek"), "Czarek", Fraction(21))


def test_a_draw_may_say_by_0() -> None:
    event = parse_event({**RULES_LINES[8], "by": 0})
    assert isinstance(event, GamePlayed) and event.winner is None and event.by is None


def test_strengths_and_amounts_are_exact_quarters() -> None:
    player = parse_event(RULES_LINES[0])
    assert isinstance(player, PlayerAdded) and player.strength == quarters(34.5)
    shift = parse_event({**RULES_LINES[12], "amount": -0.25})
    assert isinstance(shift, Shift) and shift.amount == -1


def test_the_winner_is_matched_to_the_players_nickname() -> None:
    event = parse_event({**RULES_LINES[4], "winner": "CZAREK"})
    assert isinstance(event, GamePlayed) and event.winner == "Czarek"


def test_a_line_may_carry_a_note() -> None:
    event = parse_event({**RULES_LINES[4], "note": "played in the park"})
    assert event.note == "played in the park"
    assert json.loads(dump_line(event))["note"] == "played in the park"


def test_a_correction_records_the_strong_member_who_agreed() -> None:
    event = parse_event({**RULES_LINES[10], "with": "Mistrz"})
    assert isinstance(event, Correction) and event.with_member == "Mistrz"


def test_lines_are_utf8_text_not_escapes() -> None:
    assert '"nick": "Gość"' in dump_line(parse_event(RULES_LINES[1]))


def test_times_are_written_to_the_minute_or_the_second() -> None:
    assert format_at(datetime(2026, 11, 3, 19, 10)) == "2026-11-03T19:10"
    assert format_at(datetime(2026, 11, 3, 19, 10, 5)) == "2026-11-03T19:10:05"
    event = parse_event({**RULES_LINES[4], "at": "2026-11-03T19:10:05"})
    assert event.at == datetime(2026, 11, 3, 19, 10, 5)


def test_nicknames_are_cleaned_and_compared_after_nfc_and_case_folding() -> None:
    assert clean_nick("  Ala   Ma  Kota ") == "Ala Ma Kota"
    assert clean_nick("Zoe\u0308") == "Zo\u00eb"
    assert nick_key("ZOË") == nick_key("zoë") == nick_key("zoe\u0308")
    assert nick_key("Straße") == nick_key("STRASSE")


def bad(raw: dict[str, Any], **changes: Any) -> HistoryError:
    line = {**raw, **changes}
    for key in [k for k, v in changes.items() if v is ...]:
        del line[key]
    with pytest.raises(HistoryError) as error:
        parse_event(line)
    return error.value


GAME, PLAYER = RULES_LINES[4], RULES_LINES[0]


@pytest.mark.parametrize(
    ("raw", "changes", "code"),
    [
        (GAME, {"type": "tournament"}, "unknown-type"),
        (GAME, {"colour": "white"}, "unknown-field"),
        (GAME, {"winner": ...}, "missing-field"),
        (GAME, {"at": ...}, "missing-field"),
        (GAME, {"at": "2026-11-03 19:10"}, "bad-at"),
        (GAME, {"at": "2026-13-03T19:10"}, "bad-at"),
        (GAME, {"at": "2026-11-03T19:10+01:00"}, "bad-at"),
        (GAME, {"at": "yesterday"}, "bad-at"),
        (GAME, {"at": 20261103}, "bad-at"),
        (GAME, {"size": 10}, "bad-size"),
        (GAME, {"size": True}, "bad-size"),
        (GAME, {"size": "9"}, "bad-size"),
        (GAME, {"players": ["Bianka"]}, "bad-players"),
        (GAME, {"players": ["Bianka", "Czarek", "Dorota"]}, "bad-players"),
        (GAME, {"players": ["Bianka", "BIANKA"], "winner": "Bianka"}, "same-player"),
        (GAME, {"winner": "Dorota"}, "bad-winner"),
        (GAME, {"by": 0}, "bad-margin"),
        (GAME, {"by": -3}, "bad-margin"),
        (GAME, {"by": 0.25}, "bad-margin"),
        (GAME, {"by": 82}, "bad-margin"),  # more than the 9x9 board's area
        (GAME, {"by": "lots"}, "bad-margin"),
        (GAME, {"by": True}, "bad-margin"),
        (GAME, {"winner": None, "by": 5}, "draw-margin"),
        (GAME, {"id": 0}, "bad-game-id"),
        (GAME, {"id": 2**63 - 1}, "bad-game-id"),
        (GAME, {"note": "x" * 501}, "bad-field"),
        (PLAYER, {"strength": 29.5}, "bad-strength"),
        (PLAYER, {"strength": 0.1}, "bad-strength"),
        (PLAYER, {"strength": -1}, "bad-strength"),
        (PLAYER, {"strength": "20"}, "bad-strength"),
        (PLAYER, {"status": "owner"}, "bad-status"),
        (PLAYER, {"status": "guest", "strength": ..., "kyu": 51}, "bad-grade"),
        (PLAYER, {"status": "guest", "strength": ..., "kyu": 0}, "bad-grade"),
        (PLAYER, {"status": "guest", "strength": ..., "dan": 10}, "bad-grade"),
        (PLAYER, {"status": "guest", "kyu": 10}, "strength-or-grade"),
        (PLAYER, {"strength": ..., "kyu": 10}, "member-grade"),
        (PLAYER, {"nick": ""}, "bad-nick"),
        (PLAYER, {"nick": "   "}, "bad-nick"),
        (PLAYER, {"nick": "x" * 31}, "bad-nick"),
        (PLAYER, {"nick": 7}, "bad-nick"),
        (PLAYER, {"nick": "Ala\u200b"}, "invisible-nick"),
        (PLAYER, {"nick": "A\u0007la"}, "invisible-nick"),
        (RULES_LINES[10], {"strength": ...}, "correction-empty"),
        (RULES_LINES[12], {"amount": 0}, "bad-amount"),
        (RULES_LINES[12], {"amount": 0.1}, "bad-amount"),
        (RULES_LINES[12], {"nicks": []}, "bad-field"),
    ],
)
def test_a_line_that_cannot_be_an_event_says_why(raw: dict[str, Any], changes: dict[str, Any], code: str) -> None:
    assert bad(raw, **changes).code == code


def test_a_line_that_is_not_a_json_object() -> None:
    for text, code in (("[]", "not-object"), ("{", "bad-json"), (b"\xc3\x28", "bad-encoding")):
        with pytest.raises(HistoryError) as error:
            parse_line(text)
        assert error.value.code == code


def test_error_messages_name_the_wrong_thing() -> None:
    assert str(bad(GAME, colour="white")) == "unknown field 'colour'"
    assert str(bad(GAME, winner=...)) == "missing field 'winner'"
    assert str(bad(PLAYER, strength=29.5)) == "29.5 is not a field of the scale; the nearest fields are 29 and 30"
    assert str(bad(GAME, at="2026-13-03T19:10")) == "'2026-13-03T19:10' is not a date and time like 2026-11-03T19:10"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(meta=True))
def test_every_event_of_a_history_reads_back_from_its_line(events: list) -> None:
    for event in events:
        line = dump_line(event)
        assert parse_line(line) == event
        assert dump_line(parse_line(line)) == line
