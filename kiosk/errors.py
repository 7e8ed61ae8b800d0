"""The errors a user can cause, each with a clear message in English and Polish.

Like gpiozero's exception module, every class also inherits the matching builtin, so
callers may catch ``ValueError`` without knowing this module.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kiosk.catalogue import N_, translate
from kiosk.handicap import komi
from kiosk.scale import decimal_mark, format_strength, is_field, typed_number

# One message per code, in English, which is its id in the catalogue (kiosk/catalogue.py);
# ``{name}`` fields come from the error's params.
MESSAGES: dict[str, str] = {
    "bad-json": N_("not valid JSON: {detail}"),
    "bad-encoding": N_("not valid UTF-8 text"),
    "too-deep": N_("nested too deeply to be a history line"),
    "nick-is-label": N_(
        "the nickname {nick!r} is how the wall and the public pages show {other}; choose another, or give {other} "
        "another label first"
    ),
    "nick-unavailable": N_("the nickname {nick!r} cannot be used; choose another (the club owner can help)"),
    "nick-looks-like": N_(
        "the nickname {nick!r} looks just like {other}, who is already on the board; choose a nickname that looks "
        "different"
    ),
    "bad-game-id": N_("field {field!r}: a game id is a whole number from 1 to {limit}"),
    "out-is-live": N_(
        "nothing was written to {path}: that is the kiosk's live database (or its -wal/-shm file); pick another file"
    ),
    "not-object": N_("each line must be one JSON object"),
    "unknown-type": N_("unknown type {type!r}"),
    "unknown-field": N_("unknown field {field!r}"),
    "missing-field": N_("missing field {field!r}"),
    "bad-field": N_("field {field!r}: {detail}"),
    "bad-at": N_("{value!r} is not a date and time like 2026-11-03T19:10"),
    "future-at": N_(
        "the date {value} is in the future: the kiosk's clock says {now}. If the kiosk's clock is wrong, tell the "
        "club owner"
    ),
    "backup-is-live": N_(
        "a backup cannot be written to {path}: that is the kiosk's live database (or its -wal/-shm file); pick a "
        "file elsewhere, e.g. on a USB stick"
    ),
    "too-old": N_("the date {value} is more than {days} days back; only the club owner can enter older games"),
    "bad-size": N_("the board size must be 9, 13 or 19, not {value!r}"),
    "bad-nick": N_("a nickname must be 1 to {limit} characters"),
    "invisible-nick": N_("a nickname may not contain invisible or control characters"),
    "bad-strength": N_("{value} is not a field of the scale"),
    "bad-status": N_("status must be 'guest' or 'member', not {value!r}"),
    "bad-grade": N_("a grade is 1 to 50 kyu or 1 to 9 dan, not {value!r}"),
    "strength-or-grade": N_("a player starts from a strength or from kyu/dan, not both"),
    "member-grade": N_("only a guest starts from a kyu/dan grade"),
    "unknown-player": N_("unknown player {nick!r}"),
    "not-on-board-yet": N_("{nick!r} was not on the board yet at the game's time"),
    "same-player": N_("{nick} cannot play against herself"),
    "named-twice": N_("{nick} is named twice"),
    "strengths-or-nicks": N_("give two strengths or two nicknames"),
    "bad-players": N_("a game needs exactly two players"),
    "bad-winner": N_("the winner {nick!r} did not play this game"),
    "draw-even": N_("a draw is impossible in an even game (komi {komi})"),
    "bad-margin": N_("the margin must be resignation, or points from 0.5 to {limit} in halves, not {value!r}"),
    "bad-kind": N_("a game's kind is rated, teaching, simultaneous, rengo or event, not {value!r}"),
    "draw-margin": N_("a draw has no margin"),
    "even-margin": N_("an even game has komi {komi}, so its margin ends in a half point, not {value}"),
    "bad-amount": N_("a shift is a non-zero number of quarters, not {value!r}"),
    "correction-empty": N_("a quick correction sets a strength, a status or both"),
    "no-magnet": N_("{nick} has no magnet on {size}x{size}"),
    "unknown-game": N_("there is no game {game}"),
    "game-voided": N_("game {game} is already voided"),
    "confirm-own": N_("game {game} was recorded on this phone: the other player's phone confirms it"),
    "undo-refused": N_("only the phone that recorded a game can undo it, and only for {minutes} minutes"),
    "duplicate-id": N_("game id {game} is used twice"),
    "nick-taken": N_("the nickname {nick!r} is taken"),
    "nick-renamed": N_("the nickname {nick!r} belonged to a player who was renamed; pick another"),
    "merge-self": N_("a player cannot be merged into herself"),
    "merge-played": N_("{a} and {b} played each other, so they are not one person"),
    "not-merged": N_("{a} is not merged into {b}"),
    "event-too-small": N_("an event needs at least {limit} players; {value} are here"),
    "event-open": N_("tonight's event is still open; close it before starting another"),
    "event-no-pairing": N_("round {value} cannot be paired without a rematch"),
    # tiebreak: the owner's choices for an event
    "bad-tiebreaks": N_("the tie-breaks are chosen from the list, each at most once ({value})"),
    "bad-first-round": N_("round 1 is paired 'adjacent' or 'fold', not {value!r}"),
    "bad-handicap-policy": N_(
        "the handicap can be capped at 1 to {limit} starting moves, made 1 to {limit} moves less, and the top "
        "group play even from 2 players up"
    ),
    "bad-classes": N_("class prizes need fields in rising order, each once, for at most {limit} classes"),
    "bad-avoid": N_("{nick} cannot be in a pair that should not meet early: two different players of the event, once"),
    # accel: an accelerated event whose first round cannot keep every game within the club's handicap cap
    "accelerated-too-far": N_(
        "{nick} cannot play anyone of this event within the handicap cap of {value} starting moves: leave them out"
    ),
    "rules-empty": N_(
        "a rule change names at least one rule: a size's handicap parameters, the guest losses or the top"
    ),
    "rules-top-below": N_("the top cannot be {value} from {now}: {nick} hangs higher then ({detail}) on {size}x{size}"),
    "rules-date": N_("a rule change can be dated from {detail} (the last shift or rule change) to now, not {value}"),
    "rules-same": N_("these are the rules in force already: nothing to change"),
    "bad-date": N_("{value!r} is not a date like 2026-06-01"),
    "future-date": N_("{value} is in the future: the board is known up to today ({now})"),
    "store-readonly": N_("the kiosk cannot save right now (its storage is full or read-only); nothing was recorded"),
    "store-damaged": N_(
        "the kiosk's database is damaged; nothing was recorded. The club owner should restore a backup"
    ),
    "check-damaged": N_("the database is damaged ({detail}); restore a backup: semedori restore {backup}"),
    "check-damaged-no-backup": N_("the database is damaged ({detail}); no good backup was found in DATA/backups"),
    "store-busy": N_("the kiosk is busy; nothing was recorded yet. Please try again in a few seconds"),
    "store-newer": N_("the history was saved by a newer version of the kiosk; update the kiosk to open it"),
    "store-not-empty": N_("the history is not empty; import replaces it only with --replace"),
    # league: a roster's list of players (kiosk/roster.py)
    "roster-columns": N_("a line needs a nickname, a board size and a strength or grade, separated by commas"),
    "roster-size": N_("{value!r} is not a board size: 9, 13 or 19"),
    "roster-other-size": N_("this list is for {size}x{size}, not {value}x{value}"),
    "roster-grade": N_("{value!r} is neither a strength of the board (like 12 or 30.5) nor a grade (like 10k or 2d)"),
    "roster-rank": N_("{nick}: {value!r} is not a grade like 10k or 2d"),
    "roster-empty": N_("the list has no players"),
    "roster-too-long": N_("a list has at most {limit} players"),
    "roster-not-csv": N_("this is not a list of players (a CSV file: nickname, size, strength or grade)"),
    "roster-not-opengotha": N_("this is not an OpenGotha tournament file"),
}


# "bad-strength" when the fields either side of the typed value are known (fields_around): what would do.
BAD_STRENGTH_NEAR = N_("{value} is not a field of the scale; the nearest fields are {lower} and {upper}")

EXCERPT = 40  # characters of a typed value an error message repeats


def excerpt(value: Any) -> Any:
    """A long value cut to a short excerpt for a message: an error never echoes a whole 30 MB field."""
    if isinstance(value, str):
        return value if len(value) <= EXCERPT + 10 else f"{value[:EXCERPT]}…"
    if isinstance(value, int | float | bool) or value is None:
        return value
    text = repr(value)
    return value if len(text) <= EXCERPT + 10 else f"{text[:EXCERPT]}…"


def fields_around(value: Any) -> dict[str, str]:
    """The fields of the scale either side of a typed strength that is none ("22.5": 22 and 23); empty otherwise.

    Empty too for a value that is a field of the endless scale (70, above a club's top: the error does not
    know the top) and for anything that is no plain number: the message then says only what was typed.
    """
    number = typed_number(str(value)) if isinstance(value, str | int | float) and not isinstance(value, bool) else None
    if number is None:
        return {}
    q = Fraction(str(number)) * 4
    below = int(q)
    if below == q and is_field(below, top=10**9):
        return {}
    while not is_field(below, top=10**9):
        below -= 1
    above = below + 1
    while not is_field(above, top=10**9):
        above += 1
    return {"lower": format_strength(below), "upper": format_strength(above)}


class SemedoriError(Exception):
    """Base of every error a user of the kiosk can cause."""


class HistoryError(SemedoriError, ValueError):
    """An event that cannot be part of the history; names the line when it has one."""

    def __init__(self, code: str, line: int | None = None, **params: Any) -> None:
        self.code = code
        self.line = line
        self.params = {name: excerpt(value) for name, value in params.items()}
        if code == "bad-strength" and "upper" not in self.params:
            self.params |= fields_around(self.params.get("value"))  # say which fields would do
        super().__init__(self.message("en"))

    def at_line(self, line: int) -> HistoryError:
        """The same error, naming the history file's line."""
        return HistoryError(self.code, line, **self.params)

    def message(self, language: str = "en") -> str:
        """The message in ``language`` ('en' or 'pl'), with the line number when known."""
        message = MESSAGES.get(self.code, self.code)
        params = self.params
        if self.code == "bad-strength" and "upper" in self.params:
            message = BAD_STRENGTH_NEAR  # the numbers as the language writes them: "22,5" in Polish
            params = {**params, **{k: decimal_mark(str(params[k]), language) for k in ("value", "lower", "upper")}}
        extra = {"komi": komi(language)} if "{komi}" in message else {}  # the rules' KOMI, as the club writes it
        text = translate(language, message, **extra, **params)
        if self.line is None:
            return text
        return translate(language, "line {line}: {text}", line=self.line, text=text)


class StoreError(SemedoriError, OSError):
    """The data folder cannot take a write (read-only, full); nothing was recorded."""

    def __init__(self, code: str = "store-readonly", detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        """The message in ``language``."""
        return translate(language, MESSAGES[self.code])


# Why a setting cannot be used, one message per code, as MESSAGES; ``{name}`` fields come from the error's params.
# The setting itself is named as semedori.toml spells it (``guest_losses``), so the owner finds the line.
CONFIG_MESSAGES: dict[str, str] = {
    "bad-club-name": N_("must be 1 to 80 characters"),
    "unknown-zone": N_("unknown time zone {value!r}; use a name like Europe/Warsaw"),
    "bad-time-of-day": N_('must be a time of day in club time, such as "17:00"'),
    "bad-language": N_("must be 'en' or 'pl'"),
    "bad-days-back": N_("must be a whole number of days from 0 to 3660"),
    "bad-sleeper-weeks": N_("must be a whole number of weeks from 0 (off) to 520"),
    "bad-same-game-minutes": N_("must be a whole number of minutes from 0 (off) to 1440"),
    "bad-guest-losses": N_("must be 2 or 3"),
    "bad-top": N_("must be a field of the scale, 40 or more"),
    "not-a-field": N_("must be a field of the scale"),
    "bad-handicap": N_("points, clear margin and training moves must be positive"),
    "bad-handicap-size": N_("sizes are 9, 13 and 19"),
    "not-toml": N_("is not valid TOML: {detail}"),
    "not-a-number": N_("must be a number"),
    "not-whole": N_("must be a whole number"),
    "not-a-table": N_("must be a table: [{section}] on a line of its own"),
    "history-refuses": N_("the history cannot be replayed with it: {detail}"),
    "rules-dated": N_("the history holds dated rule changes: record a rule change instead"),
    "bad-quiet-time": N_("must be a time like 22:30, or empty"),
    "not-true-false": N_("must be true or false"),
    "bad-seconds": N_("must be a number of seconds, at least {lowest}"),
    "bad-page-advance": N_("must be 0 (off) or at least 60 seconds"),
    "unknown-display-setting": N_("is not a display setting ({known})"),
    "bad-panel": N_("must be auto or one of {known}"),
    "bad-orientation": N_("must be landscape or portrait"),
    "bad-pins": N_("must be a table like { A = 5, B = 6, C = 16, D = 24 }"),
    "bad-pin": N_("buttons are A, B, C, D on GPIO pins 0 to 27"),
}


class ConfigError(SemedoriError, ValueError):
    """A setting in semedori.toml that cannot be used: the setting's name, a code of CONFIG_MESSAGES, its params.

    A param that is itself a core error (why the history refuses the settings) is said in the same language.
    """

    def __init__(self, setting: str, code: str, **params: Any) -> None:
        self.setting = setting
        self.code = code
        # Only what was typed (``value``) is cut short; the lists of what is allowed are said whole.
        self.params = {name: excerpt(value) if name == "value" else value for name, value in params.items()}
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        """The message in ``language`` ('en' or 'pl'), naming the setting."""
        params = {
            name: value.message(language) if isinstance(value, HistoryError) else value
            for name, value in self.params.items()
        }
        reason = translate(language, CONFIG_MESSAGES.get(self.code, self.code), **params)
        return translate(language, "configuration {setting}: {reason}", setting=self.setting, reason=reason)
