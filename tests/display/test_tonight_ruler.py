"""Tonight's ruler: who is here on a ruler of their fields, names read across the room, each
player's opponent and handicap, the evening's arrows; the first page while the club is open."""

from __future__ import annotations

import itertools
import json
from datetime import datetime, time

import pytest
from test_refresh import Clock, Screen
from wall_clubs import ANY_NAMES, LONG_NAMES, RULER_NAMES, any_evening, ruler_evening

from display.canvas import Canvas
from display.fonts import cap_height
from display.profiles import PROFILES, SMALLEST_CAP_MM, profile
from display.refresh import Wall
from display.render import header, header_box, ruler_pages, tonight_pages
from display.settings import DisplaySettings
from display.tonight_ruler import NAME_MM, handicap_words, ink_reach, ruler_page, shown_on
from display.wall import View, WallData
from kiosk.evening import club_evening
from kiosk.events import parse_line
from kiosk.scale import arrows_between, format_strength
from kiosk.store import Store

LARGE = [name for name, panel in PROFILES.items() if shown_on(panel)]


class Recording(Canvas):
    """A canvas that keeps every text as drawn (after any shortening with an ellipsis)."""

    drawn: list[str]

    def drawn_text(
        self, xy: tuple[float, float], text: str, face: object, ink: str = "black", anchor: str = "la"
    ) -> float:
        self.drawn = [*getattr(self, "drawn", []), text]
        return super().drawn_text(xy, text, face, ink, anchor)  # type: ignore[arg-type]


def pages_of(data: WallData, name: str, orientation: str = "landscape") -> list[tuple[list[dict], list[str]]]:
    """Every page's layout report and drawn texts, checked for what always holds: inside the picture, apart,
    nothing under 2 mm, nothing cut with an ellipsis (the header included)."""
    panel = profile(name)
    w, h = panel.canvas(orientation)
    found = []
    for part in range(ruler_pages(data, 13, panel, orientation)):
        canvas = Recording(panel, panel.canvas(orientation))
        top, body = header_box(canvas)
        _, labels = ruler_page(canvas, data, 13, body, part)
        header(canvas, data, View("ruler", 13, part), top)
        for _, face in canvas.texts:
            assert panel.px_to_mm(cap_height(face)) >= SMALLEST_CAP_MM, name
        boxes = sorted(label["box"] for label in labels)
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 < w and 0 <= y0 < y1 < h, (name, orientation, (x0, y0, x1, y1))
        for index, a in enumerate(boxes):
            for b in boxes[index + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (name, orientation, a, b)
        assert not [text for text in canvas.drawn if "…" in text], (name, orientation)
        found.append((labels, canvas.drawn))
    return found


def names_drawn(pages: list[tuple[list[dict], list[str]]]) -> dict[str, str]:
    """Each player's name as drawn: its lines put together."""
    drawn: dict[str, str] = {}
    owner = ""
    for labels, _ in pages:
        for label in labels:
            if label["kind"] == "name":
                if label["nicks"]:
                    owner = label["nicks"][0]
                    assert owner not in drawn, f"{owner} drawn twice"
                    drawn[owner] = ""
                drawn[owner] += label["text"]
    return drawn


@pytest.mark.parametrize("players", [10, 18, 25])
@pytest.mark.parametrize("language", ["en", "pl"])
def test_an_evening_of_10_to_25_fits_one_page_of_the_73_with_names_5_mm_tall(players: int, language: str) -> None:
    data = ruler_evening(players, language)
    panel = profile("impression-7.3")
    pages = pages_of(data, "impression-7.3")
    assert len(pages) == 1
    names = [label for label in pages[0][0] if label["kind"] == "name"]
    assert names and min(panel.px_to_mm(label["cap_height_px"]) for label in names) >= NAME_MM
    assert data.tonight is not None
    assert names_drawn(pages) == {nick: nick for nick in data.tonight.here}


def one_page_whole(data: WallData, orientation: str) -> list[tuple[list[dict], list[str]]]:
    """The 7.3" ruler of an evening: one page, names at least 5 mm, every player once and whole."""
    panel = profile("impression-7.3")
    pages = pages_of(data, "impression-7.3", orientation)  # inside the picture, apart, nothing cut
    assert len(pages) == 1, orientation
    names = [label for label in pages[0][0] if label["kind"] in ("name", "mark")]
    assert min(panel.px_to_mm(label["cap_height_px"]) for label in names) >= NAME_MM
    assert data.tonight is not None
    assert names_drawn(pages) == {nick: nick for nick in data.tonight.here}
    return pages


@pytest.mark.parametrize("seed", range(36))
def test_any_evening_draws_every_player_once_whole_5_mm_and_their_opponent_in_at_most_two_pages(seed: int) -> None:
    """10 to 25 players on any fields (each on one of their own, a handful, three), nothing or everything played
    tonight, English or Polish, up to four names of the longest a nickname may be (30 characters)."""
    data = any_evening(seed)
    panel = profile("impression-7.3")
    pages = pages_of(data, "impression-7.3")  # inside the picture, apart, nothing cut
    assert len(pages) <= 2
    labels = [label for page, _ in pages for label in page]
    names = [label for label in labels if label["kind"] in ("name", "mark")]
    assert min(panel.px_to_mm(label["cap_height_px"]) for label in names) >= NAME_MM
    assert data.tonight is not None
    assert names_drawn(pages) == {nick: nick for nick in data.tonight.here}
    for pairing in data.tonight.pairs(data.magnets, 13).suggestion.pairs:  # a join, or "vs …" beside each
        a, b = (side.nick for side in pairing.sides)
        joins = [label for label in labels if label["kind"] == "join" and set(label["nicks"]) == {a, b}]
        named = {label["nicks"][0] for label in labels if label["kind"] == "pair" and len(label["nicks"]) == 1}
        assert joins or {a, b} <= named, (a, b)


@pytest.mark.parametrize("seed", range(32))
def test_an_evening_of_10_to_25_on_fields_6_to_32_fits_one_page_of_the_73(seed: int) -> None:
    """The ruler's evenings of every size from 10 to 25, in English and Polish, a third of them with a game."""
    one_page_whole(ruler_evening(10 + seed % 16, ["en", "pl"][seed % 2], seed=seed), "landscape")


@pytest.mark.parametrize("seed", range(24))
def test_any_evening_of_25_with_names_of_up_to_13_letters_fits_one_page_of_the_73(seed: int) -> None:
    """25 players on any fields (each on a field of their own, a handful, three), nothing or everyone played."""
    one_page_whole(any_evening(seed, players=25, longest=0), "landscape")


@pytest.mark.parametrize("players", [10, 18, 25])
@pytest.mark.parametrize("seed", range(4))
def test_25_players_on_25_fields_or_on_three_fit_one_page_either_way_up(players: int, seed: int) -> None:
    """The ruler evenings of every size, mounted either way: on fields 6–32, and the same names on three fields."""
    one_page_whole(ruler_evening(players, ["en", "pl"][seed % 2], seed=seed), "landscape")
    if players < 25:
        one_page_whole(ruler_evening(players, "pl", seed=seed), "portrait")


@pytest.mark.parametrize("name", LARGE)
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@pytest.mark.parametrize("players", [10, 18, 25])
def test_every_player_here_is_on_the_ruler_once_whole_and_at_least_5_mm_on_every_large_panel(
    name: str, orientation: str, players: int
) -> None:
    data = ruler_evening(players, "pl")
    pages = pages_of(data, name, orientation)
    assert data.tonight is not None
    assert names_drawn(pages) == {nick: nick for nick in data.tonight.here}  # whole, each once, nobody cut
    panel = profile(name)
    for labels, _ in pages:
        for label in labels:
            if label["kind"] in ("name", "mark"):
                assert panel.px_to_mm(label["cap_height_px"]) >= NAME_MM, (name, label)


@pytest.mark.parametrize("name", ["impression-7.3", "impression-13.3"])
def test_rows_one_ink_apart_hold_every_script_the_names_are_written_in(name: str) -> None:
    """Rows of names are their ink's height apart, not a line of type's: no letter of any name (Polish, Czech,
    Cyrillic, CJK, hangul, emoji from the fallback fonts) reaches beyond it, so two rows never touch."""
    from PIL import Image, ImageDraw

    from display.fonts import NICK, runs

    panel = profile(name)
    face = Canvas(panel, panel.canvas()).face(NICK, NAME_MM)
    above, below = ink_reach(face)
    ascent, descent = face.getmetrics()
    assert above + below < ascent + descent  # else the test proves nothing
    for nick in (*RULER_NAMES, *LONG_NAMES, *ANY_NAMES, "Řehoř Ščípek", "Jürgen Größe", "Ёжик Щукин"):
        picture = Image.new("1", (2000, 3 * (ascent + descent)), 0)
        draw = ImageDraw.Draw(picture)
        x, baseline = 0.0, 2 * ascent
        for part, run_face in runs(nick, face):
            draw.text((x, baseline), part, font=run_face, fill=1, anchor="ls")
            x += run_face.getlength(part)
        box = picture.getbbox()
        assert box is not None and baseline - above <= box[1] and box[3] <= baseline + below, (nick, box)


def test_the_ruler_has_only_the_fields_the_players_hang_on_strongest_first_with_the_strength_between() -> None:
    data = ruler_evening(18)
    assert data.tonight is not None
    pairs = data.tonight.pairs(data.magnets, 13)
    strengths = sorted(
        {side.strength for pairing in pairs.suggestion.pairs for side in pairing.sides}
        | ({pairs.suggestion.bye.strength} if pairs.suggestion.bye else set()),
        reverse=True,
    )
    (labels, _), *_ = pages_of(data, "impression-7.3")
    fields = [label["text"] for label in labels if label["kind"] == "field"]
    shown = list(dict.fromkeys(fields))  # a field going on in a new row has its tick again
    assert shown == [format_strength(q) for q in strengths]
    gaps = [label["text"] for label in labels if label["kind"] == "gap"]
    folded = [
        "−" + format_strength(high - low)
        for high, low in itertools.pairwise(strengths)
        if arrows_between(low, high) > 1
    ]
    assert gaps == folded and gaps  # "−3": the strength between two fields with nobody here between them


def test_each_player_reads_their_opponent_and_the_handicap() -> None:
    """Partners side by side are joined by = (even) or – with the handicap once after them; a partner elsewhere
    is named under each ("vs Ola · 1 move + 4 prisoners"); ○ and ● say who takes White."""
    for players in (10, 18, 25):
        data = ruler_evening(players)
        assert data.tonight is not None
        evening = data.tonight.pairs(data.magnets, 13)
        (labels, _), *_ = pages_of(data, "impression-7.3")
        joins = {frozenset(label["nicks"]): label["text"] for label in labels if label["kind"] == "join"}
        words = {
            frozenset(label["nicks"]): " ".join(label["words"].split())
            for label in labels
            if label["kind"] == "pair" and label["nicks"]
        }
        stones = {label["nicks"][0]: label["text"] for label in labels if label["kind"] == "stone"}
        said = {
            label["nicks"][0]: label["words"]
            for label in labels
            if label["kind"] == "pair" and len(label["nicks"]) == 1
        }
        for pairing in evening.suggestion.pairs:
            a, b = (side.nick for side in pairing.sides)
            handicap = handicap_words(pairing.handicap, "en")
            together = frozenset((a, b))
            if together in joins:
                assert joins[together] == ("=" if pairing.handicap.even else "–")
                if not pairing.handicap.even:
                    assert words[together] == handicap
            else:  # each names the other, and the handicap
                assert said[a] == f"vs {b} · {handicap}" and said[b] == f"vs {a} · {handicap}", (a, b)
            if not pairing.handicap.even:  # White's stone before White's name, Black's before Black's
                assert pairing.white is not None and pairing.black is not None
                assert stones[pairing.white.nick] == "○" and stones[pairing.black.nick] == "●"
            else:
                assert a not in stones and b not in stones


def test_the_evenings_moves_are_large_arrows_before_the_names() -> None:
    data = ruler_evening(18)
    assert data.tonight is not None
    moved: dict[str, int] = {}
    first: dict[str, int] = {}
    for game in data.tonight.played():
        for nick, move in game.moves.items():
            first.setdefault(nick, move.before)
            moved[nick] = arrows_between(first[nick], move.after)
    expected = {nick: ("↑" if n > 0 else "↓") + (str(abs(n)) if abs(n) > 1 else "") for nick, n in moved.items() if n}
    assert expected
    (labels, _), *_ = pages_of(data, "impression-7.3")
    marks = {label["nicks"][0]: label["text"] for label in labels if label["kind"] == "mark"}
    assert marks == expected
    panel = profile("impression-7.3")
    assert all(panel.px_to_mm(label["cap_height_px"]) >= NAME_MM for label in labels if label["kind"] == "mark")


def test_a_larger_panel_or_a_smaller_evening_gets_larger_names() -> None:
    def smallest(players: int, name: str) -> float:
        (labels, _), *_ = pages_of(ruler_evening(players), name)
        return min(profile(name).px_to_mm(label["cap_height_px"]) for label in labels if label["kind"] == "name")

    assert smallest(25, "impression-13.3") > smallest(25, "impression-7.3") >= NAME_MM
    assert smallest(10, "impression-7.3") > smallest(25, "impression-7.3")


# --- the first page while the club is open -----------------------------------------------------------------

ALL = [
    {"type": "player", "at": "2026-11-02T18:00", "nick": nick, "size": 13, "status": "member", "strength": strength}
    for nick, strength in (("Bianka", 24), ("Czarek", 22), ("Żaneta", 18), ("Łukasz", 17))
]


def wall_at(store: Store, start: datetime, panel: str = "impression-7.3", **chosen: object) -> tuple[Wall, Clock]:
    for line in ALL:
        store.record(parse_line(json.dumps(line)))
    clock = Clock(start)
    timing: dict[str, object] = {"debounce": 20, "min_interval": 60, "quiet_from": None, "quiet_until": None}
    settings = DisplaySettings(**{**timing, **chosen})  # type: ignore[arg-type]
    wall = Wall(store, Screen(panel), settings, monotonic=clock.monotonic, now=clock.now)
    return wall, clock


def check_in(store: Store, moment: datetime, *nicks: str) -> None:
    for nick in nicks:
        store.check_in(club_evening(store.config, moment)[0], nick)


@pytest.mark.parametrize(
    ("panel", "first"),
    [
        ("impression-7.3", "ruler"),
        ("impression-13.3", "ruler"),
        ("what", "tonight"),
        ("impression-4", "tonight"),
        ("impression-5.7", "tonight"),
    ],
)
def test_while_the_club_is_open_the_first_page_is_tonights(store: Store, panel: str, first: str) -> None:
    start = datetime(2026, 11, 5, 19, 0)
    check_in(store, start, "Bianka", "Czarek", "Żaneta")
    wall, _ = wall_at(store, start, panel)
    assert wall.refresh() and wall.view == View(first, 13)


def test_outside_club_hours_the_board_pages_as_before(store: Store) -> None:
    start = datetime(2026, 11, 5, 12, 0)  # noon: the club opens at 17:00
    check_in(store, start, "Bianka", "Czarek")  # an early check-in for the evening
    wall, _ = wall_at(store, start)
    assert wall.refresh() and wall.view == View("board", 13)


def test_nobody_here_yet_leaves_the_board_up(store: Store) -> None:
    wall, _ = wall_at(store, datetime(2026, 11, 5, 19, 0))
    assert wall.refresh() and wall.view == View("board", 13)


def test_the_first_check_in_brings_the_ruler_and_the_club_closing_takes_it_away(store: Store) -> None:
    start = datetime(2026, 11, 5, 21, 0)
    wall, clock = wall_at(store, start)
    assert wall.refresh() and wall.view.page == "board"
    check_in(store, start, "Bianka")  # no history written: the change counter moves
    wall.tick()
    clock.wait(61)
    assert wall.tick() and wall.view == View("ruler", 13)
    clock.wait(6 * 3600 + 60)  # 03:01: the evening is over, nothing written
    wall.tick()
    clock.wait(61)
    wall.tick()
    assert wall.view.page == "board"


def test_button_a_shows_the_board_and_the_page_timer_comes_back_to_tonight(store: Store) -> None:
    start = datetime(2026, 11, 5, 19, 0)
    check_in(store, start, "Bianka", "Czarek")
    wall, clock = wall_at(store, start, page_advance=600)
    assert wall.refresh() and wall.view == View("ruler", 13)
    wall.press("A")
    assert wall.tick() and wall.view == View("board", 13)
    clock.wait(601)  # the board had its turn: tonight again
    assert wall.tick() and wall.view == View("ruler", 13)
    clock.wait(601)  # and the board again: during the evening both are on the wall in turn, tonight's first
    assert wall.tick() and wall.view == View("board", 13)


def test_without_the_page_timer_tonight_comes_back_after_a_look_at_the_board(store: Store) -> None:
    start = datetime(2026, 11, 5, 19, 0)
    check_in(store, start, "Bianka", "Czarek")
    wall, clock = wall_at(store, start, page_advance=0, page_timeout=300)
    assert wall.refresh() and wall.view == View("ruler", 13)
    wall.press("A")
    assert wall.tick() and wall.view == View("board", 13)
    clock.wait(299)
    assert not wall.tick() and wall.view == View("board", 13)
    clock.wait(2)
    assert wall.tick() and wall.view == View("ruler", 13)


def test_the_ruler_is_drawn_in_the_panels_inks_and_says_when_it_was_updated() -> None:
    from display.render import render

    data = ruler_evening(18)
    for name in LARGE:
        panel = profile(name)
        image = render(data, View("ruler", 13), panel)
        assert image.mode == "P" and max(index for _, index in image.getcolors(256) or []) < len(panel.inks)
    assert time(21, 30) == (data.updated.time() if data.updated else None)


def test_the_wall_closes_the_font_faces_of_pages_drawn_at_many_sizes(store: Store) -> None:
    """Each size of type is a face mapping its font file anew (goal 8: the 13.3" under 80 MB): the faces of
    the pages drawn before are closed before the next picture once more than FACES_KEPT are open."""
    from display.fonts import faces_open
    from display.refresh import FACES_KEPT, forget_faces

    start = datetime(2026, 11, 5, 19, 0)
    for index, nick in enumerate(RULER_NAMES[:25]):  # Polish, Cyrillic, CJK, emoji: the fallback fonts too
        line = {"type": "player", "at": "2026-11-02T18:00", "nick": nick, "size": 13, "status": "member"}
        store.record(parse_line(json.dumps({**line, "strength": 8 + index})))
        check_in(store, start, nick)
    wall, clock = wall_at(store, start, "impression-13.3")
    forget_faces()  # as a fresh process starts
    most = 0
    for button in ["D", "A", "B", "B", "C", "C", "A", "B", "C"]:  # the ruler, the board, the tables, tonight
        wall.press(button)
        assert wall.tick()
        most = max(most, faces_open())
        clock.wait(1)
    assert most <= FACES_KEPT + 12, most  # what one page opens beyond those kept (49 if never closed)


SMALL = [name for name, panel in PROFILES.items() if not shown_on(panel)]


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("players", [10, 18, 25])
def test_a_small_panel_shows_tonights_pairs_whole_every_player_once_nothing_cut(name: str, players: int) -> None:
    """Goal 7: the 5.7", the 4" and the wHAT show the pairs (display/tonight.py) as tonight's first page."""
    from display.tonight import tonight_page

    data = ruler_evening(players, "pl")
    assert data.tonight is not None
    panel = profile(name)
    assert set(SMALL) == {"impression-5.7", "impression-4", "what"}
    for orientation in ("landscape", "portrait"):
        assert not shown_on(panel, orientation)
        nicks: list[str] = []
        drawn: list[str] = []
        for part in range(tonight_pages(data, 13, panel, orientation)):
            canvas = Recording(panel, panel.canvas(orientation))
            top, body = header_box(canvas)
            _, labels = tonight_page(canvas, data, 13, body, part)
            header(canvas, data, View("tonight", 13, part), top)
            nicks += [n for label in labels if label["kind"] in ("pair", "bye", "waiting") for n in label["nicks"]]
            drawn += canvas.drawn
        assert sorted(nicks) == sorted(data.tonight.here), (name, orientation)
        assert not [text for text in drawn if "…" in text], (name, orientation)


def test_a_small_panel_writes_an_even_pair_on_one_line_and_what_equals_means_once() -> None:
    """More pairs on a page of the 4": "Ala = Ola" rather than the names and "Even game: nigiri, komi 6.5"."""
    from display.tonight import tonight_page

    data = ruler_evening(25, "en")
    assert data.tonight is not None
    pairs = data.tonight.pairs(data.magnets, 13).suggestion.pairs
    even = [p for p in pairs if p.handicap.even]
    assert even and len(even) < len(pairs)
    labels: list[dict] = []
    for name in ("impression-4", "impression-7.3"):
        panel = profile(name)
        labels = []
        for part in range(tonight_pages(data, 13, panel)):
            canvas = Canvas(panel, panel.canvas())
            labels += tonight_page(canvas, data, 13, header_box(canvas)[1], part)[1]
        handicaps = [label["text"] for label in labels if label["kind"] == "handicap"]
        legend = [label["text"] for label in labels if label["kind"] == "legend"]
        if name == "impression-4":
            pair_lines = " ".join(label["text"] for label in labels if label["kind"] == "pair")
            for pairing in even:
                a, b = (side.nick for side in pairing.sides)
                assert f"{a} = {b}" in pair_lines or f"{a} =" in pair_lines, (a, b)
            assert not any(text.startswith("Even game") for text in handicaps)
            assert " ".join(legend) == "Ala = Ola: an even game (nigiri, komi 6.5)"
            assert len(handicaps) >= len(pairs) - len(even)  # each handicap game keeps its line
        else:  # the 7.3"'s tonight page (button C) is as before
            assert sum(text.startswith("Even game") for text in handicaps) == len(even) and not legend
