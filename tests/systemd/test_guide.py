"""The Pi guide promises what the installer and the units do."""

from __future__ import annotations

import re

from deployment import INSTALL, REPO, SYSTEMD

README = (REPO / "README.md").read_text()
# The organiser's guide is the README's Raspberry Pi section.
GUIDE = README[README.index("## The Raspberry Pi: a guide for the club organiser") :]


def test_the_one_install_command_fetches_this_installer_from_its_repository() -> None:
    repo_url = re.search(r"REPO_URL=\$\{SEMEDORI_REPO:-https://github.com/(.+?)\.git\}", INSTALL.read_text())
    assert repo_url, "install.sh names the repository it clones"
    command = f"curl -fsSL https://raw.githubusercontent.com/{repo_url[1]}/main/systemd/install.sh | sudo bash"
    assert command in GUIDE


def test_every_service_the_guide_names_exists() -> None:
    for name in set(re.findall(r"\bsemedori-(?:web|display|backup)\b", GUIDE)):
        assert (SYSTEMD / f"{name}.service").exists(), name


def test_the_guide_covers_the_known_problems() -> None:
    # Quoted as inky prints it (issue 16), not the "Chip Select GPIO8 claimed" the guide once said.
    for problem in ("currently claimed by spi0 CS0", "GPIO busy", "panel is not detected", "Washed-out",
                    "BUSY line did not clear", "upside_down = true"):
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
