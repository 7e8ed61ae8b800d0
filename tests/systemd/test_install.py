"""The Pi installer, run in --dry-run and into a temporary root folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from deployment import SYSTEMD, UNITS, install, snapshot, tool

ORIGINAL_CONFIG = "# Raspberry Pi config\ndtparam=audio=on\ncamera_auto_detect=1\n\n[all]\n"


@pytest.fixture
def pi(tmp_path: Path) -> Path:
    """A fresh Raspberry Pi OS card, as far as the installer looks at it."""
    root = tmp_path / "root"
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(ORIGINAL_CONFIG)
    (root / "etc").mkdir()
    (root / "etc/hostname").write_text("raspberrypi\n")
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')
    return root


def test_dry_run_prints_every_step_and_changes_nothing(pi: Path) -> None:
    before = snapshot(pi)
    result = install("--dry-run", "--root", pi)
    out = result.stdout
    for expected in (
        "would run: apt-get update",
        "avahi-daemon",
        "would run: useradd --system",
        "usermod --append --groups gpio,spi,i2c semedori",
        "python3 -m venv --system-site-packages /opt/semedori/venv",
        "raspi-config nonint do_spi 0",
        "raspi-config nonint do_i2c 0",
        "would append to",
        "dtoverlay=spi0-0cs",
        "raspi-config nonint do_hostname semedori",
        "etc/systemd/system/semedori-display.service",
        "systemctl enable semedori-web.service semedori-display.service semedori-backup.timer",
        "semedori set-pin",
        "http://semedori.local",
    ):
        assert expected in out, expected
    assert "\n    $ " not in out  # nothing actually ran
    assert snapshot(pi) == before


def test_dry_run_on_this_machine_needs_no_root_and_touches_nothing() -> None:
    result = install("--dry-run")
    assert "would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y" in result.stdout
    assert "would run: systemctl restart semedori-web.service semedori-display.service" in result.stdout


def test_install_into_a_root_folder_writes_the_units_and_config(pi: Path) -> None:
    result = install("--root", pi)
    for unit in UNITS:
        assert (pi / "etc/systemd/system" / unit).read_bytes() == (SYSTEMD / unit).read_bytes()
    admin = pi / "usr/local/bin/semedori"
    assert admin.stat().st_mode & 0o111
    config = (pi / "boot/firmware/config.txt").read_text()
    assert config.startswith(ORIGINAL_CONFIG)
    lines = config.splitlines()
    for line in ("dtoverlay=spi0-0cs", "dtparam=spi=on", "dtparam=i2c_arm=on"):
        assert lines.count(line) == 1
    # The overlay must apply to every Pi model, so it sits under [all], after any model filter.
    assert lines.index("[all]", lines.index("camera_auto_detect=1") + 2) < lines.index("dtoverlay=spi0-0cs")
    assert (pi / "boot/firmware/config.txt.semedori-backup").read_text() == ORIGINAL_CONFIG
    # The live system is left alone under --root, and says so.
    assert "skipped under --root: apt-get update" in result.stdout
    assert "skipped under --root: systemctl restart" in result.stdout
    assert "sudo reboot" in result.stdout


def test_install_twice_leaves_the_same_files(pi: Path) -> None:
    install("--root", pi)
    first = snapshot(pi)
    again = install("--root", pi)
    assert snapshot(pi) == first
    assert "already has it" in again.stdout


def test_a_config_txt_with_the_overlay_already_is_not_touched(pi: Path) -> None:
    config = pi / "boot/firmware/config.txt"
    config.write_text("dtparam=spi=on\ndtparam=i2c_arm=on\n[all]\ndtoverlay=spi0-0cs\n")
    install("--root", pi)
    assert config.read_text() == "dtparam=spi=on\ndtparam=i2c_arm=on\n[all]\ndtoverlay=spi0-0cs\n"
    assert not (pi / "boot/firmware/config.txt.semedori-backup").exists()


def test_older_systems_keep_config_txt_in_boot(tmp_path: Path) -> None:
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot/config.txt").write_text("dtparam=audio=on\n")
    install("--root", tmp_path)
    assert "dtoverlay=spi0-0cs" in (tmp_path / "boot/config.txt").read_text().splitlines()


def test_an_upgrade_backs_up_before_the_new_version_migrates(pi: Path) -> None:
    install("--root", pi)
    (pi / "var/lib/semedori").mkdir(parents=True)
    (pi / "var/lib/semedori/semedori.sqlite3").write_bytes(b"the club")
    program = pi / "opt/semedori/venv/bin/semedori"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    out = install("--root", pi).stdout
    backup = out.index("semedori backup /var/lib/semedori/backups/semedori-before-upgrade-")
    assert out.index("systemctl stop semedori-web.service semedori-display.service") < backup
    assert backup < out.index("pip install --quiet --upgrade")


def test_the_owner_pin_is_asked_only_once(pi: Path) -> None:
    assert "would ask for it: sudo semedori set-pin" in install("--root", pi).stdout
    (pi / "var/lib/semedori").mkdir(parents=True)
    (pi / "var/lib/semedori/semedori.toml").write_text('[owner]\npin_hash = "pbkdf2:sha256:..."\n')
    assert "already set" in install("--root", pi).stdout


def test_uninstall_removes_the_services_and_keeps_the_data(pi: Path) -> None:
    install("--root", pi)
    data = pi / "var/lib/semedori"
    (data / "backups").mkdir(parents=True)
    (data / "semedori.sqlite3").write_bytes(b"the club")
    (data / "backups/semedori-2026-11-29.sqlite3").write_bytes(b"last night")
    result = install("--uninstall", "--root", pi)
    assert not list((pi / "etc/systemd/system").iterdir())
    assert not (pi / "usr/local/bin/semedori").exists()
    assert (data / "semedori.sqlite3").read_bytes() == b"the club"
    assert (data / "backups/semedori-2026-11-29.sqlite3").read_bytes() == b"last night"
    assert "systemctl disable --now" in result.stdout
    assert "Kept: /var/lib/semedori" in result.stdout
    # Uninstalling twice is harmless.
    install("--uninstall", "--root", pi)


def test_unknown_option_is_refused(pi: Path) -> None:
    result = install("--root", pi, "--frobnicate", check=False)
    assert result.returncode == 2
    assert "unknown option --frobnicate" in result.stderr
    assert not (pi / "etc/systemd").exists()


@pytest.mark.parametrize("script", ["install.sh", "semedori-admin.sh", "run-local.sh"])
def test_scripts_parse_and_pass_shellcheck(script: str) -> None:
    path = SYSTEMD / script
    assert path.stat().st_mode & 0o111, f"{script} must be executable"
    subprocess.run(["bash", "-n", str(path)], check=True)
    result = subprocess.run([tool("shellcheck", "shellcheck"), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_piped_from_the_web_it_clones_the_project_and_installs_from_the_clone(tmp_path: Path) -> None:
    # curl ... | sudo bash: no checkout next to the script, and the script arrives on stdin.
    result = subprocess.run(
        ["bash", "-s", "--", "--dry-run"],
        input=(SYSTEMD / "install.sh").read_bytes(),
        capture_output=True,
        cwd=tmp_path,
        check=True,
        timeout=60,
    )
    out = result.stdout.decode()
    assert "would run: git clone --depth 1 https://github.com/" in out
    assert "install -D -m 0644 /opt/semedori/src/systemd/semedori-web.service /etc/systemd/system/" in out
    assert "==> Done" in out  # it read itself to the end
