"""The wall says when the kiosk's clock was last trusted, in one small line, only without NTP."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import ImageChops
from wall_clubs import demo_data

from display.canvas import Canvas
from display.profiles import profile
from display.render import clock_note, header, header_box, render
from display.wall import View, from_source
from kiosk import clockfile
from kiosk.clock import PHONES, ClockState
from kiosk.store import Store

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def test_the_notes_in_both_languages() -> None:
    data = replace(demo_data(), clock_by=PHONES, clock_trusted=datetime(2026, 11, 30, 19, 5))
    assert clock_note(data) == "time from phones 30 Nov 2026 19:05"
    assert clock_note(replace(data, language="pl")) == "czas z telefonów 30.11.2026 19:05"
    assert clock_note(replace(data, clock_by="", clock_trusted=None)) == "clock not checked"
    assert clock_note(replace(data, clock_by="ntp")) == ""
    today = replace(data, updated=datetime(2026, 11, 30, 21, 30))
    assert clock_note(today) == "time from phones 19:05"  # the same day: the time is enough on a small panel


def test_the_wall_reads_the_clock_the_web_learned(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        trusted_at = datetime(2026, 11, 30, 18, 5, tzinfo=UTC)
        clockfile.save(tmp_path, ClockState(boot=clockfile.boot_id(), trusted_at=trusted_at, trusted_by=PHONES))
        data = from_source(store, datetime(2026, 11, 30, 19, 10))
    if clockfile.synchronized():  # a machine with NTP: the Pi's own clock is trusted now
        assert data.clock_by == "ntp"
    else:
        assert (data.clock_by, data.clock_trusted) == (PHONES, datetime(2026, 11, 30, 19, 5))  # Warsaw time


@pytest.mark.parametrize("name", ["impression-7.3", "impression-4"])
def test_the_line_sits_in_the_header_and_changes_nothing_else(name: str) -> None:
    chosen = profile(name)
    trusted = replace(demo_data(), clock_by="ntp")
    unsure = replace(trusted, clock_by=PHONES, clock_trusted=datetime(2026, 11, 26, 19, 5))
    before = render(trusted, View("board", 13), chosen).convert("RGB")
    after = render(unsure, View("board", 13), chosen).convert("RGB")
    box = ImageChops.difference(before, after).getbbox()
    assert box is not None  # the line is drawn
    header_bottom = header_box(Canvas(chosen, chosen.canvas()))[0][3]  # the header's rule
    assert box[3] <= header_bottom, box  # and only in the header
    ARTIFACTS.mkdir(exist_ok=True)
    after.save(ARTIFACTS / f"wall-clock-{name}.png")


class Recording(Canvas):
    """A canvas that keeps every text as drawn (after any shortening)."""

    drawn: list[str]

    def drawn_text(
        self, xy: tuple[float, float], text: str, face: object, ink: str = "black", anchor: str = "la"
    ) -> float:
        self.drawn = [*getattr(self, "drawn", []), text]
        return super().drawn_text(xy, text, face, ink, anchor)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["impression-4", "what", "impression-5.7", "impression-7.3"])
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_a_narrow_header_keeps_the_update_time_and_the_pages_strengths_whole(name: str, orientation: str) -> None:
    """The 4" once showed "last game 26 Nov 2…" and, in portrait, no update time at all."""
    chosen = profile(name)
    canvas = Recording(chosen, chosen.canvas(orientation))
    header(canvas, demo_data(), View("board", 13), header_box(canvas)[0], "13×13 · 1/4: 56–44.25")
    assert "updated 21:30" in canvas.drawn, canvas.drawn
    assert any("56–44.25" in text for text in canvas.drawn), canvas.drawn
    assert not any("…" in text for text in canvas.drawn if text != demo_data().club_name), canvas.drawn
