"""The Pi guide promises what the installer and the units do."""

from __future__ import annotations

import re
from pathlib import Path

from deployment import INSTALL, INSTALL_COMMAND, REPO, SYSTEMD, install

from kiosk.backup import KEEP

# The organiser's guide: docs/pi-guide.md, which the README points to.
GUIDE = (REPO / "docs" / "pi-guide.md").read_text()


def test_the_one_install_command_fetches_this_installer_from_its_repository() -> None:
    # Downloaded to a file first: piped into bash, a failed download ran nothing and said nothing.
    assert INSTALL_COMMAND in GUIDE
    assert "| sudo bash" not in GUIDE


def test_every_service_the_guide_names_exists() -> None:
    for name in set(re.findall(r"\bsemedori-(?:web|display|backup)\b", GUIDE)):
        assert (SYSTEMD / f"{name}.service").exists(), name


def test_the_guides_fixes_for_known_problems_are_the_ones_the_wall_and_installer_use() -> None:
    from display.panels import PINS_FIX
    from display.settings import parse

    # The pin conflict: the wall's log names the same overlay line as the guide and the installer write.
    overlay = re.search(r"dtoverlay=\S+", PINS_FIX)
    assert overlay is not None and overlay.group(0) in GUIDE and overlay.group(0) in INSTALL.read_text()
    # A panel hung upside down: the setting the guide gives is one the wall accepts, and it turns the picture.
    setting = re.search(r"\bupside_down = (\w+)", GUIDE)
    assert setting is not None and parse({"upside_down": setting.group(1) == "true"}).upside_down


def test_the_guide_matches_the_backup_timer() -> None:
    timer = (SYSTEMD / "semedori-backup.timer").read_text()
    assert "OnCalendar=*-*-* 03:30" in timer and "3:30" in GUIDE
    assert f"newest {KEEP}" in GUIDE  # the copies backup-nightly keeps


def test_every_setting_the_guide_suggests_is_one_the_wall_accepts() -> None:
    # An unknown [display] setting stops the wall, so the guide must never invent one.
    from display.settings import parse

    suggested = dict(re.findall(r'\b(\w+) = "([^"]*)"', GUIDE))
    assert suggested.pop("form_url") == "http://{ip}"
    assert set(suggested) == {"panel", "driver", "clean_at"}
    settings = parse(suggested)
    assert (settings.panel, settings.driver, str(settings.clean_at)) == ("impression-7.3", "ac073tc1a", "07:05:00")


def test_the_guide_quotes_the_pin_conflict_as_inky_prints_it() -> None:
    # inky checks its pins through gpiodevice; this is its own wording and layout.
    from gpiodevice import errors

    line = str(errors.GPIOError("Chip Select: (line 8, GPIO8) currently claimed by spi0 CS0"))
    assert line in GUIDE
    assert f"Woah there, some pins we need are in use!\n{line}" in GUIDE
    assert "Chip Select GPIO8 claimed" not in GUIDE


def test_the_guide_says_the_panel_waits_for_the_restart() -> None:
    assert "the panel shows nothing until the Pi restarts once" in GUIDE
    for line in ("dtparam=spi=on", "dtparam=i2c_arm=on", "dtoverlay=spi0-0cs"):
        assert line in GUIDE and line in INSTALL.read_text()
    assert "adds one line" not in GUIDE


def test_the_guide_tells_what_the_wall_says_about_the_clock() -> None:
    from display.words import WORDS

    assert WORDS["clock_unsure"] in GUIDE
    assert WORDS["clock_phones"].split("{")[0].strip() in GUIDE
    conf = (SYSTEMD / "journald-semedori.conf").read_text()
    assert "SystemMaxUse=64M" in conf and "64 MB" in GUIDE


def test_the_guide_and_the_installer_take_both_releases_of_raspberry_pi_os(tmp_path: Path) -> None:
    """Imager's default Lite (64-bit) is Trixie since mid-2026; Bookworm stays supported."""
    for release, python in (("Trixie", "3.13"), ("Bookworm", "3.11"), ("Bullseye", None)):
        root = tmp_path / release
        (root / "etc").mkdir(parents=True)
        (root / "etc/os-release").write_text(f"VERSION_CODENAME={release.lower()}\n")
        out = install("--dry-run", "--root", root).stdout
        if python is None:  # an older one: the installer says it is not made for it
            assert "warning: made for Raspberry Pi OS Bookworm or Trixie" in out
            continue
        assert f"**{release}** (Debian " in GUIDE and f"Python {python}" in GUIDE
        assert f"system: {release.lower()} (" in out and "warning: made for" not in out
    assert "Tested:" in GUIDE


def test_the_guide_quotes_the_walls_no_panel_sentence_and_its_command_exists() -> None:
    from kiosk.wallstatus import NO_PANEL

    assert f'("{NO_PANEL}")' in GUIDE
    command = re.search(r"sudo (semedori-admin) (wall-check)", NO_PANEL)
    assert command is not None
    # The installer puts the admin wrapper under that name, and the wrapper knows the command.
    assert f'"$ROOT/usr/local/bin/{command[1]}"' in INSTALL.read_text()
    assert f"\n{command[2]})\n" in (SYSTEMD / "semedori-admin.sh").read_text()
