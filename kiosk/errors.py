"""The errors a user can cause, each with a clear message in English and Polish.

Like gpiozero's exception module, every class also inherits the matching builtin, so
callers may catch ``ValueError`` without knowing this module.
"""

from __future__ import annotations

from typing import Any

# One message per code; ``{name}`` fields come from the error's params.
MESSAGES: dict[str, dict[str, str]] = {
    "bad-json": {"en": "not valid JSON: {detail}", "pl": "to nie jest poprawny JSON: {detail}"},
    "bad-encoding": {"en": "not valid UTF-8 text", "pl": "to nie jest poprawny tekst UTF-8"},
    "not-object": {"en": "each line must be one JSON object", "pl": "każdy wiersz musi być jednym obiektem JSON"},
    "unknown-type": {"en": "unknown type {type!r}", "pl": "nieznany typ {type!r}"},
    "unknown-field": {"en": "unknown field {field!r}", "pl": "nieznane pole {field!r}"},
    "missing-field": {"en": "missing field {field!r}", "pl": "brak pola {field!r}"},
    "bad-field": {"en": "field {field!r}: {detail}", "pl": "pole {field!r}: {detail}"},
    "bad-at": {
        "en": "{value!r} is not a date and time like 2026-11-03T19:10",
        "pl": "{value!r} to nie data i godzina w postaci 2026-11-03T19:10",
    },
    "future-at": {
        "en": "the date {value} is in the future: the kiosk's clock says {now}. "
        "If the kiosk's clock is wrong, tell the club owner",
        "pl": "data {value} jest w przyszłości: zegar kiosku wskazuje {now}. "
        "Jeśli zegar kiosku jest zły, powiedz właścicielowi klubu",
    },
    "backup-is-live": {
        "en": "a backup cannot be written to {path}: that is the kiosk's live database (or its -wal/-shm file); "
        "pick a file elsewhere, e.g. on a USB stick",
        "pl": "nie można zapisać kopii do {path}: to żywa baza kiosku (lub jej plik -wal/-shm); "
        "wybierz plik gdzie indziej, np. na pendrivie",
    },
    "too-old": {
        "en": "the date {value} is more than {days} days back; only the club owner can enter older games",
        "pl": "data {value} jest sprzed ponad {days} dni; starsze gry może wpisać tylko właściciel klubu",
    },
    "bad-size": {
        "en": "the board size must be 9, 13 or 19, not {value!r}",
        "pl": "rozmiar planszy to 9, 13 albo 19, nie {value!r}",
    },
    "bad-nick": {"en": "a nickname must be 1 to {limit} characters", "pl": "nick musi mieć od 1 do {limit} znaków"},
    "invisible-nick": {
        "en": "a nickname may not contain invisible or control characters",
        "pl": "nick nie może zawierać niewidocznych ani sterujących znaków",
    },
    "bad-strength": {"en": "{value} is not a field of the scale", "pl": "{value} to nie jest pole na skali"},
    "bad-status": {
        "en": "status must be 'guest' or 'member', not {value!r}",
        "pl": "status to 'guest' albo 'member', nie {value!r}",
    },
    "bad-grade": {
        "en": "a grade is 1 to 50 kyu or 1 to 9 dan, not {value!r}",
        "pl": "stopień to od 1 do 50 kyu albo od 1 do 9 dan, nie {value!r}",
    },
    "strength-or-grade": {
        "en": "a player starts from a strength or from kyu/dan, not both",
        "pl": "gracz zaczyna od siły albo od kyu/dan, nie od obu",
    },
    "member-grade": {
        "en": "only a guest starts from a kyu/dan grade",
        "pl": "od stopnia kyu/dan zaczyna tylko gość",
    },
    "unknown-player": {"en": "unknown player {nick!r}", "pl": "nieznany gracz {nick!r}"},
    "not-on-board-yet": {
        "en": "{nick!r} was not on the board yet at the game's time",
        "pl": "{nick!r} nie było jeszcze na tablicy w czasie tej partii",
    },
    "same-player": {"en": "{nick} cannot play against herself", "pl": "{nick} nie może grać sam ze sobą"},
    "named-twice": {"en": "{nick} is named twice", "pl": "{nick} jest podany dwa razy"},
    "strengths-or-nicks": {
        "en": "give two strengths or two nicknames",
        "pl": "podaj dwie siły albo dwa nicki",
    },
    "bad-players": {"en": "a game needs exactly two players", "pl": "gra potrzebuje dokładnie dwóch graczy"},
    "bad-winner": {"en": "the winner {nick!r} did not play this game", "pl": "zwycięzca {nick!r} nie grał w tej grze"},
    "draw-even": {
        "en": "a draw is impossible in an even game (komi 6.5)",
        "pl": "w równej grze remis jest niemożliwy (komi 6,5)",
    },
    "bad-margin": {
        "en": "the margin must be resignation, or points from 0.5 to {limit} in halves, not {value!r}",
        "pl": "przewaga to poddanie albo punkty od 0,5 do {limit} co pół punktu, nie {value!r}",
    },
    "bad-kind": {
        # The words of the history file (kiosk.events.GAME_KINDS), the same in both languages.
        "en": "a game's kind is rated, teaching, simultaneous, rengo or event, not {value!r}",
        "pl": "rodzaj gry to rated, teaching, simultaneous, rengo albo event, nie {value!r}",
    },
    "draw-margin": {"en": "a draw has no margin", "pl": "remis nie ma przewagi"},
    "even-margin": {
        "en": "an even game has komi 6.5, so its margin ends in a half point, not {value}",
        "pl": "równa gra ma komi 6,5, więc przewaga kończy się na pół punktu, nie {value}",
    },
    "bad-amount": {
        "en": "a shift is a non-zero number of quarters, not {value!r}",
        "pl": "przesunięcie to niezerowa liczba ćwiartek, nie {value!r}",
    },
    "correction-empty": {
        "en": "a quick correction sets a strength, a status or both",
        "pl": "szybka korekta ustawia siłę, status albo oba",
    },
    "no-magnet": {"en": "{nick} has no magnet on {size}x{size}", "pl": "{nick} nie ma magnesu na {size}x{size}"},
    "unknown-game": {"en": "there is no game {game}", "pl": "nie ma gry {game}"},
    "game-voided": {"en": "game {game} is already voided", "pl": "gra {game} jest już unieważniona"},
    "duplicate-id": {"en": "game id {game} is used twice", "pl": "identyfikator gry {game} powtarza się"},
    "nick-taken": {"en": "the nickname {nick!r} is taken", "pl": "nick {nick!r} jest już zajęty"},
    "nick-renamed": {
        "en": "the nickname {nick!r} belonged to a player who was renamed; pick another",
        "pl": "nick {nick!r} należał do gracza, który zmienił nick; wybierz inny",
    },
    "merge-self": {"en": "a player cannot be merged into herself", "pl": "nie można scalić gracza z nim samym"},
    "merge-played": {
        "en": "{a} and {b} played each other, so they are not one person",
        "pl": "{a} i {b} grali ze sobą, więc to nie ta sama osoba",
    },
    "not-merged": {"en": "{a} is not merged into {b}", "pl": "{a} nie jest scalony z {b}"},
    "event-too-small": {
        "en": "an event needs at least {limit} players; {value} are here",
        "pl": "turniej potrzebuje co najmniej {limit} graczy; jest {value}",
    },
    "event-open": {
        "en": "tonight's event is still open; close it before starting another",
        "pl": "dzisiejszy turniej jest wciąż otwarty; zamknij go, zanim zaczniesz następny",
    },
    "event-no-pairing": {
        "en": "round {value} cannot be paired without a rematch",
        "pl": "rundy {value} nie da się rozlosować bez powtórki pary",
    },
    "rules-empty": {
        "en": "a rule change names at least one rule: a size's handicap parameters, the guest losses or the top",
        "pl": "zmiana zasad podaje co najmniej jedną zasadę: parametry handicapu, przegrane gościa albo szczyt",
    },
    "rules-top-below": {
        "en": "the top cannot be {value} from {now}: {nick} hangs higher then ({detail}) on {size}x{size}",
        "pl": "szczyt nie może wynosić {value} od {now}: {nick} wisi wtedy wyżej ({detail}) na {size}x{size}",
    },
    "rules-date": {
        "en": "a rule change can be dated from {detail} (the last shift or rule change) to now, not {value}",
        "pl": "zmianę zasad można datować od {detail} (ostatnie przesunięcie lub zmiana zasad) do teraz, nie {value}",
    },
    "rules-same": {
        "en": "these are the rules in force already: nothing to change",
        "pl": "te zasady już obowiązują: nie ma czego zmieniać",
    },
    "bad-date": {
        "en": "{value!r} is not a date like 2026-06-01",
        "pl": "{value!r} to nie data w postaci 2026-06-01",
    },
    "future-date": {
        "en": "{value} is in the future: the board is known up to today ({now})",
        "pl": "{value} jest w przyszłości: tablica jest znana do dziś ({now})",
    },
    "store-readonly": {
        "en": "the kiosk cannot save right now (its storage is full or read-only); nothing was recorded",
        "pl": "kiosk nie może teraz zapisać (pamięć pełna lub tylko do odczytu); nic nie zapisano",
    },
    "store-damaged": {
        "en": "the kiosk's database is damaged; nothing was recorded. The club owner should restore a backup",
        "pl": "baza kiosku jest uszkodzona; nic nie zapisano. Właściciel klubu powinien przywrócić kopię",
    },
    "check-damaged": {
        "en": "the database is damaged ({detail}); restore a backup: semedori restore {backup}",
        "pl": "baza danych jest uszkodzona ({detail}); przywróć kopię zapasową: semedori restore {backup}",
    },
    "check-damaged-no-backup": {
        "en": "the database is damaged ({detail}); no good backup was found in DATA/backups",
        "pl": "baza danych jest uszkodzona ({detail}); w DATA/backups nie ma dobrej kopii zapasowej",
    },
    "store-busy": {
        "en": "the kiosk is busy; nothing was recorded yet. Please try again in a few seconds",
        "pl": "kiosk jest zajęty; nic jeszcze nie zapisano. Spróbuj ponownie za kilka sekund",
    },
    "store-newer": {
        "en": "the history was saved by a newer version of the kiosk; update the kiosk to open it",
        "pl": "historię zapisała nowsza wersja kiosku; zaktualizuj kiosk, aby ją otworzyć",
    },
    "store-not-empty": {
        "en": "the history is not empty; import replaces it only with --replace",
        "pl": "historia nie jest pusta; import zastąpi ją tylko z --replace",
    },
}


EXCERPT = 40  # characters of a typed value an error message repeats


def excerpt(value: Any) -> Any:
    """A long value cut to a short excerpt for a message: an error never echoes a whole 30 MB field."""
    if isinstance(value, str):
        return value if len(value) <= EXCERPT + 10 else f"{value[:EXCERPT]}…"
    if isinstance(value, int | float | bool) or value is None:
        return value
    text = repr(value)
    return value if len(text) <= EXCERPT + 10 else f"{text[:EXCERPT]}…"


class SemedoriError(Exception):
    """Base of every error a user of the kiosk can cause."""


class HistoryError(SemedoriError, ValueError):
    """An event that cannot be part of the history; names the line when it has one."""

    def __init__(self, code: str, line: int | None = None, **params: Any) -> None:
        self.code = code
        self.line = line
        self.params = {name: excerpt(value) for name, value in params.items()}
        super().__init__(self.message("en"))

    def at_line(self, line: int) -> HistoryError:
        """The same error, naming the history file's line."""
        return HistoryError(self.code, line, **self.params)

    def message(self, language: str = "en") -> str:
        """The message in ``language`` ('en' or 'pl'), with the line number when known."""
        templates = MESSAGES.get(self.code, {"en": self.code})
        text = templates.get(language, templates["en"]).format(**self.params)
        if self.line is None:
            return text
        prefix = "wiersz" if language == "pl" else "line"
        return f"{prefix} {self.line}: {text}"


class StoreError(SemedoriError, OSError):
    """The data folder cannot take a write (read-only, full); nothing was recorded."""

    def __init__(self, code: str = "store-readonly", detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        """The message in ``language``."""
        templates = MESSAGES[self.code]
        return templates.get(language, templates["en"])


class ConfigError(SemedoriError, ValueError):
    """A setting in semedori.toml that cannot be used."""

    def __init__(self, setting: str, reason: str) -> None:
        self.setting = setting
        super().__init__(f"configuration {setting}: {reason}")
