"""The Pi installer, run in --dry-run and into a temporary root folder."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from deployment import INSTALL_COMMAND, INSTALL_HUNG, SYSTEMD, UNITS, install, snapshot, tool

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
    assert "would run: systemctl restart semedori-web.service\n" in result.stdout
    assert "would run: systemctl restart semedori-display.service\n" in result.stdout


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
    assert (pi / "usr/local/bin/semedori-admin").resolve() == (pi / "usr/local/bin/semedori").resolve()
    # What the guide's install command downloads, beside the program's virtual environment.
    (pi / "opt/semedori/src/.git").mkdir(parents=True)
    (pi / "opt/semedori/venv/bin").mkdir(parents=True)
    result = install("--uninstall", "--root", pi)
    assert not list((pi / "etc/systemd/system").iterdir())
    assert not (pi / "usr/local/bin/semedori").exists()
    assert not (pi / "usr/local/bin/semedori-admin").is_symlink()
    assert not (pi / "opt/semedori").exists()  # the README says the program is removed: src too
    assert not (pi / "etc/systemd/journald.conf.d/semedori.conf").exists()
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


# --- a first install that cannot fail silently ---------------------------------------


def run_piped(tmp_path: Path, *args: str, repo: str) -> subprocess.CompletedProcess[str]:
    """The installer on its own, as downloaded: no checkout next to it, so it fetches the program."""
    script = tmp_path / "semedori-install.sh"
    script.write_bytes((SYSTEMD / "install.sh").read_bytes())
    env = {**os.environ, "SEMEDORI_REPO": repo}
    return subprocess.run(
        ["bash", str(script), *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=INSTALL_HUNG
    )


def test_the_guides_command_stops_at_a_missing_installer_where_a_pipe_ran_nothing_and_said_ok(tmp_path: Path) -> None:
    tool("curl", "curl")
    missing = (tmp_path / "nothing-here.sh").as_uri()
    # The old way: curl fails, bash reads nothing, and the organiser sees success.
    piped = subprocess.run(["bash", "-c", f"curl -fsSL {missing} | bash"], capture_output=True, text=True)
    assert piped.returncode == 0
    # The guide's way: download to a file and run it only if the download worked.
    url = INSTALL_COMMAND.split(" -o ")[0].split()[-1]
    command = INSTALL_COMMAND.replace(url, missing).replace("sudo ", "")
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode != 0
    assert "curl:" in result.stderr


def test_a_cut_off_download_runs_none_of_its_steps(tmp_path: Path) -> None:
    text = (SYSTEMD / "install.sh").read_text()
    assert text.rstrip().endswith('main "$@"')  # everything runs from the last line
    half = tmp_path / "half.sh"
    half.write_text(text[: len(text) // 2])
    result = subprocess.run(["bash", str(half), "--dry-run"], capture_output=True, text=True)
    assert "==>" not in result.stdout


def test_a_failed_clone_says_so_in_plain_words_and_changes_nothing_more(tmp_path: Path, pi: Path) -> None:
    result = run_piped(tmp_path, "--root", str(pi), repo=(tmp_path / "no-such-repo").as_uri())
    assert result.returncode == 1
    assert "could not download the program from" in result.stderr
    assert "Check that the Pi is on the internet" in result.stderr
    assert not (pi / "etc/systemd").exists()
    assert "==> Done" not in result.stdout


def test_a_clone_that_works_installs_from_the_clone(tmp_path: Path, pi: Path) -> None:
    tool("git", "git")
    # "The internet": a git repository of this checkout's installer, units and pyproject.
    repo = tmp_path / "published"
    shutil.copytree(SYSTEMD, repo / "systemd")
    shutil.copy(SYSTEMD.parent / "pyproject.toml", repo)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "published"], check=True)
    result = run_piped(tmp_path, "--root", str(pi), "--no-pin", repo=repo.as_uri())
    assert result.returncode == 0, result.stderr
    assert (pi / "opt/semedori/src/pyproject.toml").exists()
    web = pi / "etc/systemd/system/semedori-web.service"
    assert web.read_bytes() == (repo / "systemd/semedori-web.service").read_bytes()


# --- the wall waits for the reboot --------------------------------------------------------------


def test_on_a_first_install_the_wall_waits_for_the_reboot_and_the_installer_says_so(pi: Path) -> None:
    out = install("--root", pi).stdout
    assert "the wall starts after the reboot" in out
    assert "systemctl restart semedori-web.service\n" in out
    assert "restart semedori-display.service" not in out
    # Enabled, so the reboot starts it.
    assert "systemctl enable semedori-web.service semedori-display.service semedori-backup.timer" in out
    assert "The panel shows the board only after one restart" in out
    assert "sudo reboot" in out


def test_once_config_txt_is_done_both_services_start_at_once(pi: Path) -> None:
    (pi / "etc/hostname").write_text("semedori\n")
    install("--root", pi)
    again = install("--root", pi).stdout
    assert "restart semedori-web.service\n" in again and "restart semedori-display.service\n" in again
    assert "the wall starts after the reboot" not in again
    assert "sudo reboot" not in again


# --- 64-bit only ------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_a_32_bit_system_is_refused_before_anything_changes(pi: Path, arch: str) -> None:
    before = snapshot(pi)
    env = {**os.environ, "SEMEDORI_ARCH": arch}
    result = subprocess.run(
        ["bash", str(SYSTEMD / "install.sh"), "--root", str(pi)], capture_output=True, text=True, env=env
    )
    assert result.returncode == 1
    assert f"32-bit system ({arch})" in result.stderr
    assert "Raspberry Pi OS Lite (64-bit)" in result.stderr
    assert "Nothing was changed." in result.stderr
    assert snapshot(pi) == before


def test_a_64_bit_pi_goes_on_and_pip_prefers_wheels(pi: Path) -> None:
    env = {**os.environ, "SEMEDORI_ARCH": "arm64"}
    result = subprocess.run(
        ["bash", str(SYSTEMD / "install.sh"), "--dry-run", "--root", str(pi)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert "(arm64)" in result.stdout
    assert "pip install --quiet --prefer-binary --upgrade" in result.stdout
    # What Pillow and numpy link against, should pip take a piwheels build.
    for library in ("libopenjp2-7", "libtiff6", "libopenblas0", "libfreetype6", "libxcb1"):
        assert library in result.stdout


# --- the club's time zone ---------------------------------------------------------------------


def test_a_first_install_takes_the_club_time_zone_from_the_pi(pi: Path) -> None:
    (pi / "etc/localtime").symlink_to("/usr/share/zoneinfo/Europe/Lisbon")
    out = install("--root", pi).stdout
    assert "the Pi's time zone: Europe/Lisbon" in out
    from kiosk.config import load

    assert load(pi / "var/lib/semedori").timezone == "Europe/Lisbon"


def test_the_time_zone_from_etc_timezone_and_a_dry_run_writes_nothing(pi: Path) -> None:
    (pi / "etc/timezone").write_text("America/Sao_Paulo\n")
    out = install("--dry-run", "--root", pi).stdout
    assert '[club] timezone = "America/Sao_Paulo"' in out
    assert not (pi / "var/lib/semedori").exists()


def test_an_upgrade_keeps_the_club_time_zone_it_has(pi: Path) -> None:
    (pi / "etc/localtime").symlink_to("/usr/share/zoneinfo/Europe/Lisbon")
    settings = pi / "var/lib/semedori/semedori.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text('[club]\nname = "Tengen"\ntimezone = "Europe/Warsaw"\n')
    install("--root", pi)
    assert settings.read_text() == '[club]\nname = "Tengen"\ntimezone = "Europe/Warsaw"\n'


def test_an_odd_time_zone_is_not_written(pi: Path) -> None:
    (pi / "etc/timezone").write_text('Europe/Warsaw"\n[owner]\n')
    out = install("--root", pi).stdout
    assert "the Pi's time zone is unknown" in out
    assert not (pi / "var/lib/semedori/semedori.toml").exists()


# --- an upgrade whose pip step fails ----------------------------------------------------------


def installed_before(pi: Path, pip_exit: int) -> Path:
    """A Pi with the board installed and data; its pip breaks the program and exits pip_exit."""
    install("--root", pi, "--no-pin")
    data = pi / "var/lib/semedori"
    data.mkdir(parents=True, exist_ok=True)
    (data / "semedori.sqlite3").write_bytes(b"the club")
    bin_ = pi / "opt/semedori/venv/bin"
    bin_.mkdir(parents=True)
    (bin_ / "semedori").write_text("#!/bin/sh\necho version 1\n")
    (bin_ / "pip").write_text(
        f'#!/bin/sh\necho "$@" >> "{pi}/pip-calls"\n'
        f'echo "#!/bin/sh" > "{bin_}/semedori"\n'  # half-installed: the old program is gone
        f'[ "$2" = "--quiet" ] && [ "$3" = "--upgrade" ] && exit 0\n'  # upgrading pip itself works
        f'echo "ERROR: No matching distribution found for numpy" >&2\nexit {pip_exit}\n'
    )
    for program in bin_.iterdir():
        program.chmod(0o755)
    return bin_


def test_an_upgrade_whose_pip_fails_puts_the_previous_version_back_and_starts_it(pi: Path) -> None:
    bin_ = installed_before(pi, pip_exit=1)
    result = install("--root", pi, "--no-pin", check=False)
    assert result.returncode == 1
    assert "No matching distribution" in result.stderr
    assert "the upgrade did not finish" in result.stderr
    assert "The previous\nversion is back and running" in result.stderr
    out = result.stdout
    assert out.index("systemctl stop semedori-web.service semedori-display.service") < out.index(
        "The upgrade failed: putting the previous version back"
    )
    assert "systemctl start semedori-web.service semedori-display.service" in out
    # Stopped before the program is swapped back (a running new version would crash into the start
    # limit), and the start limit cleared before the start.
    back = out.index("The upgrade failed: putting the previous version back")
    assert back < out.index("systemctl stop semedori-web.service semedori-display.service", back)
    assert out.index("systemctl stop", back) < out.index("mv ", back) < out.index("systemctl reset-failed", back)
    assert out.index("systemctl reset-failed", back) < out.index("systemctl start semedori-web.service", back)
    assert (bin_ / "semedori").read_text() == "#!/bin/sh\necho version 1\n"
    assert not (pi / "opt/semedori/venv.previous").exists()
    assert "--prefer-binary" in (pi / "pip-calls").read_text()


def test_a_successful_upgrade_keeps_no_old_copy(pi: Path) -> None:
    bin_ = installed_before(pi, pip_exit=0)
    result = install("--root", pi, "--no-pin")
    assert "putting the previous version back" not in result.stdout
    assert (bin_ / "semedori").read_text() == "#!/bin/sh\n"  # the "new" version
    assert not (pi / "opt/semedori/venv.previous").exists()


def test_an_ssh_window_closed_during_the_upgrade_still_gets_the_board_back(pi: Path) -> None:
    bin_ = installed_before(pi, pip_exit=1)
    pip = bin_ / "pip"
    # This pip takes its time, like a real one on a Pi; the organiser's laptop goes to sleep.
    # It stays busy until the hangup ends it (the whole group gets it), or a hung installer's deadline.
    pip.write_text(pip.read_text().replace('echo "ERROR', f'touch {pi}/pip-busy; sleep {INSTALL_HUNG}\necho "ERROR'))
    with subprocess.Popen(
        ["bash", str(SYSTEMD / "install.sh"), "--root", str(pi), "--no-pin"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as installer:
        try:
            # The hangup must come while pip is busy: wait for exactly that, however long a busy
            # machine takes to get there, failing at once if the installer ended before it.
            deadline = time.monotonic() + INSTALL_HUNG
            while not (pi / "pip-busy").exists():
                assert installer.poll() is None, installer.communicate()
                assert time.monotonic() < deadline, "the installer never reached pip"
                time.sleep(0.05)
            os.killpg(installer.pid, signal.SIGHUP)  # the terminal hangs up on the whole group
            out, err = installer.communicate(timeout=INSTALL_HUNG)
        finally:
            # A failed wait must not leave the installer running into later tests (a ResourceWarning
            # that pytest would report on whichever test the garbage collector ran in).
            if installer.poll() is None:
                os.killpg(installer.pid, signal.SIGKILL)
    assert installer.returncode == 129
    assert "systemctl start semedori-web.service semedori-display.service" in out
    assert (bin_ / "semedori").read_text() == "#!/bin/sh\necho version 1\n"
    assert "the upgrade did not finish" in err


def test_a_first_install_whose_pip_fails_says_so_in_plain_words(pi: Path) -> None:
    """No internet or a full card during pip on a first install: what to check, not only pip's traceback."""
    bin_ = pi / "opt/semedori/venv/bin"
    bin_.mkdir(parents=True)
    (bin_ / "pip").write_text(
        '#!/bin/sh\n[ "$3" = "--upgrade" ] && [ "$4" = "pip" ] && exit 0\n'
        'echo "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device" >&2\nexit 1\n'
    )
    (bin_ / "pip").chmod(0o755)
    result = install("--root", pi, "--no-pin", check=False)
    assert result.returncode == 1
    assert "No space left on device" in result.stderr  # pip's own words stay
    assert "could not install the program into /opt/semedori/venv" in result.stderr
    assert "df -h /" in result.stderr and "ping -c 3 pypi.org" in result.stderr
    assert "The club's data was not touched." in result.stderr
    assert "Installing the services" not in result.stdout  # it stopped there


def test_the_panels_orientation_is_asked_with_the_advice_and_only_once(pi: Path) -> None:
    """The installer asks which way the panel hangs, after semedori render --advise has said which way
    needs fewer pages; a club that has said it is not asked again."""
    out = install("--root", pi).stdout
    assert "Which way the panel hangs" in out
    assert "would ask, after: semedori render --advise" in out
    settings = pi / "var/lib/semedori/semedori.toml"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text('[club]\nname = "Tengen"\n\n[display]\norientation = "portrait"\n')
    again = install("--root", pi).stdout
    assert 'already set (orientation = "portrait")' in again
    assert "would ask, after" not in again
