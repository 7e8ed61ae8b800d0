"""The fairness audit on synthetic clubs whose true points per strength is known (kiosk/fairness.py).

Each club's games are drawn, seeded, from the model of docs/fairness.md (tests/fairness_clubs.py); the
audit reads them through the real replay, as the store keeps them.
"""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest
from fairness_clubs import planted_club

from kiosk import fairness_text
from kiosk.config import Config
from kiosk.events import parse_history
from kiosk.fairness import ROW_GAMES, SIZE_GAMES, Audit, audit, report, to_json, wilson
from kiosk.replay import Replay
from kiosk.services.fairness import save_suggestion
from kiosk.store import Store

NOW = datetime(2026, 11, 30, 12, 0)


def audited(lines: list[dict[str, object]], config: Config | None = None) -> Audit:
    board = Replay(config or Config()).run(parse_history(json.dumps(line) for line in lines))
    return audit(board.games, config or Config(), NOW)


@pytest.mark.parametrize(("size", "planted"), [(9, 2.0), (9, 3.0), (13, 4.0), (13, 5.0), (19, 13.0), (19, 10.0)])
def test_the_audit_finds_the_planted_points_per_strength_within_its_interval(size: int, planted: float) -> None:
    found = audited(planted_club(planted, size=size, games=2000, seed=size * 100 + int(planted))).of(size)
    assert found is not None
    constant = found.constant
    assert constant.found is not None and constant.enough
    assert constant.found.low <= planted <= constant.found.high, constant.found
    # and the interval is narrow enough to mean something: 2,000 games pin the constant to a few percent
    assert constant.found.high - constant.found.low < 0.08 * planted


def test_when_the_table_fits_nothing_is_suggested() -> None:
    found = audited(planted_club(2.0, size=9, games=2000, seed=7)).of(9)
    assert found is not None and found.suggestion is None and not found.constant.clear
    assert fairness_text.verdict(found) == "The table's 2 fits these games."
    handicap_rows = [r for r in found.rows if r.moves and r.enough]
    # The table rounds half a point toward Black (docs/rules.md §3): on 9x9 every whole difference gives Black
    # 0.5 points more than its worth, about 2 % more wins (a draw counts half). Every row is near 50 % for that.
    assert len(handicap_rows) >= 4
    assert all(r.rate is not None and r.rate.low < 0.54 < r.rate.high + 0.04 for r in handicap_rows)
    even = found.rows[0]
    assert even.moves == 0 and even.rate is not None and even.rate.high < 0.5  # less than komi is not made up


def test_a_table_that_gives_too_little_shows_in_the_rows_and_suggests_the_planted_constant() -> None:
    # The club's 9x9 games follow 3 points per strength; the table gives 2: the weaker player loses ever more.
    found = audited(planted_club(3.0, size=9, games=2000, seed=3)).of(9)
    assert found is not None
    rates = {r.moves: r.rate for r in found.rows if r.rate is not None}
    assert rates[2].high < 0.5 and rates[3].high < rates[1].low  # unfair, and more so with more moves
    assert found.suggestion is not None
    (rules,) = found.suggestion.handicap
    assert rules.size == 9 and rules.points_per_strength == 3
    assert rules.clear_margin == 15 and rules.training_moves == 4  # only the constant changes
    assert found.suggestion.at == NOW
    assert found.changed_games > 1000
    line = fairness_text.verdict(found)
    assert line.startswith("The games leave the table's 2 out. Suggested rule change: 3 points per strength from")


def test_a_small_club_gets_not_enough_games() -> None:
    found = audited(planted_club(3.0, size=13, players=8, games=40, seed=1)).of(13)
    assert found is not None
    assert not found.constant.enough and found.constant.found is None and found.suggestion is None
    assert all(not r.enough and r.rate is None for r in found.rows)
    assert fairness_text.verdict(found) == f"Not enough games to judge the table: 40 of at least {SIZE_GAMES}."
    assert fairness_text.verdict(found, "pl") == f"Za mało gier, by ocenić tabelę: 40 z co najmniej {SIZE_GAMES}."
    text = "\n".join(fairness_text.describe(Audit(NOW, (found,))))
    assert "not enough games" in text and "won" not in text
    assert ROW_GAMES * len(found.rows) * 2 > 40


def test_games_that_say_nothing_of_the_table_are_left_out() -> None:
    lines: list[dict[str, object]] = [
        {"type": "player", "at": "2026-01-05T18:00", "nick": "Ala", "size": 9, "status": "member", "strength": 20},
        {"type": "player", "at": "2026-01-05T18:00", "nick": "Gość", "size": 9, "status": "guest", "strength": 0},
        {"type": "player", "at": "2026-01-05T18:00", "nick": "Ola", "size": 13, "status": "member", "strength": 20},
        {"type": "game", "at": "2026-01-05T19:00", "size": 9, "players": ["Ala", "Gość"], "winner": "Ala", "by": 5},
        {"type": "game", "at": "2026-01-05T19:10", "size": 9, "players": ["Ala", "Ola"], "winner": "Ola", "by": 5},
        {
            "type": "game",
            "at": "2026-01-05T19:20",
            "size": 9,
            "players": ["Ala", "Ola"],
            "winner": "Ala",
            "by": 5,
            "kind": "teaching",
        },
    ]
    assert audited(lines).sizes == ()  # a guest, an occasional player, a teaching game


def test_wilson_interval() -> None:
    found = wilson(5, 10)
    assert (round(found.low, 4), round(found.high, 4)) == (0.2366, 0.7634)
    none = wilson(0, 25)
    assert none.low < 1e-9 and 0.13 < none.high < 0.14  # honest even at 0 %


def test_the_report_reads_each_game_with_the_rules_then_in_force_and_json(tmp_path: Path) -> None:
    lines = planted_club(4.0, size=13, games=1500, seed=13)
    with Store.open(tmp_path / "club") as store:
        store.import_history(json.dumps(line) for line in lines)
        made = report(store.board(with_games=True).games, store.file_config, store.rule_changes(), NOW)
        found = made.of(13)
        assert found is not None and found.suggestion is not None
        assert found.suggestion.handicap[0].points_per_strength == 4
        raw = to_json(made)
        (thirteen,) = raw["sizes"]
        assert thirteen["table"] == 5.0 and thirteen["clear"] is True
        assert thirteen["found"]["low"] <= 4.0 <= thirteen["found"]["high"]
        assert thirteen["suggestion"]["points_per_strength"] == 4.0
        assert {r["moves"] for r in thirteen["rows"]} >= {0, 1, 2, 3}
        # the owner previews it (nothing moves now: it is for the games to come) and saves it
        before = store.magnets()
        assert store.preview_rule_change(found.suggestion) == before
        save_suggestion(store, found.suggestion, NOW, key="owner:test", origin="owner")
        assert store.config.size_rules[13].points_per_strength == Fraction(4)
        assert store.magnets() == before
        again = report(store.board(with_games=True).games, store.file_config, store.rule_changes(), NOW).of(13)
        assert again is not None and again.constant.table == 4 and again.suggestion is None


# accel: clubs whose magnets move by the rules: the fit reads the fields as a person set them
@pytest.mark.parametrize(("size", "planted"), [(9, 2.0), (9, 3.0), (13, 4.0), (13, 5.0), (19, 13.0), (19, 10.0)])
def test_the_audit_finds_the_planted_value_when_the_magnets_move_by_the_rules(size: int, planted: float) -> None:
    from kiosk.fairness import audited_games, constant

    lines = planted_club(planted, size=size, games=2000, seed=size * 100 + int(planted), rehang=False)
    board = Replay(Config()).run(parse_history(json.dumps(line) for line in lines))
    found = audit(board.games, Config(), NOW).of(size)
    assert found is not None
    fitted = found.constant
    assert fitted.found is not None and fitted.on_set_fields and fitted.set_games >= 600
    assert fitted.found.low <= planted <= fitted.found.high, fitted.found
    assert fitted.found.high - fitted.found.low < 0.08 * planted
    # The board's own fields, which adapt to the table and drift up slower in the finer tiers, miss it:
    rules = Config().size_rules[size]
    games = [g._replace(set_difference=None) for g in audited_games(board.games, lambda _game: rules)]
    on_board = constant(games, rules)
    assert on_board.found is not None and not on_board.on_set_fields
    assert not on_board.found.holds(planted), on_board.found


def test_a_small_club_moving_by_the_rules_still_gets_not_enough_games() -> None:
    found = audited(planted_club(3.0, size=13, players=8, games=40, seed=1, rehang=False)).of(13)
    assert found is not None and not found.constant.enough and found.suggestion is None
    assert fairness_text.verdict(found) == fairness_text.verdict(
        audited(planted_club(3.0, size=13, players=8, games=40, seed=1)).of(13)  # type: ignore[arg-type]
    )
