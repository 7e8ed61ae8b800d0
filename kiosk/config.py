"""The club's configuration: one TOML file in the data folder, defaults in code."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from datetime import time
from fractions import Fraction
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tomli_w

from kiosk.errors import ConfigError
from kiosk.files import write_atomically
from kiosk.handicap import DEFAULT_SIZE_RULES, SIZES, SizeRules
from kiosk.scale import DEFAULT_TOP, Quarters, as_number, is_field, quarters

CONFIG_NAME = "semedori.toml"
DATABASE_NAME = "semedori.sqlite3"
LANGUAGES = ("en", "pl")


@dataclass(frozen=True)
class Config:
    """Everything a club may change; every default is the club's own rule."""

    club_name: str = "Semedori Go Club"
    timezone: str = "Europe/Warsaw"
    language: str = "en"
    guest_losses: int = 2
    top: Quarters = DEFAULT_TOP
    form_url: str = "http://semedori.local"
    # The club's evening in club time (kiosk.evening): tonight's check-in list is empty again after it.
    evening_starts: time = time(17, 0)
    evening_ends: time = time(3, 0)
    size_rules: dict[int, SizeRules] = field(default_factory=lambda: dict(DEFAULT_SIZE_RULES))
    owner_pin_hash: str = ""
    # A phone or API client may date a game at most this many days back; older needs the
    # owner (backdated fake games would change the board where nobody looks).
    days_back: int = 7
    # A magnet unplayed for this many weeks rests off the wall and the public board until its
    # next game (kiosk/sleepers.py); 0 keeps every magnet up. Twelve weeks outlast a summer break.
    sleeper_weeks: int = 12
    # A game whose pair, size and result match one another phone recorded this many minutes
    # before is asked about first ("Is this the same game?"); 0 asks nothing. It moves no magnet,
    # so it is not in the rules' fingerprint.
    same_game_minutes: int = 30
    # Sections owned by the other processes (display, web) are kept as read, untouched.
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def zone(self) -> ZoneInfo:
        """The club's time zone."""
        return ZoneInfo(self.timezone)

    def with_changes(self, **changes: Any) -> Config:
        """A copy with some settings changed, validated."""
        return validate(replace(self, **changes))


def validate(config: Config) -> Config:
    """Raise ``ConfigError`` naming the first setting that cannot be used."""
    if not config.club_name.strip() or len(config.club_name) > 80:
        raise ConfigError("club_name", "bad-club-name")
    try:
        ZoneInfo(config.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError("timezone", "unknown-zone", value=config.timezone) from None
    for name in ("evening_starts", "evening_ends"):
        if not isinstance(getattr(config, name), time) or getattr(config, name).tzinfo is not None:
            raise ConfigError(name, "bad-time-of-day")
    if config.language not in LANGUAGES:
        raise ConfigError("language", "bad-language")
    if not 0 <= config.days_back <= 3660:
        raise ConfigError("days_back", "bad-days-back")
    if not 0 <= config.sleeper_weeks <= 520:
        raise ConfigError("sleeper_weeks", "bad-sleeper-weeks")
    if not 0 <= config.same_game_minutes <= 1440:
        raise ConfigError("same_game_minutes", "bad-same-game-minutes")
    if config.guest_losses not in (2, 3):
        raise ConfigError("guest_losses", "bad-guest-losses")
    if not is_field(config.top) or config.top < 40 * 4:
        raise ConfigError("top", "bad-top")
    for size, rules in config.size_rules.items():
        if rules.points_per_strength <= 0 or rules.clear_margin <= 0 or rules.training_moves < 2:
            raise ConfigError(f"handicap.{size}", "bad-handicap")
    return config


def data_folder() -> Path:
    """The data folder: ``$SEMEDORI_HOME``, else the platform's user data folder."""
    home = os.environ.get("SEMEDORI_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_data_dir("semedori", appauthor=False))


def load(folder: Path) -> Config:
    """Read ``semedori.toml`` from the data folder; a missing file means all defaults."""
    path = folder / CONFIG_NAME
    if not path.exists():
        return Config()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(str(path), "not-toml", detail=str(error)) from None
    return validate(_from_toml(raw))


def save(folder: Path, config: Config) -> None:
    """Write the configuration atomically (a half-written file would stop the kiosk)."""
    folder.mkdir(parents=True, exist_ok=True)
    # On the card before the rename: a power cut must leave the old file or the new one.
    write_atomically(folder / CONFIG_NAME, tomli_w.dumps(_to_toml(config)))


def _number(value: Any, name: str) -> Fraction:
    if isinstance(value, Fraction):  # a default from the code
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(name, "not-a-number")
    return Fraction(value)


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(name, "not-whole")
    return value


def _time_of_day(value: Any, name: str) -> time:
    """A time of day: "17:00" as an organiser types it, or a TOML local time (17:00:00)."""
    if isinstance(value, time):
        return value.replace(second=0, microsecond=0)
    hours, _, minutes = str(value).strip().partition(":")
    digits = isinstance(value, str) and hours.isdecimal() and len(minutes) == 2 and minutes.isdecimal()
    if digits and int(hours) < 24 and int(minutes) < 60:
        return time(int(hours), int(minutes))
    raise ConfigError(name, "bad-time-of-day")


def _from_toml(raw: dict[str, Any]) -> Config:
    for section in ("club", "handicap", "owner"):
        if not isinstance(raw.get(section, {}), dict):
            raise ConfigError(section, "not-a-table", section=section)
    club = raw.get("club", {})
    defaults = Config()
    size_rules = dict(DEFAULT_SIZE_RULES)
    for key, table in raw.get("handicap", {}).items():
        size = int(key) if str(key).isdecimal() else 0
        if size not in SIZES or not isinstance(table, dict):
            raise ConfigError(f"handicap.{key}", "bad-handicap-size")
        base = size_rules[size]
        size_rules[size] = SizeRules(
            size,
            _number(table.get("points_per_strength", base.points_per_strength), f"handicap.{size}.points_per_strength"),
            _number(table.get("clear_margin", base.clear_margin), f"handicap.{size}.clear_margin"),
            _whole(table.get("training_moves", base.training_moves), f"handicap.{size}.training_moves"),
        )
    try:
        top = quarters(club.get("top", as_number(defaults.top)))
    except (ValueError, TypeError):
        raise ConfigError("club.top", "not-a-field") from None
    extra = {k: v for k, v in raw.items() if k not in ("club", "handicap", "owner")}
    return Config(
        club_name=str(club.get("name", defaults.club_name)),
        timezone=str(club.get("timezone", defaults.timezone)),
        language=str(club.get("language", defaults.language)),
        guest_losses=_whole(club.get("guest_losses", defaults.guest_losses), "guest_losses"),
        evening_starts=_time_of_day(club.get("evening_starts", defaults.evening_starts), "evening_starts"),
        evening_ends=_time_of_day(club.get("evening_ends", defaults.evening_ends), "evening_ends"),
        top=top,
        form_url=str(club.get("form_url", defaults.form_url)),
        size_rules=size_rules,
        owner_pin_hash=str(raw.get("owner", {}).get("pin_hash", "")),
        days_back=_whole(club.get("days_back", defaults.days_back), "days_back"),
        sleeper_weeks=_whole(club.get("sleeper_weeks", defaults.sleeper_weeks), "sleeper_weeks"),
        same_game_minutes=_whole(club.get("same_game_minutes", defaults.same_game_minutes), "same_game_minutes"),
        extra=extra,
    )


def _to_toml(config: Config) -> dict[str, Any]:
    def plain(value: Fraction) -> int | float:
        return int(value) if value.denominator == 1 else float(value)

    raw: dict[str, Any] = {
        "club": {
            "name": config.club_name,
            "timezone": config.timezone,
            "evening_starts": config.evening_starts.strftime("%H:%M"),
            "evening_ends": config.evening_ends.strftime("%H:%M"),
            "language": config.language,
            "guest_losses": config.guest_losses,
            "top": as_number(config.top),
            "form_url": config.form_url,
            "days_back": config.days_back,
            "sleeper_weeks": config.sleeper_weeks,
            "same_game_minutes": config.same_game_minutes,
        },
        "handicap": {
            str(size): {
                "points_per_strength": plain(rules.points_per_strength),
                "clear_margin": plain(rules.clear_margin),
                "training_moves": rules.training_moves,
            }
            for size, rules in sorted(config.size_rules.items())
        },
    }
    if config.owner_pin_hash:
        raw["owner"] = {"pin_hash": config.owner_pin_hash}
    raw.update(config.extra)
    return raw
