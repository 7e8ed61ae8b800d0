"""The games service: one game, one record; undo takes the form's guest with it; on a real store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.errors import HistoryError
from kiosk.events import GUEST, PlayerAdded, nick_key, parse_line
from kiosk.replay import replay
from kiosk.rules import club_now
from kiosk.services import games
from kiosk.services.games import AGAIN_NOTE, Duplicate, Typed
from kiosk.sleepers import hanging
from kiosk.store import Recorded, Store

JEDREK, HANIA = "phone:jedrek-phone-0000", "phone:hania-phone-00000"
PLAYERS = ["Jędrek", "Hania", "Bianka", "Czarek"]


def now(store: Store) -> datetime:
    """The club's time now (the history's entry times are the machine's: the window is real time)."""
    return club_now(store.config, datetime.now(UTC)).replace(second=0, microsecond=0)


def club_at(folder: Path) -> Store:
    store = Store.open(folder)
    joined = now(store) - timedelta(days=1)
    for nick in PLAYERS:
        store.record(PlayerAdded(joined, nick, 13, "member", strength=80))
    return store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with club_at(tmp_path) as opened:
        yield opened


def won(a: str, b: str, winner: str | None, by: object = "resignation") -> Typed:
    return Typed(13, [a, b], winner, by if winner else None)


def standing(store: Store) -> list:
    return store.recent_games(limit=1000)


def test_a_second_phone_gets_the_game_back_and_nothing_is_written(store: Store) -> None:
    first = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(first, Recorded) and first.game is not None
    seen = len(store.history_entries())
    second = games.record_game(store, won("Hania", "Jędrek", "jędrek"), now(store), HANIA)
    assert isinstance(second, Duplicate) and second.same and second.game.id == first.game.id
    assert len(store.history_entries()) == seen


def test_yes_same_game_moves_no_magnet_and_marks_it_confirmed(store: Store) -> None:
    first = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(first, Recorded) and first.game is not None
    board = store.magnets()
    games.confirm_game(store, first.game.id, now(store), HANIA)
    assert store.magnets() == board
    assert store.confirmed(standing(store)) == {first.game.id}
    line = json.loads(list(store.export_lines())[-1])
    assert line == {"type": "confirm", "at": line["at"], "game": first.game.id}
    assert store.check() == []


def test_the_phone_that_recorded_it_cannot_confirm_it(store: Store) -> None:
    first = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(first, Recorded) and first.game is not None
    with pytest.raises(HistoryError) as refused:
        games.confirm_game(store, first.game.id, now(store), JEDREK)
    assert refused.value.code == "confirm-own"


def test_an_edit_after_the_confirmation_takes_the_mark_away(store: Store) -> None:
    first = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(first, Recorded) and first.game is not None
    games.confirm_game(store, first.game.id, now(store), HANIA)
    games.correct_to_mine(store, first.game.id, won("Jędrek", "Hania", "Hania"), now(store), HANIA)
    assert store.confirmed(standing(store)) == set()


def test_another_result_is_a_question_too_and_mine_edits_the_earlier_game(store: Store) -> None:
    first = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(first, Recorded) and first.game is not None
    other = games.record_game(store, won("Jędrek", "Hania", "Hania", 5.5), now(store), HANIA)
    assert isinstance(other, Duplicate) and not other.same
    games.correct_to_mine(store, first.game.id, won("Jędrek", "Hania", "Hania", 5.5), now(store), HANIA)
    [kept] = standing(store)
    assert kept.id == first.game.id and kept.winner == "Hania"


def test_we_played_again_is_recorded_saying_which_game_it_is_not(store: Store) -> None:
    first = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(first, Recorded) and first.game is not None
    again = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), HANIA, again=True)
    assert isinstance(again, Recorded) and again.new
    assert store.entries(limit=1)[0].line["note"] == AGAIN_NOTE.format(game=first.game.id)
    assert len(standing(store)) == 2


def test_one_phones_own_two_games_are_not_asked_about(store: Store) -> None:
    games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK), Recorded)


def test_undo_takes_the_guest_the_form_added_and_the_form_can_bring_them_back(store: Store) -> None:
    games.add_guest(store, "Bartuś", 13, now(store), JEDREK)
    recorded = games.record_game(store, won("Jędrek", "Bartuś", "Bartuś"), now(store), JEDREK)
    assert isinstance(recorded, Recorded) and recorded.game is not None
    left = games.undo_game(store, recorded.game.id, now(store), JEDREK)
    assert left == ["Bartuś"]
    assert "Bartuś" not in {m.nick for m in hanging(store.magnets(), None, 0)}
    kinds = [json.loads(line)["type"] for line in store.export_lines()][-4:]
    assert kinds == ["player", "game", "void", "retire"]  # added and retired: the history keeps both
    again = games.record_game(store, won("Jędrek", "Bartuś", "Bartuś"), now(store), JEDREK)
    assert isinstance(again, Recorded) and again.game is not None  # a game brings a retired magnet back
    assert "Bartuś" in {m.nick for m in hanging(store.magnets(), None, 0)}
    assert store.check() == []


def test_undo_keeps_a_guest_with_other_games_and_one_another_phone_added(store: Store) -> None:
    games.add_guest(store, "Bartuś", 13, now(store), HANIA)  # added on Hania's phone
    games.add_guest(store, "Ola", 13, now(store), JEDREK)
    games.record_game(store, won("Ola", "Hania", "Ola"), now(store), JEDREK)  # Ola's other game
    recorded = games.record_game(store, won("Ola", "Bartuś", "Ola"), now(store), JEDREK)
    assert isinstance(recorded, Recorded) and recorded.game is not None
    assert games.undo_game(store, recorded.game.id, now(store), JEDREK) == []
    assert {"Bartuś", "Ola"} <= {m.nick for m in hanging(store.magnets(), None, 0)}


def test_only_the_phone_that_recorded_a_game_may_undo_it(store: Store) -> None:
    recorded = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK)
    assert isinstance(recorded, Recorded) and recorded.game is not None
    with pytest.raises(HistoryError) as refused:
        games.undo_game(store, recorded.game.id, now(store), HANIA)
    assert refused.value.code == "undo-refused"
    later = datetime.now(UTC) + timedelta(minutes=games.UNDO_MINUTES + 1)
    assert games.undo_minutes_left(store, recorded.game.id, JEDREK, later) == 0


def test_likely_copies_are_found_in_an_imported_history(store: Store) -> None:
    entered = datetime.now(UTC)
    line = {"type": "game", "at": "2026-11-03T19:10", "size": 13, "players": ["Jędrek", "Hania"], "winner": "Hania"}
    from kiosk.store import Entry

    entries = [
        (2, Entry(2, line, "import", entered)),
        (3, Entry(3, {**line, "at": "2026-11-03T19:15"}, "import", entered)),
        (4, Entry(4, {**line, "at": "2026-11-03T19:20", "note": AGAIN_NOTE.format(game=3)}, "import", entered)),
        (5, Entry(5, {**line, "at": "2026-11-03T19:25", "winner": "Jędrek"}, "import", entered)),
    ]
    assert games.likely_copies(entries, 30) == {3: 2}
    assert games.likely_copies(entries, 0) == {}


# --- any interleaving of two phones -------------------------------------------------------------

PAIRS = [("Jędrek", "Hania"), ("Bianka", "Czarek"), ("Jędrek", "Bianka")]
STEP = st.tuples(
    st.sampled_from([0, 1]),  # which phone
    st.sampled_from(["record", "record", "record", "undo"]),
    st.sampled_from(range(len(PAIRS))),
    st.sampled_from([0, 1]),  # who won
    st.sampled_from(["confirm", "again", "mine", "leave"]),  # the answer to a question, when there is one
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(STEP, min_size=1, max_size=12))
def test_two_phones_in_any_order_count_each_game_once_and_replay_to_the_board(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[int, str, int, int, str]]
) -> None:
    phones = (JEDREK, HANIA)
    with club_at(tmp_path_factory.mktemp("club")) as store:
        for number, action, which, winner, answer in steps:
            origin, (a, b) = phones[number], PAIRS[which]
            if action == "undo":
                mine = [g for g in standing(store) if (e := store.game_entry(g.id)) is not None and e.origin == origin]
                if mine:
                    games.undo_game(store, mine[0].id, now(store), origin)
                continue
            typed = won(a, b, (a, b)[winner])
            outcome = games.record_game(store, typed, now(store), origin)
            if isinstance(outcome, Duplicate):
                if answer == "confirm" and outcome.same:
                    games.confirm_game(store, outcome.game.id, now(store), origin)
                elif answer == "mine" and not outcome.same:
                    games.correct_to_mine(store, outcome.game.id, typed, now(store), origin)
                elif answer in ("again", "mine", "confirm"):
                    games.record_game(store, typed, now(store), origin, again=True)
        # The history replays to the board the store keeps.
        history = [parse_line(line) for line in store.export_lines()]
        assert replay(history, store.file_config).magnets == store.board().magnets
        assert store.check() == []
        # No game counted twice: two standing games of one pair from two phones within the window,
        # with the same result, only when the later one was recorded after "No, we played again".
        entries = {g.id: store.game_entry(g.id) for g in standing(store)}
        for g in standing(store):
            for h in standing(store):
                e, f = entries[g.id], entries[h.id]
                assert e is not None and f is not None
                same_pair = {nick_key(p) for p in g.players} == {nick_key(p) for p in h.players}
                if g.id < h.id and same_pair and e.origin != f.origin and games.same_result(g, h):
                    assert f.entered - e.entered > timedelta(minutes=30) or str(f.line.get("note", "")).startswith(
                        "played again"
                    )
        # Export, import, export: byte-identical, confirmations and all.
        lines = list(store.export_lines())
    with Store.open(tmp_path_factory.mktemp("again")) as copy:
        copy.import_history(lines)
        assert list(copy.export_lines()) == lines


def test_guest_status_is_what_the_service_adds(store: Store) -> None:
    event, _recorded = games.add_guest(store, "Zuzia", 9, now(store), JEDREK, kyu=20)
    assert event.status == GUEST and event.kyu == 20


def test_the_window_moves_no_magnet_so_changing_it_replays_nothing() -> None:
    from kiosk.config import Config
    from kiosk.store_history import rules_fingerprint

    assert rules_fingerprint(Config()) == rules_fingerprint(Config().with_changes(same_game_minutes=5))


# --- hard-input's checks, where the service does the work -----------------------------


def test_a_key_sent_again_with_another_game_is_reused_and_writes_nothing(store: Store) -> None:
    key = "form:jedrek-phone-0000:token-1"
    first = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK, key=key)
    assert isinstance(first, Recorded) and first.game is not None
    seen = len(store.history_entries())
    retry = games.record_game(store, won("Jędrek", "Hania", "Jędrek"), now(store), JEDREK, key=key)
    assert isinstance(retry, Recorded) and not retry.new and retry.game is not None
    assert retry.game.id == first.game.id  # a double tap gets its game back
    changed = games.record_game(store, won("Jędrek", "Hania", "Hania"), now(store), JEDREK, key=key)
    assert isinstance(changed, games.Reused) and changed.game.id == first.game.id
    again = games.record_game(store, won("Jędrek", "Hania", "Hania"), now(store), JEDREK, key=key, again=True)
    assert isinstance(again, games.Reused)  # "we played again" with the same key is still no new game
    assert len(store.history_entries()) == seen
    assert [g.winner for g in standing(store)] == ["Jędrek"]


def test_a_guest_named_like_a_player_is_refused_before_anything_is_written(store: Store) -> None:
    from kiosk.privacy import public_names

    shown = public_names([m.nick for m in store.magnets()], store.privacy())
    seen = len(store.history_entries())
    with pytest.raises(HistoryError) as refused:
        games.add_guest(store, "Jedrek", 13, now(store), JEDREK, shown=shown)  # no ę: it looks like Jędrek
    assert refused.value.code == "nick-looks-like"
    with pytest.raises(HistoryError):
        games.check_guest(store, "Наnia", 13, now(store), shown=shown)  # a Cyrillic Н and а
    assert len(store.history_entries()) == seen
    event, _recorded = games.add_guest(store, "Jedrek", 13, now(store), JEDREK, shown=shown, deliberate=True)
    assert event.nick == "Jedrek"  # the owner may add a look-alike on purpose
