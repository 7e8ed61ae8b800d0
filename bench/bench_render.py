"""Benchmark of the wall (figures to compare, not timed tests).

- render time of the board page per panel profile with 120 magnets on one size
  (goals: 800×480 under 150 ms, 1600×1200 under 500 ms);
- peak memory of a display process that reads a real store, renders every page and
  sends the 13.3" picture through the real ``inky`` driver to a fake SPI bus
  (goal: under 80 MB, so a Pi Zero 2 W with 512 MB runs it beside the web app).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from display.profiles import PROFILES, profile
from display.render import render
from display.wall import View, WallData
from kiosk.board import Magnet
from kiosk.scale import QUARTERS, fields

MAGNETS = 120
GOALS = {(800, 480): 0.150, (1600, 1200): 0.500}
MEMORY_GOAL_MB = 80


def club(count: int = MAGNETS, seed: int = 3) -> WallData:
    """A full club on 13x13: short nicknames, strengths gathered around 30 as in a real club."""
    rng = random.Random(seed)
    syllables = ["ka", "to", "mi", "ra", "ze", "lu", "po", "ny", "be", "da", "sa", "wo"]
    nicks: set[str] = set()
    while len(nicks) < count:
        nicks.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 3))).capitalize())
    scale = fields()
    magnets = []
    for nick in sorted(nicks):
        target = min(54.0, max(0.0, rng.gauss(30, 9))) * QUARTERS
        magnets.append(Magnet(nick, 13, min(scale, key=lambda q: abs(q - target)), "member"))
    return WallData(magnets=tuple(magnets))


def time_renders(data: WallData, runs: int = 15) -> None:
    """Median and best render time of the board page for every profile."""
    print(f"render of the board page, {len(data.magnets)} magnets on 13x13 (ms, median / best of {runs}):")
    for name in PROFILES:
        panel = profile(name)
        render(data, View("board", 13), panel)  # warm the font and text caches, as a running wall has them
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            render(data, View("board", 13), panel)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        goal = GOALS.get((panel.width, panel.height))
        verdict = "" if goal is None else f"  goal < {goal * 1000:.0f} ms: {'ok' if median < goal else 'MISSED'}"
        print(f"  {name:16} {panel.width:4}×{panel.height:<4} {median * 1000:7.1f} / {min(times) * 1000:6.1f}{verdict}")
        cold = _cold_render(name)
        print(f"  {'':16} {'':9} first render in a fresh process: {cold:.0f} ms")


def _cold_render(name: str) -> float:
    """The first render after start-up (fonts loaded, nothing cached), in a fresh process."""
    code = (
        f"import time, sys; sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})\n"
        "from bench.bench_render import club\n"
        "from display.profiles import profile; from display.render import render; from display.wall import View\n"
        f"data = club(); t = time.perf_counter(); render(data, View('board', 13), profile({name!r}))\n"
        "print((time.perf_counter() - t) * 1000)\n"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return float(output.strip())


MEMORY_PROBE = r'''
import json, resource, sys, tempfile
from pathlib import Path
sys.path.insert(0, ROOT)
from bench.bench_render import club
from kiosk.events import parse_line
from kiosk.store import Store
from display.panels import InkyPanel
from display.refresh import Wall
from display.settings import DisplaySettings
from display.wall import View

class Bus:
    """Fake SPI and GPIO: the driver's bytes go nowhere, BUSY is always ready."""
    max_speed_hz = 0
    no_cs = False
    def open(self, *a): pass
    def xfer3(self, values): pass
    xfer = writebytes = xfer3
    def set_value(self, *a): pass
    reads = 0
    def get_value(self, line):
        from gpiod.line import Value
        self.reads += 1
        return Value.ACTIVE if self.reads % 2 == 0 else Value.INACTIVE

class NoEeprom:
    def write_i2c_block_data(self, *a): raise OSError

import importlib
module = importlib.import_module(MODULE)
module.time.sleep = lambda s: None  # the refresh waits are the panel's, not ours
driver = module.Inky(spi_bus=Bus(), i2c_bus=NoEeprom())
driver._gpio = Bus()
driver.cs0_pin = driver.cs1_pin = 0
folder = Path(tempfile.mkdtemp())
with Store.open(folder) as store:
    lines = [json.dumps({"type": "player", "at": "2026-09-01T18:00", "nick": m.nick, "size": 13,
                         "status": "member", "strength": m.strength / 4}) for m in club().magnets]
    store.import_history(lines)
    wall = Wall(store, InkyPanel(driver), DisplaySettings())
    for button in ("", "A", "B", "C", "D"):
        if button:
            wall.press(button)
        wall.refresh()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
'''


def peak_memory() -> None:
    """Peak resident memory of a display process that refreshes a 7.3" and a 13.3" panel."""
    root = str(Path(__file__).resolve().parent.parent)
    panels = (('7.3" Spectra (E673)', "inky.inky_e673"), ('13.3" Spectra (EL133UF1)', "inky.inky_el133uf1"))
    for title, module in panels:
        code = f"ROOT = {root!r}\nMODULE = {module!r}\n" + MEMORY_PROBE
        output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        megabytes = float(output.strip().splitlines()[-1])
        verdict = "ok" if megabytes < MEMORY_GOAL_MB else "MISSED"
        print(
            f"peak memory of the display process, {title}, every page: {megabytes:.0f} MB "
            f"(goal < {MEMORY_GOAL_MB} MB: {verdict})"
        )


def main() -> int:
    """Print the figures."""
    time_renders(club())
    peak_memory()
    return 0


if __name__ == "__main__":
    sys.exit(main())
