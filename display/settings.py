"""The ``[display]`` table of semedori.toml: panel, orientation, buttons, quiet hours, timing."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import time
from typing import Any

from display.profiles import ORIENTATIONS, PROFILES
from kiosk.errors import ConfigError

# Buttons of the Impression boards (BCM numbers); on the 13.3" C moved from 16 to 25.
DEFAULT_PINS = {"A": 5, "B": 6, "C": 16, "D": 24}
PINS_13_3 = {"A": 5, "B": 6, "C": 25, "D": 24}


@dataclass(frozen=True)
class DisplaySettings:
    """How the wall runs; every default is what a club wants without asking."""

    panel: str = "auto"  # "auto" (the board's EEPROM), a profile name, or "png" (a file)
    driver: str | None = None  # an inky driver name when two panels share a profile
    orientation: str = "landscape"
    upside_down: bool = False  # the panel hangs turned by 180° (buttons on the other side)
    png_path: str = "wall.png"  # relative to the data folder
    pins: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))
    pins_chosen: tuple[str, ...] = ()  # the buttons whose pin semedori.toml names; the rest follow the panel
    quiet_from: time | None = time(22, 30)  # no automatic refresh at night: the panel flashes
    quiet_until: time | None = time(7, 0)
    debounce: float = 20.0  # seconds of calm after a result before the refresh
    min_interval: float = 90.0  # seconds between two automatic refreshes
    poll: float = 2.0  # seconds between two looks at the store's change counter
    clean_at: time | None = None  # a daily clean cycle against ghosting, e.g. 07:05
    page_timeout: float = 600.0  # seconds before another page goes back to the board
    # Seconds before a board of several pages shows its next page by itself (0: only button A turns
    # them). Long, since a Spectra refresh flashes for about 30 s; never during quiet hours.
    page_advance: float = 600.0
    retry_after: float = 30.0  # first wait after a panel failure; doubles up to an hour

    def pins_for(self, panel: str) -> dict[str, int]:
        """The buttons' pins on the panel found (with ``panel = "auto"`` it is known only at run time).

        The 13.3" uses GPIO16 as its second chip select, so its button C sits on GPIO25; a
        pin named in semedori.toml always wins.
        """
        pins = dict(PINS_13_3 if panel == "impression-13.3" else DEFAULT_PINS)
        pins.update({letter: self.pins[letter] for letter in self.pins_chosen})
        return pins

    def quiet(self, moment: time) -> bool:
        """True during quiet hours (which may run over midnight)."""
        if self.quiet_from is None or self.quiet_until is None:
            return False
        if self.quiet_from <= self.quiet_until:
            return self.quiet_from <= moment < self.quiet_until
        return moment >= self.quiet_from or moment < self.quiet_until


def _time(raw: Any, name: str) -> time | None:
    if raw in (None, "", False):
        return None
    try:
        return time.fromisoformat(str(raw))
    except ValueError:
        raise ConfigError(f"display.{name}", "bad-quiet-time") from None


def _flag(raw: Any, name: str) -> bool:
    if not isinstance(raw, bool):
        raise ConfigError(f"display.{name}", "not-true-false")
    return raw


def _seconds(raw: Any, name: str, lowest: float) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw < lowest:
        raise ConfigError(f"display.{name}", "bad-seconds", lowest=f"{lowest:g}")
    return float(raw)


def _advance(raw: Any) -> float:
    seconds = _seconds(raw, "page_advance", 0)
    if 0 < seconds < 60:
        raise ConfigError("display.page_advance", "bad-page-advance")
    return seconds


def parse(table: dict[str, Any]) -> DisplaySettings:
    """Settings from the ``[display]`` table (``config.extra["display"]``); defaults for the rest."""
    known = set(DisplaySettings.__dataclass_fields__)
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"display.{unknown[0]}", "unknown-display-setting", known=", ".join(sorted(known)))
    base = DisplaySettings()
    panel = str(table.get("panel", base.panel))
    if panel != "auto" and panel not in PROFILES:
        raise ConfigError("display.panel", "bad-panel", known=", ".join(PROFILES))
    orientation = str(table.get("orientation", base.orientation))
    if orientation not in ORIENTATIONS:
        raise ConfigError("display.orientation", "bad-orientation")
    pins = dict(PINS_13_3 if panel == "impression-13.3" else DEFAULT_PINS)
    chosen = table.get("pins", {})
    if not isinstance(chosen, dict):
        raise ConfigError("display.pins", "bad-pins")
    for button, pin in chosen.items():
        if button not in pins or isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
            raise ConfigError(f"display.pins.{button}", "bad-pin")
        pins[button] = pin
    return DisplaySettings(
        panel=panel,
        driver=table.get("driver"),
        orientation=orientation,
        upside_down=_flag(table.get("upside_down", base.upside_down), "upside_down"),
        png_path=str(table.get("png_path", base.png_path)),
        pins=pins,
        pins_chosen=tuple(sorted(chosen)),
        quiet_from=_time(table.get("quiet_from", base.quiet_from), "quiet_from"),
        quiet_until=_time(table.get("quiet_until", base.quiet_until), "quiet_until"),
        debounce=_seconds(table.get("debounce", base.debounce), "debounce", 0),
        min_interval=_seconds(table.get("min_interval", base.min_interval), "min_interval", 0),
        poll=_seconds(table.get("poll", base.poll), "poll", 0.1),
        clean_at=_time(table.get("clean_at", base.clean_at), "clean_at"),
        page_timeout=_seconds(table.get("page_timeout", base.page_timeout), "page_timeout", 10),
        page_advance=_advance(table.get("page_advance", base.page_advance)),
        retry_after=_seconds(table.get("retry_after", base.retry_after), "retry_after", 1),
    )
