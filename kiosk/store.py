"""The store: the club's history in one SQLite file, the only module that touches SQLite.

``Store`` is the unit of work: it owns the one connection and its write transaction
(``_write()``, BEGIN IMMEDIATE, so writers queue rather than fail) and the change counter,
and commits together what the modules below keep, each in tables of its own:

- ``kiosk.store_history``: the history (append-only, the single source of truth) and its
  replayed cache, the checkpoints, imports and ``semedori check``;
- ``kiosk.store_settings``: semedori.toml as read, and the rules in force now;
- ``kiosk.store_tonight``: tonight's check-ins and refused pairs;
- ``kiosk.store_privacy``: the children's privacy settings;
- ``kiosk.store_tournaments``: the evenings' events' lines among the history's (no
  tables of their own), and an older kiosk's event tables made history lines on opening.

Those modules run their SQL on the store's connection and take no lock of their own.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import TypeVar

from kiosk import config as configuration
from kiosk.board import Board, Change, GameResult, Magnet
from kiosk.config import Config
from kiosk.copies import is_database_family, write_copy
from kiosk.errors import ConfigError, HistoryError, StoreError
from kiosk.events import TOURNAMENT_EVENTS, Event, GamePlayed, RuleChange
from kiosk.privacy import MODES, PlayerPrivacy, Privacy
from kiosk.rulechanges import same_rules
from kiosk.store_history import (
    CACHE_LAYOUT,
    IMPORT_PATTERN,
    MIGRATIONS,
    SCHEMA_VERSION,
    Entry,
    History,
    Recorded,
    remove_database,
    rules_fingerprint,
)
from kiosk.store_matches import TABLES as _MATCH_TABLES
from kiosk.store_matches import MatchTables
from kiosk.store_privacy import TABLES as _PRIVACY_TABLES
from kiosk.store_privacy import PrivacyTables
from kiosk.store_settings import Settings
from kiosk.store_tonight import TABLES as _TONIGHT_TABLES
from kiosk.store_tonight import TonightTables
from kiosk.store_tournaments import LEGACY_TABLES as LEGACY_TOURNAMENT_TABLES
from kiosk.store_tournaments import TournamentLines

__all__ = [
    "CACHE_LAYOUT",
    "FIRST_USE_TABLES",
    "IMPORT_PATTERN",
    "LEGACY_TOURNAMENT_TABLES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Entry",
    "Recorded",
    "Store",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

# Every table made on first use: a backup holding them is still the kiosk's (kiosk.backup).
FIRST_USE_TABLES = _TONIGHT_TABLES + ";" + _PRIVACY_TABLES + ";" + _MATCH_TABLES


class Store:
    """The club's history and its replayed board in one SQLite file."""

    # Games between checkpoints: a late result replays at most about this many games more
    # than the ones after it. Smaller is faster per write and costs more room in the file.
    checkpoint_every = 32
    # A partial replay holds the games after its checkpoint in memory; beyond this many,
    # the whole replay (which streams) is used instead.
    partial_limit = 10_000
    # The whole replay takes a checkpoint every ``checkpoint_every`` games only for this
    # many latest games, and one every 1,024 before them.
    dense_games = 4_096

    def __init__(self, folder: Path, connection: sqlite3.Connection, config: Config) -> None:
        self.folder = folder
        self.db = connection
        self._settings = Settings(folder, config)
        self._history = History(connection, self._settings, self)
        self._tonight = TonightTables(connection)
        self._privacy = PrivacyTables(connection)
        self._matches = MatchTables(connection)
        self._tournaments = TournamentLines(connection)

    @property
    def file_config(self) -> Config:
        """semedori.toml as read: its rules are those in force from the beginning of the history."""
        return self._settings.file_config

    @file_config.setter
    def file_config(self, config: Config) -> None:
        self._settings.file_config = config

    # --- opening --------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path | None = None, busy_seconds: float = 30) -> Store:
        """Open (and create or migrate) the store in the data folder.

        ``busy_seconds``: how long a write waits for another writer before it gives up
        (StoreError "store-busy"); a phone should not wait half a minute.
        """
        folder = folder or configuration.data_folder()
        folder.mkdir(parents=True, exist_ok=True)
        config = Settings.first_read(folder)
        try:
            db = sqlite3.connect(folder / configuration.DATABASE_NAME, timeout=busy_seconds, isolation_level=None)
            _use_wal(db)
            # An SD card losing power is the common fault: sync every commit.
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            store = cls(folder, db, config)
            store._migrate()
            store._tournament_history()
            store._follow_rules()
        except sqlite3.OperationalError as error:
            raise StoreError(detail=str(error)) from None
        except HistoryError as error:
            # Hand-edited settings the history cannot take (a top below a magnet, a draw
            # that would now be an even game): name the file, not a line of the history.
            db.close()
            raise ConfigError(configuration.CONFIG_NAME, "history-refuses", detail=error) from None
        return store

    def close(self) -> None:
        """Close the database connection."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        version = self._history.version()
        if version < SCHEMA_VERSION:
            with self._write():
                # Read again under the write lock: the web and the wall start together,
                # and the other one may have created the schema in the meantime.
                version = self._history.version()
                self._history.migrate(version)
        if version > SCHEMA_VERSION:
            raise StoreError("store-newer", detail=f"user_version {version}")

    def _follow_rules(self) -> None:
        """Replay everything when the club changed a rule in semedori.toml since the last write."""
        stored = self._history.stored_fingerprint()
        if stored is not None and stored != rules_fingerprint(self.file_config):
            self.rebuild()

    # --- the club's settings (kiosk.store_settings) --------------------------------------

    @property
    def config(self) -> Config:
        """The club's settings with the rules in force now (semedori.toml's, then the history's rule changes)."""
        return self._settings.in_force(self._history.rules_now())

    @config.setter
    def config(self, config: Config) -> None:
        self.file_config = config

    def reload_config(self) -> Config:
        """Read semedori.toml again (after the owner changed a setting)."""
        self._settings.reload()
        self._follow_rules()
        return self.config

    def save_config(self, config: Config) -> None:
        """Write semedori.toml and use it from now on; refused when the history cannot take it.

        ``config`` is read as ``Store.config`` gives it (the rules in force now). Rules the
        same as now keep semedori.toml's rules from the beginning. Other rules rewrite the
        rules from the beginning, and so the whole past, only while the history holds no
        rule change: after one, a rule changes by a dated ``rules`` event (``record``).
        """
        if same_rules(config, self.config):
            config = self._settings.keeping_beginning(config)
        elif self._history.has_rule_changes():
            raise ConfigError("rules", "rules-dated")
        previous, self.file_config = self.file_config, config
        try:
            # Replay under the new rules first: a lower top or other handicap points can
            # make the history invalid (a magnet above the top, a draw now in an even
            # game), and a file saved with them would stop the store from opening.
            self._follow_rules()
        except HistoryError:
            self.file_config = previous
            raise
        self._settings.save(config)

    # --- transactions ----------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, taken at once (BEGIN IMMEDIATE) so writers queue, not fail."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise _store_error(error) from None
        try:
            yield
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            self._rollback()
            raise _store_error(error) from None
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def _bump(self) -> None:
        self.db.execute("UPDATE cache SET value = CAST(value AS INTEGER) + 1 WHERE name = 'counter'")

    def change_counter(self) -> int:
        """A number that grows with every write (history, tonight's list, privacy settings): the wall polls it."""
        return int(self.db.execute("SELECT value FROM cache WHERE name = 'counter'").fetchone()[0])

    # --- the history (kiosk.store_history) ------------------------------------------------

    def record(self, event: Event, key: str | None = None, origin: str | None = None) -> Recorded:
        """Append one event; a repeated ``key`` records nothing and answers the first result."""
        if isinstance(event, GamePlayed):
            self._history.refuse_before_joining(event)
        with self._write():
            recorded = self._history.record(event, key, origin)
            if recorded.new:
                self._bump()
        return recorded

    def import_history(
        self, lines: Iterable[str | bytes], replace_history: bool = False, now: datetime | None = None
    ) -> int:
        """Import a history file, all or nothing; returns the number of events.

        The file is read one line at a time into a scratch database beside the store,
        checked and replayed there (every error names its line) without the store's
        write lock, so phones keep recording meanwhile; copying the result in takes the
        lock for one short transaction. An event keeps its line number as its entry number.
        ``now``: the club's wall clock, which no rule change in the file may be dated after.
        """
        if now is None:
            now = datetime.now(self.config.zone).replace(tzinfo=None)
        if not replace_history and not self.is_empty():
            raise HistoryError("store-not-empty")
        History.remove_stale_imports(self.folder)
        # A name of its own: the owner's page and `semedori import` may import at once.
        handle, name = tempfile.mkstemp(prefix="semedori-import-", suffix=".sqlite3", dir=self.folder)
        os.close(handle)
        scratch = Path(name)
        try:
            staged = Store(self.folder, sqlite3.connect(scratch, isolation_level=None), self.file_config)
            try:
                # Scratch: nothing in it counts until it is copied into the store.
                staged.db.execute("PRAGMA journal_mode=OFF")
                staged.db.execute("PRAGMA synchronous=OFF")
                staged.checkpoint_every = self.checkpoint_every
                staged._migrate()
                with staged._write():
                    count = staged._history.insert_lines(lines, now)
                    staged._history.replay_all()
            finally:
                staged.close()
            self.db.execute("ATTACH DATABASE ? AS staged", (str(scratch),))
            try:
                with self._write():
                    if not replace_history and not self.is_empty():
                        raise HistoryError("store-not-empty")
                    self._history.take_staged()
                    self._bump()
            finally:
                self.db.execute("DETACH DATABASE staged")
        except sqlite3.OperationalError as error:
            raise StoreError(detail=str(error)) from None
        finally:
            remove_database(scratch)
        return count

    def magnets(self) -> tuple[Magnet, ...]:
        """Every magnet as it hangs now (retired ones too, flagged), in board order."""
        return self._history.magnets()

    def board(self, with_games: bool = False) -> Board:
        """The board now; with every game in replay order when asked."""
        return self._history.board(with_games)

    def recent_games(self, limit: int = 50, nick: str | None = None) -> list[GameResult]:
        """The latest games (by when they were played), newest first; one player's when named."""
        return self._history.recent_games(limit, nick)

    def games_page(
        self,
        limit: int = 50,
        before: int | None = None,
        nick: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[GameResult]:
        """A page of games, newest first: after game ``before`` in that order (a cursor that new
        games do not shift), one player's when named, played in [since, until) when given."""
        return self._history.games_page(limit, before, nick, since, until)

    def games_since(self, at: datetime) -> list[GameResult]:
        """The games played at or after ``at``, in replay order."""
        return self._history.games_since(at)

    def game(self, game_id: int) -> GameResult | None:
        """One game's result as replayed; None when there is none (or it was voided)."""
        return self._history.game(game_id)

    def game_entry(self, game_id: int) -> Entry | None:
        """Who entered a game and when (the undo button and the audit log need it)."""
        return self._history.game_entry(game_id)

    def changes_of(self, nick: str) -> list[Change]:
        """Joins, corrections and shifts of a player's magnets, in time order."""
        return self._history.changes_of(nick)

    def merges(self) -> list[tuple[str, str]]:
        """The merges in force, oldest first: (the duplicate's own nickname, the kept player's nickname now)."""
        return self._history.merges()

    def entries(self, limit: int = 100, types: Sequence[str] | None = None) -> list[Entry]:
        """The latest history entries, newest first (the owner's audit log)."""
        return self._history.entries(limit, types)

    def history_entries(self) -> list[tuple[int, Event]]:
        """The whole history in entry order, as (entry number, event)."""
        return self._history.history_entries()

    def export_lines(self) -> Iterator[str]:
        """The history file, one line per event, in entry order."""
        return self._history.export_lines()

    def is_empty(self) -> bool:
        """True when nothing was ever recorded."""
        return self._history.is_empty()

    def rule_changes(self) -> list[RuleChange]:
        """The history's rule changes, in entry order."""
        return self._history.rule_changes()

    def last_shift_or_rule_change(self) -> datetime | None:
        """When the latest shift or rule change happened (a new rule change may not be dated before it)."""
        return self._history.last_shift_or_rule_change()

    def board_at(self, day: date) -> tuple[tuple[Magnet, ...], Config]:
        """The magnets and the rules in force at the end of ``day`` (club time), written nowhere."""
        return self._history.board_at(day)

    def preview_rule_change(self, change: RuleChange) -> tuple[Magnet, ...]:
        """The magnets as they would hang now had ``change`` been recorded; nothing is written."""
        return self._history.preview_rule_change(change)

    def check(self) -> list[str]:
        """Problems found: integrity_check; the cached board, games, changes and checkpoints against a fresh replay."""
        return self._history.check(self.config)

    def rebuild(self) -> None:
        """Replay the whole history into the cache (after a change of rules in the configuration)."""
        with self._write():
            self._history.replay_all()
            self._bump()

    def backup(self, path: Path) -> None:
        """An online, consistent copy of the database, synced and written atomically (its folder made if missing).

        Never onto the live database or its -wal/-shm/-journal: replacing those under a running
        kiosk corrupts it.
        """
        if is_database_family(Path(path), self.folder / configuration.DATABASE_NAME):
            raise HistoryError("backup-is-live", path=str(path))
        write_copy(self.db, Path(path))

    # --- tonight: who is here, and the pairs they refused (kiosk.store_tonight) ----------

    def check_in(self, evening: date, nick: str, origin: str | None = None) -> bool:
        """Put a player (the board's spelling) on an evening's list; False when already there."""
        with self._write():
            added = self._tonight.check_in(evening, nick, origin)
            if added:
                self._bump()  # the wall's tonight page shows who is here
            return added

    def check_out(self, evening: date, nick: str) -> bool:
        """Take a player off an evening's list; False when not on it."""
        if not self._tonight.made():
            return False
        with self._write():
            left = self._tonight.check_out(evening, nick)
            if left:
                self._bump()
            return left

    def checked_in(self, evening: date) -> list[str]:
        """The players on an evening's list, in the order they came."""
        return self._tonight.checked_in(evening)

    def checked_in_from(self, evening: date) -> dict[str, str | None]:
        """Where each check-in of an evening came from (a phone's origin mark), by the player's nick key."""
        return self._tonight.origins(evening)

    def refuse(self, evening: date, a: str, b: str) -> None:
        """Remember that two players refused to play each other this evening."""
        with self._write():
            if self._tonight.refuse(evening, a, b):
                self._bump()

    def unrefuse(self, evening: date, a: str, b: str) -> bool:
        """Take a refusal back (a mistaken tap); False when there was none."""
        if not self._tonight.made():
            return False
        with self._write():
            taken = self._tonight.unrefuse(evening, a, b)
            if taken:
                self._bump()
            return taken

    def refusals(self, evening: date) -> set[frozenset[str]]:
        """The pairs (nick keys) refused this evening."""
        return self._tonight.refusals(evening)

    # --- children's privacy: labels, hidden players, minors (kiosk.store_privacy) ----------

    def privacy(self) -> Privacy:
        """The club's label setting and every player's, by the nickname's key now."""
        if not self._privacy.made():
            return Privacy()  # every label is the nickname itself: the order labels are given in does not matter
        engine = self._history.engine()
        display = engine.display if engine is not None else {}
        # Labels are given in the order players joined, so a newcomer never takes an older player's.
        return replace(self._privacy.read(display), joined=self._history.join_order(display))

    def privacy_changes(self, limit: int = 500) -> list[tuple[datetime, str, dict[str, object]]]:
        """The latest privacy changes, newest first: (when, UTC; the player's nickname now or '' for the club; what)."""
        engine = self._history.engine()
        display = engine.display if engine is not None else {}
        return [(at, display.get(who, who), what) for at, who, what in self._privacy.changes(limit)]

    def set_club_privacy(self, show: str) -> None:
        """How the wall and the public pages show players by default: nick, initials or short."""
        if show not in MODES:
            raise ValueError(show)
        with self._write():
            self._privacy.set_club(show)
            self._bump()  # the wall draws the labels again

    def set_player_privacy(self, nick: str, settings: PlayerPrivacy) -> None:
        """One player's label, short name, hidden and minor flags (the board's nickname)."""
        if settings.show is not None and settings.show not in MODES:
            raise ValueError(settings.show)
        identity = self._history.identity(nick)
        with self._write():
            self._privacy.set_player(identity, settings)
            self._bump()

    def set_minors_privacy(self, show: str) -> None:
        """How minors are shown when the owner chose nothing for them and no consent is noted (MINORS_MODES)."""
        from kiosk.privacy import MINORS_MODES

        if show not in MINORS_MODES:
            raise ValueError(show)
        with self._write():
            self._privacy.set_minors(show)
            self._bump()  # the wall draws the labels again

    # --- matches with other clubs (kiosk.store_matches) ---------------------------

    def club_id(self) -> str:
        """This club's id in match files, made on first use (random: it names no one)."""
        found = self._matches.club_id()
        if found is not None:
            return found
        with self._write():
            return self._matches.make_club_id()

    def match_imported_at(self, checksum: str) -> str | None:
        """When a match file with this checksum was kept (UTC), None when never."""
        return self._matches.imported_at(checksum)

    def keep_match(self, checksum: str, club_id: str, club_name: str, ours_home: bool, text: str) -> None:
        """Keep a checked match file beside the history (it changes nothing of the history)."""
        with self._write():
            self._matches.keep(checksum, club_id, club_name, ours_home, text)

    def kept_matches(self) -> list[tuple[str, bool]]:
        """Every match file kept, oldest first, with whether this club wrote it."""
        return self._matches.kept()

    # --- the evenings' events (kiosk.store_tournaments; kiosk.tournament_store folds them) -------------

    def tournament_starts(self, evening: date | None = None) -> list[tuple[int, Event]]:
        """Every event's start line (of ``evening`` only, when given), in entry order."""
        return self._tournaments.starts(evening)

    def tournament_entries(self, tournament: int) -> list[tuple[int, Event]]:
        """What one event folds from (``kiosk.tournament.fold``), in entry order."""
        return self._tournaments.entries(tournament)

    def history_mark(self) -> tuple[int, int]:
        """The change counter and the last entry number: while both are the same, so is the history."""
        return self._tournaments.mark()

    def highest_tournament(self) -> int:
        """The highest event number in the history (0 before the first event)."""
        return self._tournaments.highest()

    def record_decided(
        self, decide: Callable[[], tuple[T, Sequence[tuple[Event, str | None]]]], origin: str | None = None
    ) -> tuple[T, list[Recorded]]:
        """Decide under the write lock, then append what was decided: all in one transaction.

        ``decide`` reads the store (it sees every write before this one: of two phones tapping one board at
        once, the second finds it decided) and answers (its answer, the events to append with their keys). A
        ``HistoryError`` raised by it, or by the replay of what it decided, writes nothing. The evenings'
        events' own lines move no magnet: they are appended without touching the replayed board.
        """
        with self._write():
            answer, events = decide()
            recorded = []
            for event, key in events:
                if isinstance(event, TOURNAMENT_EVENTS) and key is None:
                    recorded.append(Recorded(self._tournaments.append(event, None, origin), None))
                    continue
                if isinstance(event, GamePlayed):
                    self._history.refuse_before_joining(event)
                recorded.append(self._history.record(event, key, origin))
            if any(r.new for r in recorded):
                self._bump()
        return answer, recorded

    def _tournament_history(self) -> None:
        """On opening: an older kiosk's event tables become history lines, once, and go."""
        if not self._tournaments.has_legacy_tables():
            return
        from kiosk.tournament_legacy import history_of_tables  # only an older kiosk's database needs it

        with self._write():
            if not self._tournaments.has_legacy_tables():
                return  # the web and the wall open together: the other one converted them
            lines = history_of_tables(self._tournaments, self.file_config)
            for event in lines:
                self._tournaments.append(event, None, "converted")
            self._tournaments.drop_legacy_tables()
            self._bump()
        log.info("an older kiosk's events are %d history lines now", len(lines))

    # --- one game, one record ------------------------------------------------

    def record_unless(
        self, event: Event, refuse: Callable[[], T | None], key: str | None = None, origin: str | None = None
    ) -> Recorded | T:
        """``record``, unless ``refuse`` answers something: then nothing is written and that is the answer.

        ``refuse`` runs under the same write lock as the write, so two phones sending the same
        game at the same moment cannot both find nothing and both write (the check and the write
        are one transaction). A key already recorded answers its first result before any check:
        a double tap of a form that was saved gets its game back, not a question.
        """
        if isinstance(event, GamePlayed):
            self._history.refuse_before_joining(event)
        with self._write():
            first = self._history.recorded_with(key)
            if first is not None:
                return first
            found = refuse()
            if found is not None:
                return found
            recorded = self._history.record(event, key, origin)
            if recorded.new:
                self._bump()
            return recorded

    def games_of_pair(self, size: int, a: str, b: str, since: datetime) -> list[tuple[GameResult, Entry]]:
        """The standing games of two players on a size entered at or after ``since`` (UTC), newest entry first."""
        return self._history.games_of_pair(size, a, b, since)

    def confirmed(self, games: Sequence[GameResult]) -> set[int]:
        """Which of these games a second phone confirmed ("yes, same game") with no edit entered since."""
        return self._history.confirmed(games)


def _store_error(error: sqlite3.OperationalError) -> StoreError:
    """A write that failed: "busy, try again" when another writer held the lock too long, else full or read-only."""
    if getattr(error, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(error):
        log.warning("a write waited too long for the write lock and gave up (nothing saved): %s", error)
        return StoreError("store-busy", detail=str(error))
    return StoreError(detail=str(error))


def _use_wal(db: sqlite3.Connection) -> None:
    """Put the file in WAL mode (it stays so), waiting while another process holds the lock."""
    for _ in range(200):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            # The web and the wall start together: on a new file both switch it to WAL at
            # once, and SQLite answers "locked" at once instead of waiting for the other.
            if error.sqlite_errorname != "SQLITE_BUSY":
                raise
            time.sleep(0.05)
    db.execute("PRAGMA journal_mode=WAL")
