"""Benchmark of the printable board (figures to compare, not timed tests).

Each paper at its default dpi, for the demo club and a 250-magnet club (mixed alphabets), in a
fresh process each, as ``semedori render --print`` runs: the time to draw and to write the PDF,
and the process's peak memory (goal: an A1 print under 300 MB, so a Pi with 1 GB makes it beside
the running wall and web app; a Pi several times slower than this machine takes as many times
longer, which is fine for a print).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MEMORY_GOAL_MB = 300
ONE = """
import json, resource, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, "tests/display")  # run from the repository root: the wall's test clubs
from wall_clubs import big_club, demo_data
from display.printed import printed_board
paper, count = sys.argv[1], int(sys.argv[2])
data = demo_data() if count == 0 else big_club(count)
start = time.perf_counter()
board = printed_board(data, 13, paper)
drawn = time.perf_counter()
with tempfile.TemporaryDirectory() as folder:
    board.save(Path(folder) / "board.pdf")
saved = time.perf_counter()
print(json.dumps({"sheets": len(board.images), "size": board.images[0].size, "draw_s": drawn - start,
                  "pdf_s": saved - drawn, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(paper: str, count: int) -> dict[str, object]:
    """One print in a fresh process: its sheets, pixel size, draw and PDF time, peak memory."""
    root = Path(__file__).resolve().parent.parent
    output = subprocess.run(
        [sys.executable, "-c", ONE, paper, str(count)], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(output)


def main() -> int:
    """Print the figures; exit 1 when an A1 print goes over the memory goal."""
    worst = 0.0
    for count in (0, 250):
        for paper in ("A1", "A2", "A3", "A4"):
            found = measure(paper, count)
            club = "demo club (30)" if count == 0 else f"{count} magnets"
            print(
                f"{paper} {club}: {found['sheets']} sheet(s) of {found['size'][0]}×{found['size'][1]} px, "  # type: ignore[index]
                f"draw {found['draw_s']:.2f} s, PDF {found['pdf_s']:.2f} s, peak {found['peak_mb']:.0f} MB"
            )
            if paper == "A1":
                worst = max(worst, float(found["peak_mb"]))  # type: ignore[arg-type]
    print(f"A1 peak memory {worst:.0f} MB (goal: under {MEMORY_GOAL_MB} MB)")
    return 0 if worst < MEMORY_GOAL_MB else 1


if __name__ == "__main__":
    sys.exit(main())
