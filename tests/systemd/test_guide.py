"""The Pi guide promises what the installer and the units do."""

from __future__ import annotations

import re

from deployment import INSTALL, INSTALL_COMMAND, REPO, SYSTEMD

README = (REPO / "README.md").read_text()
# The organiser's guide is the README's Raspberry Pi section.
GUIDE = README[README.index("## The Raspberry Pi: a guide for the club organiser") :]


def test_the_one_install_command_fetches_this_installer_from_its_repository() -> None:
    # Downloaded to a file first: piped into bash, a failed download ran nothing and said nothing.
    assert INSTALL_COMMAND in GUIDE
    assert "| sudo bash" not in GUIDE


def test_every_service_the_guide_names_exists() -> None:
    for name in set(re.findall(r"\bsemedori-(?:web|display|backup)\b", GUIDE)):
        assert (SYSTEMD / f"{name}.service").exists(), name


def test_the_guide_covers_the_known_problems() -> None:
    # Quoted as inky prints it (issue 16), not the "Chip Select GPIO8 claimed" the guide once said.
    for problem in (
        "currently claimed by spi0 CS0",
        "GPIO busy",
        "panel is not detected",
        "Washed-out",
        "BUSY line did not clear",
        "upside_down = true",
    ):
        assert problem in GUIDE, problem
    assert "dtoverlay=spi0-0cs" in GUIDE
    assert 'panel = "impression-7.3"' in GUIDE


def test_the_guide_matches_the_backup_timer() -> None:
    timer = (SYSTEMD / "semedori-backup.timer").read_text()
    assert "OnCalendar=*-*-* 03:30" in timer and "3:30" in GUIDE
    assert "newest 14" in GUIDE


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


def test_the_guide_fetches_backups_with_scp_not_through_a_shell_redirect() -> None:
    # PowerShell's ">" re-encodes the bytes: a SQLite file fetched that way is damaged.
    assert "sudo cat" not in GUIDE.replace("Do not use `ssh ... sudo cat ... > file`", "")
    assert "scp yourname@semedori.local:semedori-2026-11-29.sqlite3 ." in GUIDE


def test_the_guide_says_the_panel_waits_for_the_restart() -> None:
    assert "the panel shows nothing until the Pi restarts once" in GUIDE
    for line in ("dtparam=spi=on", "dtparam=i2c_arm=on", "dtoverlay=spi0-0cs"):
        assert line in GUIDE and line in INSTALL.read_text()
    assert "adds one line" not in GUIDE


def test_the_guide_tells_what_the_wall_says_about_the_clock() -> None:
    from display.words import WORDS

    assert WORDS["en"]["clock_unsure"] in GUIDE
    assert WORDS["en"]["clock_phones"].split("{")[0].strip() in GUIDE
    conf = (SYSTEMD / "journald-semedori.conf").read_text()
    assert "SystemMaxUse=64M" in conf and "64 MB" in GUIDE
