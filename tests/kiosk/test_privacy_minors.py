"""Minors shown by initials by default, and a consent noted per minor (kiosk/privacy.py, the store)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from kiosk.privacy import AS_CLUB, INITIALS, NICK, PlayerPrivacy, Privacy, public_labels
from kiosk.store import Store

PLAYERS = [
    {"type": "player", "at": "2026-09-01T17:00", "nick": nick, "size": 13, "status": "member", "strength": 10}
    for nick in ("Łucja Kowalska", "Adam Nowak", "Ewa Lis")
]


def test_a_minor_is_shown_by_initials_unless_a_consent_is_noted_or_a_label_chosen() -> None:
    players = {
        "łucja kowalska": PlayerPrivacy(minor=True),
        "adam nowak": PlayerPrivacy(minor=True, consent=True, consent_on="2026-09-02"),
        "ewa lis": PlayerPrivacy(minor=True, consent=False, consent_on="2026-09-02"),
    }
    nicks = ["Łucja Kowalska", "Adam Nowak", "Ewa Lis", "Grown Up"]
    labels = public_labels(nicks, Privacy(NICK, players))
    assert labels == {"Łucja Kowalska": "Ł.K.", "Adam Nowak": "Adam Nowak", "Ewa Lis": "E.L.", "Grown Up": "Grown Up"}
    # the club may show minors as everyone else
    assert public_labels(nicks, Privacy(NICK, players, AS_CLUB))["Łucja Kowalska"] == "Łucja Kowalska"
    # the owner's own choice for a child wins
    chosen = {**players, "łucja kowalska": PlayerPrivacy(show=NICK, minor=True)}
    assert public_labels(nicks, Privacy(NICK, chosen))["Łucja Kowalska"] == "Łucja Kowalska"


def test_the_store_keeps_the_consent_and_its_day_and_the_clubs_minor_setting(tmp_path: Path) -> None:
    with Store.open(tmp_path / "club") as store:
        store.import_history(json.dumps(line) for line in PLAYERS)
        history = list(store.export_lines())
        store.set_player_privacy("łucja kowalska", PlayerPrivacy(minor=True, consent=False, consent_on="2026-09-03"))
        store.set_player_privacy("Adam Nowak", PlayerPrivacy(minor=True, consent=True, consent_on="2026-09-04"))
        privacy = store.privacy()
        assert privacy.minors_show == INITIALS  # the default
        assert privacy.of("Łucja Kowalska") == PlayerPrivacy(minor=True, consent=False, consent_on="2026-09-03")
        assert privacy.of("Adam Nowak").consent is True
        store.set_minors_privacy(AS_CLUB)
        assert store.privacy().minors_show == AS_CLUB
        assert list(store.export_lines()) == history  # none of it is history
        columns = {row[1] for row in store.db.execute("PRAGMA table_info(privacy_player)")}
        assert not {"parent", "parents", "guardian", "name"} & columns


def test_a_privacy_table_made_before_the_consent_columns_is_read_and_then_upgraded(tmp_path: Path) -> None:
    with Store.open(tmp_path / "club") as store:
        store.import_history(json.dumps(line) for line in PLAYERS)
        # the table as an earlier kiosk made it
        store.db.executescript(
            "CREATE TABLE privacy_club (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE privacy_player (identity TEXT PRIMARY KEY, show TEXT, short_name TEXT NOT NULL DEFAULT '',"
            " hidden INTEGER NOT NULL DEFAULT 0, minor INTEGER NOT NULL DEFAULT 0, at TEXT NOT NULL);"
            "INSERT INTO privacy_player VALUES ('ewa lis', NULL, '', 0, 1, '2026-01-01');"
        )
        assert store.privacy().of("Ewa Lis") == PlayerPrivacy(minor=True)
        store.set_player_privacy("Adam Nowak", PlayerPrivacy(minor=True, consent=True, consent_on="2026-09-04"))
        assert store.privacy().of("Adam Nowak").consent_on == "2026-09-04"
        assert store.privacy().of("Ewa Lis") == PlayerPrivacy(minor=True)
    assert sqlite3.connect(tmp_path / "club" / "semedori.sqlite3").execute("PRAGMA integrity_check").fetchone() == (
        "ok",
    )
