"""Benchmark of the wall (figures to compare, not timed tests).

- render time of every page of the board for a 120- and a 300-magnet club (mixed alphabets,
  40 magnets on one field) on the 7.3" and the 13.3" panel (goals: each page under 150 ms on
  the 7.3", under 500 ms on the 13.3");
- render time of every page of the tonight page for the demo's evening of 15 players
  and an evening of 60 checked-in players (same goals; the pairs are made once per refresh);
- render time of tonight's ruler for evenings of 10, 18 and 25 players (same goals);
- peak memory of a display process that reads a real store, renders every page and sends
  them through the real ``inky`` driver to a fake SPI bus, also on an evening of 25 checked in with
  tonight's ruler first (goal: under 80 MB, so a Pi Zero 2 W with 512 MB runs it beside the web app).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "display"))  # the wall's test clubs

from wall_clubs import big_club

from display.profiles import profile
from display.render import board_pages, render
from display.wall import View, WallData

CLUBS = (120, 300)
PANELS = ("impression-7.3", "impression-13.3")
GOALS = {"impression-7.3": 0.150, "impression-13.3": 0.500}
MEMORY_GOAL_MB = 80


def club(count: int = 120) -> WallData:
    """A club on 13x13: Polish, Cyrillic, CJK and emoji names, 40 on field 20, the rest around 30."""
    return big_club(count, crowded=40)


def time_renders(runs: int = 7) -> None:
    """Median render time of each page of the board, per club and panel."""
    for count in CLUBS:
        data = club(count)
        for name in PANELS:
            panel = profile(name)
            pages = board_pages(data, 13, panel)
            medians = []
            for part in range(pages):
                render(data, View("board", 13, part), panel)  # warm the font and text caches, as a running wall has
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    render(data, View("board", 13, part), panel)
                    times.append(time.perf_counter() - start)
                medians.append(statistics.median(times))
            goal = GOALS[name]
            verdict = "ok" if max(medians) < goal else "MISSED"
            per_page = " ".join(f"{m * 1000:.0f}" for m in medians)
            print(
                f"{count} magnets, {name:16} {pages} pages, ms per page (median of {runs}): {per_page}"
                f"  (goal < {goal * 1000:.0f} ms: {verdict})"
            )
            print(f"{'':38}first render in a fresh process: {_cold_render(name, count):.0f} ms")


def time_tonight(runs: int = 7) -> None:
    """Median render time of each tonight page: the demo's 15 players, and 60 checked in."""
    from wall_clubs import NOW, tonight_data

    from display.render import tonight_pages
    from display.tonight import evening
    from kiosk.board import Magnet
    from kiosk.config import Config
    from kiosk.scale import QUARTERS

    nicks = [m.nick for m in club(120).on_size(13)][:60]
    sixty = WallData(
        magnets=tuple(Magnet(n, 13, (i * 7 % 50) * QUARTERS, "member") for i, n in enumerate(nicks)),
        tonight=evening(Config(), NOW, nicks),
    )
    for title, data in (("15 here (demo)", tonight_data()), ("60 here", sixty)):
        for name in PANELS:
            panel = profile(name)
            pages = tonight_pages(data, 13, panel)
            medians = []
            for part in range(pages):
                render(data, View("tonight", 13, part), panel)
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    render(data, View("tonight", 13, part), panel)
                    times.append(time.perf_counter() - start)
                medians.append(statistics.median(times))
            goal = GOALS[name]
            verdict = "ok" if max(medians) < goal else "MISSED"
            print(
                f"tonight, {title:15} {name:16} {pages} pages, ms per page (median of {runs}): "
                f"{' '.join(f'{m * 1000:.0f}' for m in medians)}  (goal < {goal * 1000:.0f} ms: {verdict})"
            )


def time_ruler(runs: int = 7) -> None:
    """Median render time of tonight's ruler: evenings of 10, 18 and 25 players, mixed alphabets."""
    from wall_clubs import ruler_evening

    from display.render import ruler_pages

    for players in (10, 18, 25):
        data = ruler_evening(players, "pl")
        for name in PANELS:
            panel = profile(name)
            pages = ruler_pages(data, 13, panel)
            medians = []
            for part in range(pages):
                render(data, View("ruler", 13, part), panel)
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    render(data, View("ruler", 13, part), panel)
                    times.append(time.perf_counter() - start)
                medians.append(statistics.median(times))
            goal = GOALS[name]
            verdict = "ok" if max(medians) < goal else "MISSED"
            print(
                f"tonight's ruler, {players} here, {name:16} {pages} page(s), ms per page (median of {runs}): "
                f"{' '.join(f'{m * 1000:.0f}' for m in medians)}  (goal < {goal * 1000:.0f} ms: {verdict})"
            )


def _cold_render(name: str, count: int) -> float:
    """The first render after start-up (fonts loaded, nothing cached), in a fresh process."""
    code = (
        f"import time, sys; sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})\n"
        "from bench.bench_render import club\n"
        "from display.profiles import profile; from display.render import render; from display.wall import View\n"
        f"data = club({count}); t = time.perf_counter(); render(data, View('board', 13), profile({name!r}))\n"
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
                         "status": "member", "strength": m.strength / 4}) for m in club(COUNT).magnets]
    store.import_history(lines)
    from datetime import datetime
    evening = datetime(2026, 10, 1, 19, 0)  # the club is open: with TONIGHT checked in, tonight's ruler comes first
    for magnet in club(COUNT).magnets[:TONIGHT]:
        store.check_in(evening.date(), magnet.nick)
    wall = Wall(store, InkyPanel(driver), DisplaySettings(), now=lambda: evening)
    wall.refresh()
    for button in ["A"] * (wall.parts + 1) + ["B", "C", "D"]:  # every page of the board, then the other pages
        wall.press(button)
        wall.refresh()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
'''


def peak_memory() -> None:
    """Peak resident memory of a display process that shows every page on a 7.3" and a 13.3" panel."""
    root = str(Path(__file__).resolve().parent.parent)
    panels = (('7.3" Spectra (E673)', "inky.inky_e673"), ('13.3" Spectra (EL133UF1)', "inky.inky_el133uf1"))
    for count, tonight in ((120, 0), (300, 0), (120, 25)):
        for title, module in panels:
            code = f"ROOT = {root!r}\nMODULE = {module!r}\nCOUNT = {count}\nTONIGHT = {tonight}\n" + MEMORY_PROBE
            output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            megabytes = float(output.strip().splitlines()[-1])
            verdict = "ok" if megabytes < MEMORY_GOAL_MB else "MISSED"
            evening = f", {tonight} here tonight (the ruler first)" if tonight else ""
            print(
                f"peak memory of the display process, {count} magnets{evening}, {title}, every page: "
                f"{megabytes:.0f} MB (goal < {MEMORY_GOAL_MB} MB: {verdict})"
            )


def main() -> int:
    """Print the figures."""
    time_renders()
    time_tonight()
    time_ruler()
    peak_memory()
    return 0


if __name__ == "__main__":
    sys.exit(main())
