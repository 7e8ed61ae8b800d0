"""`semedori wall-check`: why the wall finds no panel, checked step by step in the organiser's words.

Run on the Pi as ``sudo semedori-admin wall-check`` (the admin wrapper runs it as the service user,
whose groups open the panel's devices, and restarts the wall when a panel answers). It reads, and
changes nothing: the device nodes SPI, I2C and GPIO give once config.txt turned them on and the Pi
restarted, config.txt's lines, and the panel's EEPROM, which names the panel.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

CONFIG_TXT = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
LINES = ("dtparam=spi=on", "dtparam=i2c_arm=on", "dtoverlay=spi0-0cs")


@dataclass
class Finding:
    """One step of the check: passed or not, and what to do."""

    ok: bool
    text: str


def devices(dev: Path = Path("/dev")) -> list[Finding]:
    """The nodes the panel is reached through, and whether the wall's user may open them."""
    found = []
    off = "is off; run the installer, then restart the Pi"
    for names, what, why in (
        (["i2c-1"], "I2C (the panel's EEPROM)", off),
        (["spidev0.0"], "SPI (the picture)", off),
        (
            sorted(p.name for p in dev.glob("gpiochip*")) or ["gpiochip0"],
            "GPIO (the panel's lines and buttons)",
            "is missing: is this a Raspberry Pi?",
        ),
    ):
        path = dev / names[0]
        if not path.exists():
            found.append(Finding(False, f"{path} is missing: {what} {why}"))
        elif not os.access(path, os.R_OK | os.W_OK):
            found.append(Finding(False, f"{path} exists but this user may not open it (groups gpio, spi, i2c)"))
        else:
            found.append(Finding(True, f"{path}: {what}"))
    return found


def config_txt(candidates: tuple[Path, ...] = CONFIG_TXT) -> list[Finding]:
    """config.txt's lines for the panel (the installer adds them; a restart applies them)."""
    path = next((p for p in candidates if p.is_file()), None)
    if path is None:
        return [Finding(True, "no config.txt (not a Raspberry Pi?): skipped")]
    present = set(path.read_text(encoding="utf-8", errors="replace").split())
    missing = [line for line in LINES if line not in present]
    if missing:
        return [Finding(False, f"{path} lacks {', '.join(missing)}: run the installer again, then restart the Pi")]
    return [Finding(True, f"{path} has {', '.join(LINES)}")]


def eeprom(i2c_bus: Any = None) -> tuple[Finding, Any]:
    """The panel's EEPROM: which panel sits on the header, or nothing answering."""
    from inky.eeprom import read_eeprom

    try:
        found = read_eeprom(i2c_bus=i2c_bus)
    except (OSError, ImportError) as error:
        return Finding(False, f"the I2C bus cannot be read ({error})"), None
    if found is None:
        return (
            Finding(
                False,
                "the panel's EEPROM does not answer: power off, seat the panel on all 40 pins of the header "
                "(none left free, none one row off), power on and run this again. If it still does not "
                'answer, name the panel in semedori.toml ([display] panel = "impression-7.3", see the '
                "guide's troubleshooting)",
            ),
            None,
        )
    return Finding(True, f"the panel's EEPROM says: {found.get_variant()}, {found.width}x{found.height}"), found


def run(i2c_bus: Any = None, dev: Path = Path("/dev"), candidates: tuple[Path, ...] = CONFIG_TXT) -> bool:
    """Print every step; True when a panel answered."""
    steps = [*devices(dev), *config_txt(candidates)]
    answer, found = eeprom(i2c_bus)
    steps.append(answer)
    for step in steps:
        click.echo(f"{'ok  ' if step.ok else 'FIX '} {step.text}")
    if found is not None:
        click.echo("A panel answers: the wall shows the board within a minute.")
    else:
        click.echo("No panel answers yet; the wall keeps looking once a minute, and the phones work meanwhile.")
    return found is not None


@click.command(name="wall-check")
def wall_check_command() -> None:
    """Check why the wall finds no panel: devices, config.txt, the panel's EEPROM (changes nothing)."""
    if not run():
        raise SystemExit(1)
