"""Games that don't move magnets (docs/rules.md §4, §7, §8): teaching, simultaneous, rengo, event."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from histories import at, board_of, game, line, magnet, player, strength

from kiosk.board import board_json_text
from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import GAME_KINDS, RATED, GamePlayed, dump_line, parse_history, parse_line
from kiosk.records import by_size, head_to_head
from kiosk.replay import replay
from kiosk.store import SCHEMA_VERSION, Store
from kiosk.tonight import for_evening, played_pairs

OTHER_KINDS = [kind for kind in GAME_KINDS if kind != RATED]


def test_the_kinds_are_the_contract_with_the_events_engineer() -> None:
    assert GAME_KINDS == ("rated", "teaching", "simultaneous", "rengo", "event")
    # The kind comes after the older fields, with a default: every existing constructor keeps working
    # (then the event board a tapped game was for, and the handicap an event's policy played,
    # each with its default too).
    assert GamePlayed._fields[-3:] == ("kind", "tournament", "handicap")
    played = GamePlayed(datetime(2026, 11, 2, 19), 9, ("Ala", "Ola"), "Ala", None)
    assert played.kind == "rated" and played.rated
    assert GamePlayed(datetime(2026, 11, 2, 19), 9, ("Ala", "Ola"), "Ala", None, kind="event").rated is False


# --- replay ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", OTHER_KINDS)
def test_a_game_that_is_not_rated_moves_no_magnet_and_keeps_the_free_loss(kind: str) -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ola", 13, "member", 20),
        game(13, "Ala", "Ola", "Ola", "resignation", at(0, 10), kind),
        # Ala's first loss of the week that moves a magnet comes after the game of another kind: it is free.
        game(13, "Ala", "Ola", "Ola", None, at(0, 60)),
        game(13, "Ala", "Ola", "Ola", None, at(0, 90)),
    )
    first, second, third = board.games
    assert first.kind == kind and not first.rated
    assert {nick: (move.before, move.after, move.why) for nick, move in first.moves.items()} == {
        "Ala": (80, 80, "not-rated"),
        "Ola": (80, 80, "not-rated"),
    }
    assert second.moves["Ala"].why == "free-loss"
    assert third.moves["Ala"].why == "loss"
    assert (strength(board, "Ala", 13), strength(board, "Ola", 13)) == (19, 22)


@pytest.mark.parametrize("kind", OTHER_KINDS)
@pytest.mark.parametrize("start", [0, 12])
def test_losses_of_a_game_that_is_not_rated_do_not_make_a_guest_a_member(kind: str, start: int) -> None:
    events = [player("Kuba", 13, "guest", start), player("Ewa", 13, "guest", start)]
    events += [game(13, "Kuba", "Ewa", "Ewa", 40, at(0, 10 + n), kind) for n in range(3)]
    board = board_of(*events)
    kuba = magnet(board, "Kuba", 13)
    assert (kuba.status, kuba.guest_losses, kuba.strength) == ("guest", 0, start * 4)
    assert kuba.free_loss_week is None
    # Two rated losses make him a member (the club's default is 2).
    events += [game(13, "Kuba", "Ewa", "Ewa", 40, at(1, n)) for n in range(2)]
    assert magnet(board_of(*events), "Kuba", 13).status == "member"


def test_a_retired_magnet_that_plays_a_teaching_game_comes_back_and_stays_where_it_was() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ola", 13, "member", 30),
        line("retire", at(0, 5), nick="Ala", size=13),
        game(13, "Ala", "Ola", "Ala", None, at(0, 10), "teaching"),
    )
    ala = magnet(board, "Ala", 13)
    assert (ala.retired, ala.strength) == (False, 80)


def test_an_occasional_player_of_a_game_that_is_not_rated_has_no_entry() -> None:
    board = board_of(
        player("Ala", 9, "member", 20),
        player("Ola", 13, "member", 20),
        game(13, "Ala", "Ola", "Ala", None, at(0, 10), "simultaneous"),
    )
    assert list(board.games[0].moves) == ["Ola"] and board.games[0].moves["Ola"].why == "not-rated"


def test_a_draw_of_an_even_teaching_game_is_still_refused() -> None:
    with pytest.raises(HistoryError) as caught:
        board_of(
            player("Ala", 13, "member", 20),
            player("Ola", 13, "member", 20),
            game(13, "Ala", "Ola", None, None, at(), "teaching"),
        )
    assert caught.value.code == "draw-even"


def test_an_edit_may_change_the_kind_and_the_board_follows() -> None:
    setup = [player("Ala", 13, "member", 20), player("Ola", 13, "member", 20)]
    rated_game = game(13, "Ala", "Ola", "Ola", "resignation", at(0, 10))
    to_teaching = dict(game=1, played=at(0, 10), size=13, players=["Ala", "Ola"], winner="Ola", by="resignation")
    board = board_of(*setup, rated_game, line("edit", at(1), **to_teaching, kind="teaching"))
    assert board.games[0].kind == "teaching"
    assert (strength(board, "Ala", 13), strength(board, "Ola", 13)) == (20, 20)
    # And back: an edit line without a kind makes the game rated again.
    teaching_game = game(13, "Ala", "Ola", "Ola", "resignation", at(0, 10), "teaching")
    board = board_of(*setup, teaching_game, line("edit", at(1), **to_teaching))
    assert board.games[0].rated and strength(board, "Ola", 13) == 22


def test_the_replay_output_names_the_kind_only_of_a_game_that_is_not_rated() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ola", 13, "member", 20),
        game(13, "Ala", "Ola", "Ola", None, at(0, 10), "rengo"),
        game(13, "Ala", "Ola", "Ola", None, at(0, 20)),
    )
    rengo, rated = board.to_json()["games"]
    assert rengo["kind"] == "rengo" and "kind" not in rated
    assert board_json_text(board) == json.dumps(board.to_json(), ensure_ascii=False)


# --- the history file ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", OTHER_KINDS)
def test_a_game_line_of_each_kind_reads_and_writes_back_byte_for_byte(kind: str) -> None:
    text = (
        '{"type": "game", "at": "2026-11-03T19:10", "id": 4, "size": 9, "players": ["Ala", "Ola"], '
        f'"winner": "Ola", "by": 21, "kind": "{kind}"}}'
    )
    event = parse_line(text)
    assert event.kind == kind  # type: ignore[union-attr]
    assert dump_line(event) == text


def test_a_rated_game_line_has_no_kind_and_an_explicit_rated_reads_as_rated() -> None:
    text = '{"type": "game", "at": "2026-11-03T19:10", "size": 9, "players": ["Ala", "Ola"], "winner": "Ola", "by": 21}'
    assert dump_line(parse_line(text)) == text
    stated = parse_line(text[:-1] + ', "kind": "rated"}')
    assert stated.kind == "rated" and dump_line(stated) == text  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", ["friendly", "Teaching", "", None, 1, ["teaching"]])
def test_an_unknown_kind_is_an_error_that_names_the_line_in_both_languages(bad: object) -> None:
    lines = [
        json.dumps(
            {"type": "player", "at": "2026-11-02T18:00", "nick": "Ala", "size": 9, "status": "member", "strength": 20}
        ),
        json.dumps(
            {
                "type": "game",
                "at": "2026-11-03T19:10",
                "size": 9,
                "players": ["Ala", "Ola"],
                "winner": "Ola",
                "kind": bad,
            }
        ),
    ]
    with pytest.raises(HistoryError) as caught:
        parse_history(lines)
    error = caught.value
    assert error.code == "bad-kind" and error.line == 2
    assert error.message("en").startswith("line 2: a game's kind is rated, teaching, simultaneous, rengo or event")
    assert error.message("pl").startswith("wiersz 2: rodzaj partii to rated, teaching, simultaneous, rengo albo event")


def test_an_edit_line_carries_the_kind_both_ways() -> None:
    text = (
        '{"type": "edit", "at": "2026-11-06T18:20", "game": 4, "played": "2026-11-03T20:40", "size": 13, '
        '"players": ["Ewa", "Franek"], "winner": "Ewa", "by": null, "kind": "event"}'
    )
    event = parse_line(text)
    assert event.corrected.kind == "event"  # type: ignore[union-attr]
    assert dump_line(event) == text


# --- what the player pages and tonight's pairings count ----------------------------------------


def test_the_record_per_size_leaves_out_games_that_are_not_rated_and_head_to_head_counts_them() -> None:
    board = board_of(
        player("Ala", 13, "member", 20),
        player("Ola", 13, "member", 20),
        game(13, "Ala", "Ola", "Ala", None, at(0, 10)),
        game(13, "Ala", "Ola", "Ola", None, at(0, 20), "teaching"),
        game(13, "Ala", "Ola", "Ola", None, at(0, 30), "simultaneous"),
    )
    record = by_size("Ala", board.games)[13]
    assert (record.wins, record.losses) == (1, 0)
    ((opponent, tally),) = head_to_head("Ala", board.games)
    assert (opponent, tally.wins, tally.losses) == ("Ola", 1, 2)


def test_a_teaching_game_tonight_is_a_rematch_for_tonights_pairings() -> None:
    config = Config()
    events = [player(nick, 13, "member", s) for nick, s in (("Ala", 20), ("Ola", 20), ("Ula", 24), ("Ela", 24))]
    evening_starts = datetime(2026, 11, 2, 17, 0)
    board = board_of(*events, game(13, "Ala", "Ola", "Ala", None, at(0, 10), "teaching"))
    assert played_pairs(board.games, evening_starts) == {frozenset({"ala", "ola"})}
    now = datetime(2026, 11, 2, 20, 0)
    tonight = for_evening(13, board.magnets, ["Ala", "Ola", "Ula", "Ela"], config, board.games, evening_starts, now)
    paired = {frozenset(side.nick for side in pair.sides) for pair in tonight.suggestion.pairs}
    assert frozenset({"Ala", "Ola"}) not in paired and tonight.suggestion.rematches == 0


# --- the store: record, check, partial replay from a checkpoint, export and import ---------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as opened:
        yield opened


def a_week(store: Store, kinds: list[str]) -> None:
    store.record(player("Bianka", 9, "member", 34.5))
    store.record(player("Czarek", 9, "member", 25))
    for day, kind in enumerate(kinds):
        store.record(game(9, "Bianka", "Czarek", ("Bianka", "Czarek")[day % 2], None, at(day), kind))


def test_the_store_records_a_teaching_game_and_its_check_agrees(store: Store) -> None:
    a_week(store, ["rated", "teaching", "rated"])
    teaching = store.game(2)
    assert teaching is not None and teaching.kind == "teaching"
    assert {move.why for move in teaching.moves.values()} == {"not-rated"}
    assert store.check() == []
    assert '"kind": "teaching"' in list(store.export_lines())[3]
    expected = replay([e for _, e in store.history_entries()])
    assert store.magnets() == expected.magnets


def test_late_games_and_edits_of_kind_replay_from_a_checkpoint_like_a_fresh_replay(store: Store) -> None:
    store.checkpoint_every = 2
    a_week(store, ["rated"] * 7)
    assert store.db.execute("SELECT count(*) FROM checkpoint").fetchone()[0] >= 2
    # A teaching game entered late, on day 5; then game 6 (rated) turned into an event game, and back.
    store.record(game(9, "Czarek", "Bianka", "Czarek", "resignation", at(5, 30), "teaching"))
    fixed = dict(game=6, played=at(5), size=9, players=["Bianka", "Czarek"], winner="Czarek", by=None)
    store.record(line("edit", at(6, 60), **fixed, kind="event"))
    assert store.game(6).kind == "event"  # type: ignore[union-attr]
    assert store.check() == []
    expected = replay([e for _, e in store.history_entries()])
    assert store.magnets() == expected.magnets
    assert [g.to_json(with_id=True) for g in store.board(with_games=True).games] == [
        g.to_json(with_id=True) for g in expected.games
    ]
    store.record(line("edit", at(6, 70), **fixed))
    assert store.game(6).rated and store.check() == []  # type: ignore[union-attr]


def test_export_import_export_keeps_the_kinds_byte_for_byte(store: Store, tmp_path: Path) -> None:
    a_week(store, ["rated", *OTHER_KINDS, "rated"])
    exported = list(store.export_lines())
    assert sum('"kind"' in text for text in exported) == len(OTHER_KINDS)
    with Store.open(tmp_path / "other") as other:
        other.import_history(exported)
        assert list(other.export_lines()) == exported
        assert other.magnets() == store.magnets()
        assert [g.kind for g in other.board(with_games=True).games] == ["rated", *OTHER_KINDS, "rated"]
        assert other.check() == []


def test_a_store_made_before_game_kinds_opens_and_takes_a_teaching_game(tmp_path: Path) -> None:
    # The kind lives in the history line and the cached result (only when not rated): no new column,
    # so a version 2 store of the previous release opens as it is and its cache still checks.
    with Store.open(tmp_path) as old:
        old.checkpoint_every = 2
        a_week(old, ["rated"] * 5)
        lines = old.db.execute("SELECT line FROM event ORDER BY seq").fetchall()
        results = old.db.execute("SELECT result FROM outcome ORDER BY game_id").fetchall()
    assert not any("kind" in text for (text,) in lines + results)
    with sqlite3.connect(tmp_path / "semedori.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    with Store.open(tmp_path) as reopened:
        assert reopened.check() == []
        reopened.record(game(9, "Bianka", "Czarek", "Czarek", None, at(2, 30), "simultaneous"))  # late, too
        assert reopened.check() == []
        assert [g.kind for g in reopened.board(with_games=True).games].count("simultaneous") == 1


def test_a_late_teaching_game_leaves_the_weeks_free_loss_where_it_was(store: Store) -> None:
    a_week(store, ["rated", "rated"])  # Bianka wins day 0, Czarek wins day 1: Bianka's free loss used on day 1
    before = store.magnets()
    store.record(game(9, "Bianka", "Czarek", "Czarek", None, at(0, 30), "teaching"))  # entered late, before day 1
    assert store.magnets() == before
    assert store.game(2).moves["Bianka"].why == "free-loss"  # type: ignore[union-attr]
    assert store.check() == []


# --- the command line: replay, import, check, export ----------------------------------------------

KINDS_FILE = [
    '{"type": "player", "at": "2026-11-02T18:00", "nick": "Lena", "size": 13, "status": "member", "strength": 20}',
    '{"type": "player", "at": "2026-11-02T18:00", "nick": "Kuba", "size": 13, "status": "guest", "strength": 0}',
    '{"type": "game", "at": "2026-11-02T19:00", "id": 1, "size": 13, "players": ["Lena", "Kuba"], '
    '"winner": "Lena", "by": null, "kind": "teaching"}',
    '{"type": "game", "at": "2026-11-02T19:30", "id": 2, "size": 13, "players": ["Lena", "Kuba"], '
    '"winner": "Lena", "by": null}',
    '{"type": "edit", "at": "2026-11-03T10:00", "game": 2, "played": "2026-11-02T19:30", "size": 13, '
    '"players": ["Lena", "Kuba"], "winner": "Lena", "by": null, "kind": "rengo"}',
]


def test_the_command_line_replays_imports_checks_and_exports_the_kinds(tmp_path: Path) -> None:
    from test_cli import semedori

    history = tmp_path / "kinds.jsonl"
    history.write_text("\n".join(KINDS_FILE) + "\n", encoding="utf-8")
    replayed = semedori(tmp_path / "home", "replay", str(history))
    assert replayed.returncode == 0, replayed.stderr
    output = json.loads(replayed.stdout)
    assert [g.get("kind") for g in output["games"]] == ["teaching", "rengo"]
    assert {m["nick"]: (m["strength"], m["status"]) for m in output["magnets"]} == {
        "Lena": (20, "member"),
        "Kuba": (0, "guest"),
    }
    home = tmp_path / "home"
    assert semedori(home, "import", str(history)).returncode == 0
    assert semedori(home, "check").returncode == 0
    assert semedori(home, "export").stdout == history.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "semedori: line 3: a game's kind is rated, teaching, simultaneous, rengo or event, not 'friendly'"),
        ("pl", "semedori: wiersz 3: rodzaj partii to rated, teaching, simultaneous, rengo albo event, nie 'friendly'"),
    ],
)
def test_the_command_line_refuses_an_unknown_kind_in_the_clubs_language(
    tmp_path: Path, language: str, says: str
) -> None:
    from test_cli import semedori

    home = tmp_path / "home"
    with Store.open(home) as store:
        store.save_config(store.config.with_changes(language=language))
    history = tmp_path / "bad.jsonl"
    history.write_text("\n".join(KINDS_FILE[:3]).replace('"teaching"', '"friendly"') + "\n", encoding="utf-8")
    for command in ("replay", "import"):
        result = semedori(home, command, str(history))
        assert result.returncode == 1 and result.stderr.strip() == says, result.stderr
    assert semedori(home, "export").stdout == ""
