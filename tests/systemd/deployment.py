"""Shared by the deployment tests: where the files are, and tools CI must have."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"
INSTALL = SYSTEMD / "install.sh"
UNITS = ("semedori-web.service", "semedori-display.service", "semedori-backup.service", "semedori-backup.timer")


def tool(name: str, package: str) -> str:
    """The path of a tool; in CI a missing tool fails the test, on a laptop it skips."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: CI must install the '{package}' package")
        pytest.skip(f"{name} is not installed (apt-get install {package})")
    return path


# The installer on a fake Pi runs stand-ins that answer at once: a run longer than this has hung.
INSTALL_HUNG = 120


def install(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the installer; its output is what a club organiser reads."""
    return subprocess.run(
        ["bash", str(INSTALL), *map(str, args)], capture_output=True, text=True, check=check, timeout=INSTALL_HUNG
    )


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root with its content and mode, to compare two runs."""
    return {
        str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mode)
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _install_command() -> str:
    """The one command the guide gives: download to a file, run it only if that worked."""
    import re

    repo = re.search(r"REPO_URL=\$\{SEMEDORI_REPO:-https://github.com/(.+?)\.git\}", INSTALL.read_text())
    assert repo, "install.sh names the repository it clones"
    url = f"https://raw.githubusercontent.com/{repo[1]}/main/systemd/install.sh"
    return f"curl -fsSL {url} -o semedori-install.sh && sudo bash semedori-install.sh"


INSTALL_COMMAND = _install_command()


def driver_waits() -> dict[str, float]:
    """Each panel driver's longest show, in seconds: the sum of its BUSY waits' timeouts, read from inky's source.

    For a panel that never answers every wait runs out, so this is how long a refresh can block the
    wall's loop. Read from the installed ``inky`` (the release pyproject.toml allows), for the drivers
    display/panels.py uses: the waits ``setup`` and ``_update`` make, with their timeouts or defaults.
    """
    import ast
    import importlib
    import inspect
    import textwrap

    from display.panels import DRIVERS, WAITS

    found = {}
    for name, (module, class_name) in DRIVERS.items():
        driver = getattr(importlib.import_module(module), class_name)
        defaults = {
            wait: inspect.signature(getattr(driver, wait)).parameters["timeout"].default
            for wait in WAITS
            if hasattr(driver, wait)
        }
        total = 0.0
        for method in ("setup", "_update"):
            tree = ast.parse(textwrap.dedent(inspect.getsource(getattr(driver, method))))
            for call in ast.walk(tree):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in WAITS:
                    total += float(ast.literal_eval(call.args[0])) if call.args else defaults[call.func.attr]
        found[name] = total
    return found
