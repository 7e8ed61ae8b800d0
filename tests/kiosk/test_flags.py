"""Returners and streaks flagged to the owner for a quick correction (kiosk/flags.py)."""

from __future__ import annotations

from datetime import datetime

from histories import board_of, game, line, player

from kiosk.flags import away_weeks, flags

NOW = datetime(2026, 11, 30, 21, 0)


def _plain(found: list) -> list[tuple[str, str, int, str]]:  # type: ignore[type-arg]
    return [(f.kind, f.magnet.nick, f.count, f.direction) for f in found]


def test_a_returner_after_a_long_break_is_flagged_until_corrected() -> None:
    events = [
        player("Ala", 13, strength=20, when="2026-01-05T18:00"),
        player("Ola", 13, strength=20, when="2026-01-05T18:00"),
        player("Ula", 13, strength=20, when="2026-11-01T18:00"),
        game(13, "Ala", "Ola", "Ala", 3, when="2026-01-12T19:00"),
        game(13, "Ola", "Ula", "Ula", 3, when="2026-11-20T19:00"),  # Ola back after 44 weeks; Ula is new
    ]
    assert _plain(flags(board_of(*events), NOW, 12)) == [("returner", "Ola", 44, "")]
    found = flags(board_of(*events), NOW, 12)[0]
    assert found.since == datetime(2026, 11, 20, 19, 0) and found.magnet.size == 13
    # A break shorter than the setting is no break; four weeks after the return the flag is gone.
    assert flags(board_of(*events), NOW, 45) == []
    assert flags(board_of(*events), datetime(2026, 12, 18, 19, 0), 12) != []
    assert flags(board_of(*events), datetime(2026, 12, 18, 19, 1), 12) == []
    # A quick correction after the return settles it.
    fixed = line("correction", "2026-11-21T18:00", nick="Ola", size=13, strength=24, **{"with": "Ala"})
    assert flags(board_of(*events, fixed), NOW, 12) == []
    # Ala comes back too, after 45 weeks: both are flagged, returners first.
    late = game(13, "Ala", "Ula", "Ula", 3, when="2026-11-25T19:00")
    assert ("returner", "Ala", 45, "") in _plain(flags(board_of(*events, late), NOW, 12))


def test_sleepers_off_still_flag_returners_after_the_default_break() -> None:
    assert away_weeks(0) == 12 and away_weeks(20) == 20


def _streak_club(*results: tuple[str, str, object]) -> list:  # type: ignore[type-arg]
    events = [player(n, 13, strength=20, when="2026-10-01T18:00") for n in ("Ala", "Bea", "Cel", "Dan", "Eryk")]
    events.append(player("Gość", 13, status="guest", strength=20, when="2026-10-01T18:00"))
    for day, (opponent, winner, by) in enumerate(results):
        events.append(game(13, "Ala", opponent, winner, by, when=f"2026-11-{day + 2:02d}T19:00"))
    return events


def test_four_wins_in_a_row_are_a_streak_three_are_not() -> None:
    three = _streak_club(("Bea", "Ala", 3), ("Cel", "Ala", 3), ("Dan", "Ala", 3))
    assert [f for f in flags(board_of(*three), NOW, 12) if f.magnet.nick == "Ala"] == []
    four = _streak_club(
        ("Eryk", "Eryk", 3), ("Bea", "Ala", 3), ("Cel", "Ala", 3), ("Dan", "Ala", 3), ("Eryk", "Ala", 3)
    )
    found = [f for f in flags(board_of(*four), NOW, 12) if f.magnet.nick == "Ala"]
    assert _plain(found) == [("streak", "Ala", 4, "won")]
    assert found[0].since == datetime(2026, 11, 3, 19, 0)


def test_losses_free_ones_too_make_a_streak_and_a_draw_ends_one() -> None:
    losses = _streak_club(("Bea", "Bea", 3), ("Cel", "Cel", 3), ("Dan", "Dan", 3), ("Eryk", "Eryk", 3))
    assert _plain([f for f in flags(board_of(*losses), NOW, 12) if f.magnet.nick == "Ala"]) == [
        ("streak", "Ala", 4, "lost")
    ]


def test_a_game_that_does_not_move_the_magnet_is_skipped_and_a_correction_starts_again() -> None:
    # Ala (member) beats the guest in between: vs-guest, the magnet stayed, the streak goes on.
    wins = _streak_club(("Bea", "Ala", 3), ("Gość", "Ala", 3), ("Cel", "Ala", 3), ("Dan", "Ala", 3), ("Eryk", "Ala", 3))
    assert _plain([f for f in flags(board_of(*wins), NOW, 12) if f.magnet.nick == "Ala"]) == [
        ("streak", "Ala", 4, "won")
    ]
    fixed = line("correction", "2026-11-04T23:00", nick="Ala", size=13, strength=26, **{"with": "Bea"})
    assert [f for f in flags(board_of(*wins, fixed), NOW, 12) if f.magnet.nick == "Ala"] == []
    # A retired magnet is not flagged.
    retired = line("retire", "2026-11-29T12:00", nick="Ala", size=13)
    assert [f for f in flags(board_of(*wins, retired), NOW, 12) if f.magnet.nick == "Ala"] == []
