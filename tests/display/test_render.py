"""The picture: the panel's own inks, legible nicknames, crowded fields, any alphabet."""

from __future__ import annotations

import json
import random
from datetime import datetime

import pytest
from PIL import Image

from display import columns
from display.canvas import Canvas
from display.demo import demo_data
from display.fonts import NICK, drawable, font, width
from display.profiles import PROFILES, Profile, profile
from display.render import render
from display.wall import View, WallData, from_board
from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.events import parse_line
from kiosk.replay import replay
from kiosk.scale import QUARTERS, fields

DEMO = demo_data()


def club(nicks: list[str], strengths: list[int] | None = None, guests: set[str] | None = None) -> WallData:
    """A 13x13 club whose magnets hang where told (quarters), members unless named as guests.

    Without strengths, the magnets gather around 30 as in a real club (few beginners, few dans).
    """
    rng = random.Random(1)
    scale = fields()

    def near(value: float) -> int:
        return min(scale, key=lambda q: abs(q - value * QUARTERS))

    magnets = tuple(
        Magnet(nick, 13, strengths[i] if strengths else near(min(54.0, max(0.0, rng.gauss(30, 9)))),
               "guest" if guests and nick in guests else "member")
        for i, nick in enumerate(nicks)
    )
    return WallData(magnets=magnets)


def plan_for(data: WallData, panel: Profile, orientation: str = "landscape") -> columns.Layout:
    """The columns' layout the board page uses (with the full side panel, or a slim one when crowded)."""
    from display.render import header, split

    canvas = Canvas(panel, panel.canvas(orientation))
    body = header(canvas, data, View("board", 13))
    band_list = columns.bands(data.top, panel.colourful)
    magnets = data.on_size(13)
    plan = columns.layout(magnets, band_list, canvas, split(canvas, body, slim=False)[0])
    if plan.crowded:
        plan = columns.layout(magnets, band_list, canvas, split(canvas, body, slim=True)[0])
    return plan


def labels(plan: columns.Layout) -> list[columns.Label]:
    """Every label drawn, "+N" counts included."""
    return [label for column in plan.columns for item in column for line in item.lines for label in line
            if label.field is None]


def shown(plan: columns.Layout) -> int:
    """How many magnets the layout accounts for: drawn, or counted in a "+N"."""
    count = plan.hidden
    for label in labels(plan):
        count += 1 if label.magnet is not None else int(label.text[1:])
    return count


def short_nicks(count: int = 120, seed: int = 3) -> list[str]:
    """Nicknames as clubs use them: one or two short words, 4 to 6 letters."""
    rng = random.Random(seed)
    syllables = ["ka", "to", "mi", "ra", "ze", "lu", "po", "ny", "be", "da", "sa", "wo"]
    found: set[str] = set()
    while len(found) < count:
        found.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 3))).capitalize())
    return sorted(found)


SHORT_NICKS = short_nicks()


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_every_page_is_drawn_in_exactly_the_panels_inks(name: str, orientation: str) -> None:
    panel = profile(name)
    for page in ("board", "handicap", "week"):
        image = render(DEMO, View(page, 13), panel, orientation)
        assert image.mode == "P"
        assert image.size == panel.canvas(orientation)
        assert image.getpalette() == panel.palette()
        low, high = image.getextrema()
        assert low >= 0 and high < len(panel.inks)  # no in-between shades: nothing to dither


def test_nicknames_are_at_least_14_px_on_the_7_3_panel_and_scaled_on_the_others() -> None:
    assert profile("impression-7.3").nick_px == 14
    assert profile("impression-13.3").nick_px == 28
    for name in PROFILES:
        for data in (DEMO, club(SHORT_NICKS)):
            plan = plan_for(data, profile(name))
            assert plan.type.nick.size >= profile(name).nick_px >= 12


def test_the_demo_club_gets_larger_type_than_the_minimum() -> None:
    plan = plan_for(DEMO, profile("impression-7.3"))
    assert plan.type.nick.size > 14
    assert shown(plan) == len(DEMO.on_size(13))
    assert all(label.magnet is not None for label in labels(plan))  # no "+N": every magnet drawn


def test_120_magnets_all_show_on_the_7_3_and_13_3_panels() -> None:
    data = club(SHORT_NICKS)
    for name in ("impression-7.3", "impression-13.3"):
        plan = plan_for(data, profile(name))
        drawn = [label.magnet.nick for label in labels(plan) if label.magnet is not None]
        assert sorted(drawn) == sorted(SHORT_NICKS), name
        image = render(data, View("board", 13), profile(name))
        assert image.size == profile(name).canvas()


def test_a_field_holding_many_magnets_stays_readable() -> None:
    nicks = [f"Player {n}" for n in range(40)]
    data = club(nicks, strengths=[20 * QUARTERS] * 40)
    for name in ("impression-7.3", "what"):
        plan = plan_for(data, profile(name))
        assert plan.type.nick.size >= profile(name).nick_px
        assert shown(plan) == 40  # each one drawn, or counted in "+N"


def test_a_small_panel_counts_what_it_cannot_show() -> None:
    data = club([f"Gracz {n}" for n in range(120)])
    plan = plan_for(data, profile("what"))
    assert plan.type.nick.size >= 12
    assert shown(plan) == 120


def test_long_names_are_shortened_with_an_ellipsis() -> None:
    long = "Grzegorz Brzęczyszczykiewicz z Chrząszczyżewoszyc"
    plan = plan_for(club([long, "Ola"]), profile("impression-7.3"))
    texts = [label.text for label in labels(plan)]
    assert any(text.endswith("…") and long.startswith(text[:-1]) for text in texts)
    assert all(label.width <= plan.column_width for label in labels(plan))


def test_names_in_any_alphabet_render_and_a_missing_glyph_never_crashes() -> None:
    nicks = ["Żaneta", "Łukasz", "Řehoř", "Šárka", "Größe", "Дмитрий", "Ёжик", "Kot 🐈", "🐈", "☺ Uśmiech"]
    data = club(nicks)
    image = render(data, View("board", 13), profile("impression-7.3"))
    assert image.size == (800, 480)
    face = font(NICK, 16)
    assert drawable("Kot 🐈", face) == "Kot"  # no empty box on the wall
    assert drawable("🐈", face) == "?"
    for nick in nicks[:7]:
        assert drawable(nick, face) == nick  # the vendored font has every letter


def test_an_empty_club_says_so() -> None:
    empty = render(WallData(), View("board", 13), profile("impression-7.3"))
    one = render(club(["Ola"]), View("board", 13), profile("impression-7.3"))
    assert empty.size == one.size == (800, 480)
    assert empty.tobytes() != one.tobytes()
    # The empty board still has its header and QR code: some ink, mostly paper.
    histogram = empty.histogram()
    assert 0 < sum(histogram[1:]) < histogram[0]


def test_empty_stretches_are_compressed_but_every_field_with_a_magnet_shows() -> None:
    strengths = [0, 20 * QUARTERS, 21 * QUARTERS, 28 * QUARTERS, 33 * QUARTERS + 2, 47 * QUARTERS + 3, 56 * QUARTERS]
    data = club([f"P{q}" for q in strengths], strengths=strengths)
    plan = plan_for(data, profile("impression-7.3"))
    rows = [item.field for column in plan.columns for item in column if item.kind == "row"]
    assert sorted(rows) == sorted(strengths)
    gaps = [item for column in plan.columns for item in column if item.kind == "gap"]
    assert gaps  # 21 → 28 skips fields: a gap mark, not six empty rows


def test_each_column_has_its_own_colour_and_black_and_red_panels_use_patterns() -> None:
    colourful = columns.bands(56 * QUARTERS, colourful=True)
    assert len({(b.ink, b.header) for b in colourful}) == len(colourful)
    two_ink = columns.bands(56 * QUARTERS, colourful=False)
    assert {b.ink for b in two_ink} <= {"black", "red"}
    assert len({(b.ink, b.header) for b in two_ink}) == len(two_ink)
    assert {b.title for b in colourful} == {"0–9", "10–19", "20–29", "30–39", "40–49", "50–56"}


def test_guests_are_marked() -> None:
    members = render(club(["Ola", "Kuba"], [80, 80]), View("board", 13), profile("impression-7.3"))
    with_guest = render(club(["Ola", "Kuba"], [80, 80], guests={"Kuba"}), View("board", 13),
                        profile("impression-7.3"))
    assert members.tobytes() != with_guest.tobytes()


def test_the_week_page_names_climbers_and_milestones() -> None:
    lines = [
        {"type": "player", "at": "2026-11-02T18:00", "nick": "Ola", "size": 13, "status": "member", "strength": 30},
        {"type": "player", "at": "2026-11-02T18:00", "nick": "Kuba", "size": 13, "status": "member",
         "strength": 31.5},
        {"type": "game", "at": "2026-11-24T19:00", "size": 13, "players": ["Ola", "Kuba"], "winner": "Ola",
         "by": "resignation"},
    ]
    board = replay([parse_line(json.dumps(line)) for line in lines])
    data = from_board(board, Config(), datetime(2026, 11, 26, 20, 0))
    from display.pages import milestones
    from kiosk.board import climbers

    assert climbers(data.week)[0][:2] == ("Ola", 13)
    assert milestones(data) == ["Ola and Kuba now play even"]
    image = render(data, View("week", 13), profile("impression-7.3"))
    assert image.getextrema()[1] > 0


def test_a_portrait_panel_draws_a_tall_picture() -> None:
    image = render(DEMO, View("board", 13), profile("impression-7.3"), "portrait")
    assert image.size == (480, 800)
    assert isinstance(image, Image.Image)


def test_the_wall_speaks_the_clubs_language() -> None:
    from dataclasses import replace

    english = render(DEMO, View("week", 13), profile("impression-7.3"))
    polish = render(replace(DEMO, language="pl"), View("week", 13), profile("impression-7.3"))
    assert english.tobytes() != polish.tobytes()
    for page in ("board", "handicap"):
        render(replace(DEMO, language="pl"), View(page, 9), profile("what"))


def test_a_sparse_board_draws_long_nicknames_whole() -> None:
    """Fifteen magnets in four columns: plenty of room, so no nickname is cut."""
    nicks = ["Bartłomiej", "Agnieszka", "Weronika Ś.", "Małgorzata", "Ola", "Kuba", "Grzegorz", "Łucja",
             "Paweł", "Mikołaj", "Natalia", "Dawid", "Bianka", "Żaneta", "Krzyś"]
    strengths = [q * QUARTERS // 2 for q in (81, 62, 57, 50, 44, 93, 85, 78, 73, 69, 60, 56, 49, 44, 26)]
    data = club(nicks, strengths)
    for name in ("impression-7.3", "impression-13.3", "impression-5.7"):
        plan = plan_for(data, profile(name))
        texts = {label.magnet.nick: label.text for label in labels(plan) if label.magnet is not None}
        assert texts == {nick: nick for nick in nicks}, name  # "Bartłomiej", not "Bartło…"
        assert not plan.crowded and plan.type.nick.size > profile(name).nick_px
        assert all(label.width <= plan.column_width for label in labels(plan))


@pytest.mark.parametrize("name", list(PROFILES))
def test_the_demo_club_cuts_only_names_longer_than_a_magnet(name: str) -> None:
    plan = plan_for(DEMO, profile(name))
    kind = plan.type
    longest = kind.widest_label - 2 * (kind.frame + kind.pad)
    for label in labels(plan):
        whole = drawable(label.magnet.nick, kind.nick) if label.magnet is not None else label.text
        if label.text != whole:  # "Grzegorz Brzęczyszczykiewicz" may be cut, "Bartłomiej" may not
            assert width(whole, kind.nick) > longest, whole
