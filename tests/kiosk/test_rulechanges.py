"""Dated rule changes and the board as of a date (docs/rules.md §5 and §7)."""

from __future__ import annotations

import random
import sqlite3
import tempfile
from collections.abc import Iterator
from datetime import date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from histories import at, game, histories, is_meta, line, player
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.config import Config
from kiosk.errors import ConfigError, HistoryError
from kiosk.events import PlayerAdded, RuleChange, dump_line, parse_line
from kiosk.handicap import DEFAULT_SIZE_RULES, SizeRules
from kiosk.replay import Replay, number_games, replay
from kiosk.rulechanges import check_date, end_of, parse_day, timeline
from kiosk.scale import as_number, quarters
from kiosk.store import Store
from kiosk.store_history import History


def rules(when: str, **fields: Any) -> RuleChange:
    """A ``rules`` line (docs/rules.md §7)."""
    event = line("rules", when, **fields)
    assert isinstance(event, RuleChange)
    return event


def nine(points: float = 2, margin: float = 15, moves: int = 4) -> dict[str, Any]:
    return {"9": {"points_per_strength": points, "clear_margin": margin, "training_moves": moves}}


def strength_of(board: Any, nick: str, size: int) -> float:
    magnet = board.magnet(nick, size) if hasattr(board, "magnet") else None
    if magnet is None:
        magnet = next(m for m in board if m.nick == nick and m.size == size)
    return as_number(magnet.strength)


class CountingHistory(History):
    """The real history, counting whole replays in ``CountingStore.whole``."""

    def replay_all(self) -> None:
        CountingStore.whole += 1
        super().replay_all()


class CountingStore(Store):
    """The real store, counting whole replays (a rule change dated in the past must not need one)."""

    whole = 0

    def __init__(self, folder: Path, connection: sqlite3.Connection, config: Config) -> None:
        super().__init__(folder, connection, config)
        self._history = CountingHistory(connection, self._settings, self)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as opened:
        yield opened


# --- the pure replay: every game under the rules in force at its own date -----------------------------


def test_a_clear_margin_changed_between_two_games_moves_each_by_the_rules_of_its_date() -> None:
    # Czarek (25) beats Bianka (34.5) by 21 on 9x9 twice: clear under the margin of 15, not under 25.
    history = [
        player("Bianka", 9, "member", 34.5),
        player("Czarek", 9, "member", 25),
        game(9, "Bianka", "Czarek", "Czarek", 21, at(1)),
        rules(at(2), handicap=nine(margin=25)),
        game(9, "Bianka", "Czarek", "Czarek", 21, at(3)),
    ]
    board = replay(history)
    first, second = board.games
    assert first.moves["Czarek"].why == "clear-win" and first.moves["Czarek"].after == quarters(27)
    assert second.moves["Czarek"].why == "win" and second.moves["Czarek"].after == quarters(28)
    # The same two games under one set of rules throughout: the first would be a plain win too.
    assert replay([e for e in history if not isinstance(e, RuleChange)]).games[1].moves["Czarek"].why == "clear-win"


def test_the_guest_losses_changed_between_two_losses_decide_membership_by_their_dates() -> None:
    # Two rated losses of a guest: a member after the second under 2, still a guest under 3.
    history = [
        player("Ola", 13, "guest", 10),
        player("Ewa", 13, "member", 10),
        game(13, "Ola", "Ewa", "Ewa", None, at(1)),
        rules(at(8), guest_losses=3),
        game(13, "Ola", "Ewa", "Ewa", None, at(9)),
    ]
    assert replay(history).magnet("Ola", 13).status == "guest"
    changed_later = [*history[:3], history[4], rules(at(10), guest_losses=3)]
    assert replay(changed_later).magnet("Ola", 13).status == "member"


def test_the_points_per_strength_changed_between_two_games_change_the_handicap_of_the_later_one() -> None:
    history = [
        player("Ada", 9, "member", 20),
        player("Bob", 9, "member", 16),
        game(9, "Ada", "Bob", "Ada", None, at(1)),
        rules(at(2), handicap=nine(points=5)),
        game(9, "Ada", "Bob", "Ada", None, at(3)),
    ]
    first, second = replay(history).games
    assert first.handicap != second.handicap
    assert second.handicap.moves > first.handicap.moves or second.handicap.prisoners > first.handicap.prisoners


def test_a_raised_top_lets_a_magnet_climb_only_after_its_date() -> None:
    history = [
        player("Mistrz", 19, "member", 56),
        player("Uczeń", 19, "member", 56),
        game(19, "Mistrz", "Uczeń", "Mistrz", None, at(1)),  # at the top: no higher field
        rules(at(2), top=57),
        game(19, "Mistrz", "Uczeń", "Mistrz", None, at(3)),
    ]
    first, second = replay(history).games
    assert first.moves["Mistrz"].after == quarters(56)
    assert second.moves["Mistrz"].after == quarters(56.25)


def test_a_top_lowered_below_a_magnet_hanging_then_is_refused_with_a_clear_message() -> None:
    history = [player("Mistrz", 19, "member", 50), rules(at(2), top=45)]
    with pytest.raises(HistoryError) as raised:
        replay(history)
    assert "Mistrz" in raised.value.message("en") and "szczyt" in raised.value.message("pl")
    # The magnet climbed above 45 only later: lowering the top before that is fine for the replay.
    assert replay([player("Mistrz", 19, "member", 40), rules(at(2), top=45)]).magnet("Mistrz", 19).strength == 160


def test_the_board_until_a_date_is_the_board_of_the_games_before_it() -> None:
    history = number_games(
        list(
            enumerate(
                [
                    player("Bianka", 9, "member", 34.5),
                    player("Czarek", 9, "member", 25),
                    game(9, "Bianka", "Czarek", "Czarek", 21, at(1)),
                    rules(at(2), handicap=nine(margin=25)),
                    game(9, "Bianka", "Czarek", "Czarek", 21, at(3)),
                ],
                start=1,
            )
        )
    )
    before = Replay(Config())
    assert strength_of(before.run(history, until=datetime(2026, 11, 4)), "Czarek", 9) == 27
    assert before.config == Config()  # the change of the 4th is not in force on the 3rd
    after = Replay(Config())
    assert strength_of(after.run(history, until=datetime(2026, 11, 6)), "Czarek", 9) == 28
    assert after.config.size_rules[9].clear_margin == 25


def test_the_list_of_changes_in_date_order_with_the_rules_each_leaves_in_force() -> None:
    changes = [rules(at(5), guest_losses=3), rules(at(2), handicap=nine(margin=20))]
    dated = timeline(Config(), changes)
    assert [d.at for d in dated] == [datetime(2026, 11, 4, 19), datetime(2026, 11, 7, 19)]
    assert dated[1].after.guest_losses == 3 and dated[1].after.size_rules[9].clear_margin == 20
    assert dated[0].after.size_rules[9].clear_margin == 20 and dated[0].after.guest_losses == Config().guest_losses


# --- lines -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({}, "rules-empty"),
        ({"handicap": {}}, "rules-empty"),
        ({"guest_losses": 4}, "bad-field"),
        ({"guest_losses": True}, "bad-field"),
        ({"top": 30}, "bad-field"),
        ({"top": 45.1}, "bad-strength"),
        ({"handicap": {"9": {"points_per_strength": 2}}}, "bad-field"),
        ({"handicap": nine(points=0)}, "bad-field"),
        ({"handicap": nine(margin=-3)}, "bad-field"),
        ({"handicap": nine(moves=1)}, "bad-field"),
        ({"handicap": {"10": nine()["9"]}}, "bad-size"),
        ({"handicap": [1]}, "bad-field"),
    ],
)
def test_a_bad_rules_line_is_refused_with_a_clear_message(fields: dict[str, Any], code: str) -> None:
    with pytest.raises(HistoryError) as raised:
        parse_line(dump_like({"type": "rules", "at": "2026-11-10T12:00", **fields}))
    assert raised.value.code == code
    assert raised.value.message("pl") != raised.value.message("en")


def dump_like(raw: dict[str, Any]) -> str:
    import json

    return json.dumps(raw)


def test_a_rules_line_writes_back_byte_for_byte() -> None:
    text = (
        '{"type": "rules", "at": "2026-11-10T12:00", "handicap": {"9": {"points_per_strength": 2.5, '
        '"clear_margin": 25, "training_moves": 4}}, "guest_losses": 3, "top": 56.5, "note": "decided in June"}'
    )
    event = parse_line(text)
    assert isinstance(event, RuleChange) and event.handicap[0].points_per_strength == Fraction(5, 2)
    assert dump_line(event) == text


# --- dates the owner may give ---------------------------------------------------------------------------


def test_a_rule_change_may_be_dated_back_to_the_last_shift_or_rule_change_but_not_in_the_future(
    tmp_path: Path,
) -> None:
    now = datetime(2026, 11, 20, 18)
    history = [player("Ada", 9), rules(at(1), guest_losses=3), line("shift", at(3), amount=-5)]
    with Store.open(tmp_path) as store:
        for event in history:
            store.record(event)
        earliest = store.last_shift_or_rule_change()  # the page's earliest date
    assert earliest == datetime(2026, 11, 5, 19)
    check_date(now, earliest, now)
    check_date(earliest, earliest, now)
    with pytest.raises(HistoryError) as raised:
        check_date(datetime(2026, 11, 5, 18, 59), earliest, now)
    assert raised.value.code == "rules-date" and "2026-11-05T19:00" in raised.value.message("pl")
    with pytest.raises(HistoryError) as raised:
        check_date(datetime(2026, 11, 20, 18, 1), None, now)
    assert raised.value.code == "future-at" and "2026-11-20T18:01" in raised.value.message("pl")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("2026-13-01", "bad-date"),
        ("tomorrow", "bad-date"),
        ("", "bad-date"),
        ("2026-12-02", "future-date"),
        ("2026-06-01T10:00", "bad-date"),
    ],
)
def test_a_bad_board_date_is_refused_with_a_clear_message(text: str, code: str) -> None:
    with pytest.raises(HistoryError) as raised:
        parse_day(text, date(2026, 12, 1))
    assert raised.value.code == code
    assert parse_day(" 2026-06-01 ", date(2026, 12, 1)) == date(2026, 6, 1)


# --- the store: recorded, replayed from a checkpoint, checked, exported ---------------------------------


def busy_club(store: Store, weeks: int = 6) -> list[Any]:
    """Six players on 9x9 playing every evening for some weeks: plenty of checkpoints."""
    nicks = ["Bianka", "Czarek", "Żaneta", "Дмитрий", "王芳", "🐉 Smok"]
    recorded: list[Any] = [player(n, 9, "member" if i % 2 else "guest", 10 + 3 * i) for i, n in enumerate(nicks)]
    rng = random.Random(14)
    for day in range(weeks * 7):
        for minute in range(0, 120, 20):
            a, b = rng.sample(nicks, 2)
            recorded.append(
                game(9, a, b, rng.choice([a, b]), rng.choice([None, 7, 21, "resignation"]), at(day, minute))
            )
    for event in recorded:
        store.record(event)
    return recorded


def test_a_rule_change_dated_in_the_past_replays_from_the_checkpoint_before_it(tmp_path: Path) -> None:
    with CountingStore.open(tmp_path) as store:
        store.checkpoint_every = 8
        recorded = busy_club(store)
        kept = store.db.execute("SELECT at, seq, state FROM checkpoint WHERE at < ?", (at(30),)).fetchall()
        CountingStore.whole = 0
        change = rules(at(30, 45), handicap=nine(margin=25), guest_losses=3)
        store.record(change)
        assert CountingStore.whole == 0, "a rule change dated in the past replays from a checkpoint, not from the start"
        # The checkpoints before it are untouched; the state after it carries the new rules.
        assert store.db.execute("SELECT at, seq, state FROM checkpoint WHERE at < ?", (at(30),)).fetchall() == kept
        assert store.check() == []
        expected = replay([*recorded, change])
        assert store.magnets() == expected.magnets
        assert store.config.guest_losses == 3 and store.config.size_rules[9].clear_margin == 25
        assert store.file_config == Config()  # semedori.toml keeps the rules from the beginning
        store.rebuild()
        assert CountingStore.whole == 1  # the count sees a whole replay: the 0 above is not for want of counting


def test_a_late_game_before_a_rule_change_is_replayed_under_the_old_rules(store: Store) -> None:
    recorded: list[Any] = [
        player("Bianka", 9, "member", 34.5),
        player("Czarek", 9, "member", 25),
        rules(at(2), handicap=nine(margin=25)),
        game(9, "Bianka", "Czarek", "Czarek", 21, at(3)),
        game(9, "Bianka", "Czarek", "Czarek", 21, at(1)),  # entered late, played before the change
    ]
    for event in recorded:
        store.record(event)
    assert store.check() == []
    late, later = store.board(with_games=True).games
    assert late.moves["Czarek"].why == "clear-win" and later.moves["Czarek"].why == "win"
    assert store.magnets() == replay(recorded).magnets


def test_a_void_and_an_edit_across_a_rule_change(store: Store) -> None:
    for event in (
        player("Bianka", 9, "member", 34.5),
        player("Czarek", 9, "member", 25),
        game(9, "Bianka", "Czarek", "Czarek", 21, at(1)),
        rules(at(2), handicap=nine(margin=25)),
        game(9, "Bianka", "Czarek", "Czarek", 21, at(3)),
    ):
        store.record(event)
    # The first game moved to after the change: now a plain win too.
    store.record(
        line("edit", at(4), game=1, played=at(2, 30), size=9, players=["Bianka", "Czarek"], winner="Czarek", by=21)
    )
    assert [g.moves["Czarek"].why for g in store.board(with_games=True).games] == ["win", "win"]
    assert store.check() == []
    # The second game voided: only the edited one stays, under the new rules.
    store.record(line("void", at(5), game=2))
    (only,) = store.board(with_games=True).games
    assert only.id == 1 and only.moves["Czarek"].why == "win"
    assert store.check() == []


def test_rule_changes_go_through_export_and_import_byte_for_byte(store: Store, tmp_path: Path) -> None:
    busy_club(store, weeks=2)
    store.record(rules(at(5), guest_losses=3, note="the club voted"))
    store.record(rules(at(9), handicap=nine(margin=20), top=58))
    exported = list(store.export_lines())
    assert sum('"type": "rules"' in text for text in exported) == 2
    with Store.open(tmp_path / "other") as other:
        other.import_history(text + "\n" for text in exported)
        assert list(other.export_lines()) == exported
        assert other.magnets() == store.magnets()
        assert other.config == store.config and other.config.top == quarters(58)
        assert other.check() == []


def test_a_rule_change_the_history_cannot_take_changes_nothing(store: Store) -> None:
    store.record(player("Mistrz", 19, "member", 50))
    store.record(player("Ada", 19, "member", 30))
    before = (list(store.export_lines()), store.magnets(), store.config)
    with pytest.raises(HistoryError) as raised:
        store.record(rules(at(3), top=45))
    assert raised.value.code == "rules-top-below"
    assert (list(store.export_lines()), store.magnets(), store.config) == before
    assert store.check() == []


def test_plain_settings_still_save_after_a_rule_change_and_rules_through_settings_are_refused(
    tmp_path: Path,
) -> None:
    with Store.open(tmp_path) as store:
        store.record(player("Ada", 9))
        store.record(rules(at(1), guest_losses=3))
        store.save_config(store.config.with_changes(club_name="GoKids", days_back=30))
        assert store.config.club_name == "GoKids" and store.config.guest_losses == 3
        assert store.file_config.guest_losses == 2  # not written into semedori.toml as the beginning's rule
        with pytest.raises(ConfigError):
            store.save_config(store.config.with_changes(guest_losses=2))
        assert store.check() == []
    with Store.open(tmp_path) as again:  # the rules in force now survive a restart
        assert again.config.guest_losses == 3 and again.config.club_name == "GoKids"
        assert again.file_config.guest_losses == 2
        assert again.check() == []


def test_an_existing_club_keeps_its_settings_as_the_rules_from_the_beginning(tmp_path: Path) -> None:
    # A store written before rule changes existed: its cache has no 'rules_now' row, its state no rules.
    club = Config().with_changes(
        guest_losses=3, size_rules={**DEFAULT_SIZE_RULES, 9: SizeRules(9, Fraction(2), Fraction(25), 4)}
    )
    with Store.open(tmp_path) as store:
        store.save_config(club)
        recorded = busy_club(store, weeks=2)
    db = sqlite3.connect(tmp_path / "semedori.sqlite3")
    db.execute("DELETE FROM cache WHERE name = 'rules_now'")
    db.commit()
    db.close()
    with CountingStore.open(tmp_path) as store:
        CountingStore.whole = 0
        assert store.config == club and store.rule_changes() == []
        assert store.check() == []
        assert store.magnets() == replay(recorded, club).magnets
        assert CountingStore.whole == 0  # opening replays nothing
        store.record(rules(at(20), guest_losses=2))
        assert store.config.guest_losses == 2 and store.file_config == club
        assert store.check() == []


def test_the_board_as_of_a_date_equals_a_replay_up_to_it(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        store.checkpoint_every = 8
        recorded = busy_club(store, weeks=3)
        store.record(rules(at(10), handicap=nine(margin=25), guest_losses=3))
        recorded.append(rules(at(10), handicap=nine(margin=25), guest_losses=3))
        entries = number_games(list(enumerate(recorded, start=1)))
        for day in (
            date(2026, 11, 1),
            date(2026, 11, 2),
            date(2026, 11, 9),
            date(2026, 11, 12),
            date(2026, 11, 13),
            date(2026, 12, 30),
        ):
            magnets, in_force = store.board_at(day)
            engine = Replay(Config())
            expected = engine.run(entries, until=end_of(day))
            assert magnets == expected.magnets, day
            assert in_force == engine.config
        assert store.board_at(date(2026, 11, 1)) == ((), Config())
        assert store.board_at(date(2026, 11, 12))[1].guest_losses == 3  # at(10) is the 12th, 19:00
        assert store.board_at(date(2026, 11, 11))[1].guest_losses == 2


RULE_WRITES = [
    {"guest_losses": 3},
    {"guest_losses": 2},
    {"handicap": nine(margin=25)},
    {"handicap": nine(points=3, moves=3)},
    {"handicap": {"13": {"points_per_strength": 4, "clear_margin": 20, "training_moves": 5}}},
    {"top": 58},
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    histories(max_actions=30, meta=True),
    st.randoms(use_true_random=False),
    st.integers(1, 3),
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(range(len(RULE_WRITES))), st.integers(0, 20)), max_size=3),
)
def test_any_writes_with_rule_changes_leave_the_store_equal_to_a_fresh_replay(
    events: list, rng: random.Random, every: int, changes: list[tuple[int, int, int]]
) -> None:
    # Rule changes dated anywhere in the history, entered in between appends, late games,
    # voids, edits, renames and merges, with a checkpoint every few games.
    players = [e for e in events if isinstance(e, PlayerAdded)]
    plain = [e for e in events if not isinstance(e, PlayerAdded) and not is_meta(e)]
    rng.shuffle(plain)
    writes: list[Any] = [*players, *plain, *[e for e in events if is_meta(e)]]
    for position, which, day in sorted(changes, reverse=True):
        writes.insert(min(position, len(writes)), rules(at(day, 7), **RULE_WRITES[which]))
    recorded: list[Any] = []
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder)) as store:
        store.checkpoint_every = every
        for write in writes:
            store.record(write)
            recorded.append(write)
            assert store.check() == []
        expected = replay(recorded, Config())
        assert store.magnets() == expected.magnets
        games = store.board(with_games=True).games
        assert [g.to_json(with_id=True) for g in games] == [g.to_json(with_id=True) for g in expected.games]


def test_a_nightly_backup_of_a_history_with_a_lowered_top_is_verified_and_kept(tmp_path: Path) -> None:
    from kiosk.backup import backup_nightly

    with Store.open(tmp_path) as store:
        store.record(player("Mistrz", 19, "member", 50))  # above 48: fine under the top of the beginning
        store.record(line("correction", at(1), nick="Mistrz", size=19, strength=45, **{"with": "Mistrz"}))
        store.record(rules(at(2), top=48))
        assert store.config.top == quarters(48) and store.check() == []
    path, _removed = backup_nightly(tmp_path, tmp_path / "backups")
    assert path.exists()


def test_the_check_finds_tampered_rules_in_force(store: Store) -> None:
    store.record(player("Ada", 9))
    store.record(rules(at(1), guest_losses=3))
    assert store.check() == []
    store.db.execute("UPDATE cache SET value = replace(value, '\"guest_losses\": 3', '\"guest_losses\": 2')")
    assert any("rules in force" in problem for problem in store.check())
    store.rebuild()
    assert store.check() == [] and store.config.guest_losses == 3


def test_a_preview_of_a_rule_change_is_what_recording_it_gives_and_writes_nothing(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        store.checkpoint_every = 8
        busy_club(store, weeks=3)
        change = rules(at(15, 30), handicap=nine(margin=25), guest_losses=3)
        before = (list(store.export_lines()), store.change_counter(), store.magnets())
        preview = store.preview_rule_change(change)
        assert (list(store.export_lines()), store.change_counter(), store.magnets()) == before
        assert preview != store.magnets()  # some magnets would move
        store.record(change)
        assert preview == store.magnets()
        store.record(player("Mistrz", 19, "member", 50, when=at(16)))
        with pytest.raises(HistoryError):
            store.preview_rule_change(rules(at(17), top=45))  # Mistrz hangs higher then


def test_a_history_file_obeys_the_owner_pages_limits_on_rule_change_dates(tmp_path: Path) -> None:
    # docs/rules.md §8: not before the latest shift or rule change above it, not in the future.
    now = datetime(2026, 11, 20, 18)
    good = [player("Ada", 9), line("shift", at(3), amount=-5), rules(at(3), guest_losses=3), rules(at(4), top=50)]
    before_the_shift = [player("Ada", 9), line("shift", at(3), amount=-5), rules(at(2), guest_losses=3)]
    in_the_future = [player("Ada", 9), rules("2026-11-21T09:00", guest_losses=3)]
    with Store.open(tmp_path) as store:
        for history, line_number, code in ((before_the_shift, 3, "rules-date"), (in_the_future, 2, "future-at")):
            with pytest.raises(HistoryError) as raised:
                store.import_history([dump_line(e) for e in history], now=now)
            assert (raised.value.code, raised.value.line) == (code, line_number)
            assert raised.value.message("en").startswith(f"line {line_number}: ")
            assert store.is_empty()  # all or nothing: the file changed nothing
        assert store.import_history([dump_line(e) for e in good], now=now) == 4
        assert store.config.guest_losses == 3 and len(store.rule_changes()) == 2
