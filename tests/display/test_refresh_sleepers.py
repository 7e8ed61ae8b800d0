"""The wall lets a sleeper go on the day it starts resting, with nothing written (display/refresh.py)."""

from __future__ import annotations

from datetime import timedelta

from test_refresh import Clock, Screen, game, wall_for

from kiosk.store import Store


def test_a_magnet_leaves_the_wall_the_day_it_starts_resting(store: Store) -> None:
    store.save_config(store.config.with_changes(sleeper_weeks=1))
    # The club plays on (a game on Monday evening), so Bianka's and Czarek's week without one is up that day.
    store.record(game("2026-11-09T18:30", winner="Ola", size=9, players=("Ola", "Kuba")))
    clock, screen = Clock(), Screen()  # Thursday 5 November 2026, 19:00
    wall = wall_for(store, screen, clock)
    assert wall.data is not None and len(wall.data.on_size(13)) == 2
    clock.wait(timedelta(days=4).total_seconds())  # Monday 9 November, 19:00: Bianka and Czarek joined a week ago
    assert not wall.tick()  # a new day is noticed; a calm first, as after a result
    clock.wait(21)
    assert wall.tick()
    assert wall.data.on_size(13) == () and sorted(m.nick for m in wall.data.on_size(9)) == ["Kuba", "Ola"]
    assert len(screen.shown) == 2
    clock.wait(3600)
    assert not wall.tick()  # once a day, not every turn


def test_without_sleepers_a_new_day_changes_nothing(store: Store) -> None:
    store.save_config(store.config.with_changes(sleeper_weeks=0))
    clock, screen = Clock(), Screen()
    wall = wall_for(store, screen, clock)
    clock.wait(timedelta(days=30).total_seconds())
    assert not wall.tick()
    clock.wait(60)
    assert not wall.tick() and len(screen.shown) == 1 and wall.skipped == 0
