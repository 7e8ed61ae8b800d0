"""The store's privacy settings: a table of their own, kept by renames, in backups and restores."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from histories import at, line, player

from kiosk.backup import restore, verify
from kiosk.config import DATABASE_NAME
from kiosk.privacy import INITIALS, SHORT, PlayerPrivacy, Privacy, public_labels
from kiosk.store import Store


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "club") as store:
        for nick in ("Łucja Kowalska", "Ala", "小龍"):
            store.record(player(nick, 13, "member", 20))
        yield store


def test_a_new_club_shows_nicknames_and_has_no_privacy_table(club: Store) -> None:
    assert club.privacy() == Privacy()
    assert club.db.execute("SELECT 1 FROM sqlite_master WHERE name LIKE 'privacy%'").fetchone() is None


def test_settings_are_kept_and_are_not_history(club: Store) -> None:
    history, counter = list(club.export_lines()), club.change_counter()
    club.set_club_privacy(INITIALS)
    club.set_player_privacy("ŁUCJA KOWALSKA", PlayerPrivacy(SHORT, "Łucja", hidden=True, minor=True))
    privacy = club.privacy()
    assert privacy.club_show == INITIALS
    assert privacy.of("Łucja Kowalska") == PlayerPrivacy(SHORT, "Łucja", hidden=True, minor=True)
    assert list(club.export_lines()) == history
    assert club.change_counter() > counter  # the wall notices and draws the labels
    with pytest.raises(ValueError):
        club.set_club_privacy("everything")
    assert club.privacy().club_show == INITIALS


def test_a_hidden_player_stays_hidden_under_a_new_nickname(club: Store) -> None:
    club.set_player_privacy("Ala", PlayerPrivacy(hidden=True))
    club.record(line("rename", at(1), from_="Ala", to="Alicja"))
    assert club.privacy().hidden("Alicja")
    labels = public_labels([m.nick for m in club.magnets()], club.privacy())
    assert labels["Alicja"] == "A."


def test_a_backup_with_privacy_and_check_in_tables_verifies_and_restores(club: Store, tmp_path: Path) -> None:
    from datetime import date

    club.set_player_privacy("小龍", PlayerPrivacy(INITIALS, hidden=True))
    club.check_in(date(2026, 11, 2), "Ala")
    copy = tmp_path / "backup.sqlite3"
    club.backup(copy)
    assert verify(copy).events == 3
    target = tmp_path / "restored"
    restore(copy, target)
    with Store.open(target) as restored:
        assert restored.privacy().of("小龍") == PlayerPrivacy(INITIALS, hidden=True)


def test_a_backup_whose_privacy_table_was_changed_by_hand_is_refused(club: Store, tmp_path: Path) -> None:
    from kiosk.backup import RestoreError

    club.set_player_privacy("Ala", PlayerPrivacy(hidden=True))
    copy = tmp_path / "backup.sqlite3"
    club.backup(copy)
    db = sqlite3.connect(copy)
    db.execute("ALTER TABLE privacy_player ADD COLUMN extra TEXT")
    db.commit()
    db.close()
    with pytest.raises(RestoreError, match="privacy_player"):
        verify(copy)
    assert (tmp_path / "club" / DATABASE_NAME).exists()


def test_a_players_symbol_is_kept_beside_the_other_settings_and_an_older_table_takes_it(club: Store) -> None:
    # A kiosk whose table was made before symbols: no mark column yet.
    club.db.execute("DROP TABLE IF EXISTS privacy_player")
    club.db.execute(
        "CREATE TABLE privacy_player (identity TEXT PRIMARY KEY, show TEXT, short_name TEXT NOT NULL DEFAULT '',"
        " hidden INTEGER NOT NULL DEFAULT 0, minor INTEGER NOT NULL DEFAULT 0, at TEXT NOT NULL)"
    )
    club.db.execute("CREATE TABLE IF NOT EXISTS privacy_club (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    club.db.execute("INSERT INTO privacy_player (identity, show, at) VALUES ('ala', 'initials', '2026-11-01')")
    assert club.privacy().of("Ala") == PlayerPrivacy(INITIALS)  # read without the column
    history = list(club.export_lines())
    club.set_player_privacy("Ala", PlayerPrivacy(INITIALS, mark="★"))
    assert club.privacy().of("Ala").mark == "★"
    assert list(club.export_lines()) == history  # not history: the exported file is the same
    club.set_player_privacy("Ala", PlayerPrivacy(INITIALS, mark="?"))  # not one of the symbols: none is kept
    assert club.privacy().of("Ala").mark == ""
