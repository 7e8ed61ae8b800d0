"""The wall's tonight page: what it shows, that everyone is on it legibly, and when button C shows it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, time
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from test_refresh import PLAYERS, Clock, Screen
from wall_clubs import NOW, TONIGHT_HERE, tonight_data

from display.buttons import Buttons
from display.canvas import Canvas
from display.cli import render_command
from display.fonts import NICK, cap_height, drawable, font, runs
from display.profiles import NAME_CAP_MM, PROFILES, SMALLEST_CAP_MM, profile
from display.refresh import Wall
from display.render import header, header_box, render, tonight_pages, tonight_report
from display.settings import DisplaySettings
from display.tonight import Tonight, evening, tonight_page
from display.wall import View, WallData
from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.evening import club_evening
from kiosk.events import parse_line
from kiosk.handicap import handicap_for
from kiosk.rules import club_now
from kiosk.scale import QUARTERS
from kiosk.store import Store

NAME_KINDS = {"pair", "bye", "waiting", "result"}


def report(data: WallData, name: str, orientation: str = "landscape", size: int = 13) -> list[list[dict]]:
    """Every page's lines as the layout report lists them, checked for what always holds: inside the picture,
    apart, names at least 3 mm and nothing under 2 mm (the header too)."""
    panel = profile(name)
    width_px, height_px = panel.canvas(orientation)
    pages = []
    for part in range(len(tonight_report(data, size, panel, orientation))):
        canvas = Canvas(panel, panel.canvas(orientation))
        _, labels = tonight_page(canvas, data, size, header_box(canvas)[1], part)
        header(canvas, data, View("tonight", size, part), header_box(canvas)[0])
        for _, face in canvas.texts:  # the header's too
            assert panel.px_to_mm(cap_height(face)) >= SMALLEST_CAP_MM, name
        boxes = sorted(label["box"] for label in labels)
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 < width_px and 0 <= y0 < y1 < height_px, (name, orientation)
        for index, a in enumerate(boxes):
            for b in boxes[index + 1 :]:
                # A line's box runs from its top to its bottom edge: the next line may start where it ends.
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (name, orientation, a, b)
        for label in labels:
            if label["kind"] != "qr":
                assert panel.px_to_mm(label["cap_height_px"]) >= (
                    NAME_CAP_MM if label["kind"] in NAME_KINDS else SMALLEST_CAP_MM
                ), (name, label)
        pages.append(labels)
    return pages


def named(pages: list[list[dict]], kinds: set[str]) -> list[str]:
    """The nicknames drawn on lines of some kinds, over all pages, in order."""
    return [nick for page in pages for label in page if label["kind"] in kinds for nick in label["nicks"]]


def lines(pages: list[list[dict]], kind: str) -> list[str]:
    return [label["text"] for page in pages for label in page if label["kind"] == kind]


# --- what the page shows -----------------------------------------------------------------------------------


def test_the_page_shows_the_pairs_of_the_phones_algorithm_with_white_and_the_handicap() -> None:
    data = tonight_data()
    assert data.tonight is not None
    expected = data.tonight.pairs(data.magnets, 13).suggestion  # kiosk.tonight.for_evening, as the phone
    pages = report(data, "impression-13.3")
    pair_lines = lines(pages, "pair")
    handicaps = " ".join(lines(pages, "handicap"))  # a handicap too long for its column wraps
    assert len(expected.pairs) == 7
    for number, pairing in enumerate(expected.pairs, start=1):
        white, black = pairing.white, pairing.black
        assert white is not None and black is not None
        line = next(text for text in pair_lines if text.startswith(f"{number}. "))
        assert line.startswith(f"{number}. ○ {white.nick} –")  # White first, with a white stone
        moves, prisoners = pairing.handicap.moves, pairing.handicap.prisoners
        words = f"{moves} move{'s' if moves != 1 else ''} + {prisoners} prisoner{'s' if prisoners != 1 else ''}"
        assert f"White: {white.nick} · {words}" in handicaps, number
    assert lines(pages, "bye") == [f"Sits out this round: {expected.bye.nick}"]  # type: ignore[union-attr]


def test_every_checked_in_player_is_on_the_page_exactly_once_on_every_panel() -> None:
    data = tonight_data()
    for name in PROFILES:
        for orientation in ("landscape", "portrait"):
            pages = report(data, name, orientation)
            assert sorted(named(pages, {"pair", "bye", "waiting"})) == sorted(TONIGHT_HERE), (name, orientation)


def test_tonights_results_follow_newest_first_with_their_arrows_and_another_size_named() -> None:
    data = tonight_data()
    assert data.tonight is not None
    played = data.tonight.played()
    assert [g.at.date() for g in played] == [NOW.date()] * len(played) and len(played) >= 5
    results = lines(report(data, "impression-7.3"), "result")
    assert len(results) == len(played)  # every game of tonight, none before it
    assert results[0].startswith("さくら ↑") and "beat Ёжик" in results[0]  # 20:50, the latest
    assert results[2] == "Czarek ↑2 beat Bianka (9×9)"
    winners = [r.split(" ")[0] for r in results]
    assert winners[:5] == ["さくら", "Kot", "Czarek", "Дмитрий", "Łukasz"]


def test_the_page_speaks_polish() -> None:
    pages = report(tonight_data("pl"), "impression-7.3")
    assert lines(pages, "heading")[0].startswith("Proponowane pary")
    handicaps = " ".join(lines(pages, "handicap"))
    assert handicaps.count("Białe: ") == 7
    assert "Białe: Łukasz · 1 ruch + 12 jeńców" in handicaps and "Białe: Ёжик · 2 ruchy + 6 jeńców" in handicaps
    assert lines(pages, "bye")[0].startswith("Pauzuje w tej rundzie: ")
    assert any(text.startswith("Rozegrane dziś (") for text in lines(pages, "heading"))
    image = render(tonight_data("pl"), View("tonight", 13), profile("impression-7.3"))
    assert image.tobytes() != render(tonight_data("en"), View("tonight", 13), profile("impression-7.3")).tobytes()


def magnets_at(*strengths: tuple[str, float]) -> tuple[Magnet, ...]:
    return tuple(Magnet(nick, 13, round(value * QUARTERS), "member") for nick, value in strengths)


@pytest.mark.parametrize(
    ("language", "komi", "said"),
    [
        ("en", Fraction(13, 2), "Even game: nigiri, komi 6.5"),
        ("pl", Fraction(13, 2), "Równa partia: nigiri, komi 6,5"),  # the club writes a decimal comma
        ("en", Fraction(15, 2), "Even game: nigiri, komi 7.5"),
        ("pl", Fraction(15, 2), "Równa partia: nigiri, komi 7,5"),
    ],
)
def test_the_even_game_line_writes_the_rules_komi_in_the_clubs_language(
    monkeypatch: pytest.MonkeyPatch, language: str, komi: Fraction, said: str
) -> None:
    """The number is kiosk.handicap.KOMI's, not words typed in the catalogue."""
    monkeypatch.setattr("kiosk.handicap.KOMI", komi)
    config = Config(language=language)
    even = WallData(
        magnets=magnets_at(("Ala", 30), ("Ola", 30)), tonight=evening(config, NOW, ("Ala", "Ola")), language=language
    )
    assert lines(report(even, "impression-7.3"), "handicap") == [said]


def test_an_even_game_and_a_training_game_say_so() -> None:
    config = Config()
    assert handicap_for(0, config.size_rules[13]).even and handicap_for(160, config.size_rules[13]).training
    even = WallData(magnets=magnets_at(("Ala", 30), ("Ola", 30)), tonight=evening(config, NOW, ("Ala", "Ola")))
    pages = report(even, "impression-7.3")
    assert lines(pages, "handicap") == ["Even game: nigiri, komi 6.5"]
    assert lines(pages, "pair") == ["1. Ala – Ola"]  # nigiri: nobody is White yet
    training = WallData(magnets=magnets_at(("Max", 50), ("Ula", 10)), tonight=evening(config, NOW, ("Ula", "Max")))
    pages = report(training, "impression-7.3")
    assert lines(pages, "pair") == ["1. ○ Max – ● Ula"]
    assert "training game: White does not move" in " ".join(lines(pages, "handicap"))
    image = render(training, View("tonight", 13), profile("impression-7.3"))
    assert image.getcolors() and profile("impression-7.3").ink("red") in dict((c, n) for n, c in image.getcolors())


def test_an_evening_with_nobody_checked_in_says_how_to_check_in_with_a_code_to_the_phones_page() -> None:
    for language, nobody, how in (("en", "Nobody has checked in", "I'm here"), ("pl", "Dziś jeszcze nikt", "Jestem")):
        data = tonight_data(language, here=(), played=False)
        for name in PROFILES:
            for orientation in ("landscape", "portrait"):
                pages = report(data, name, orientation)
                # The code on the page that says "scan the code": a page later, it was lost on the 4" and the wHAT.
                texts = " ".join(label["text"] for label in pages[0])
                assert nobody in texts and how in texts, (language, name)
                codes = [label for label in pages[0] if label["kind"] == "qr"]
                assert codes and codes[0]["text"] == "http://semedori.local/tonight", name
                side = codes[0]["box"][2] - codes[0]["box"][0] + 1
                assert side >= 2 * 29  # at least two pixels a module: a phone reads it


def test_one_player_waits_for_a_partner_rather_than_sitting_out() -> None:
    data = tonight_data(here=("Ola",), played=False)
    pages = report(data, "impression-7.3")
    assert lines(pages, "waiting") == ["Waiting for a partner: Ola"]
    assert not lines(pages, "bye") and not lines(pages, "pair")
    assert any("When two players are here on 13×13" in text for text in lines(pages, "note"))


def test_cjk_and_emoji_names_are_drawn_with_the_fallback_fonts_never_as_codes_or_question_marks() -> None:
    data = tonight_data()
    panel = profile("impression-7.3")
    face = font(NICK, panel.text_px(NICK, 4.0))
    for nick in ("小龍", "さくら", "김민수", "🦊", "Kot 🐈"):
        assert drawable(nick, face) == nick  # no ‹code› substitute, no "?"
        assert any(run_face is not face for _, run_face in runs(nick, face))  # a fallback draws it
    drawn = [nick for page in report(data, "impression-7.3") for label in page for nick in label["nicks"]]
    assert {"小龍", "さくら", "김민수", "🦊", "Kot 🐈"} <= set(drawn)


def test_a_large_evening_goes_on_over_pages_and_nobody_is_hidden() -> None:
    nicks = [f"Gracz {n}" for n in range(60)]
    magnets = tuple(Magnet(nick, 13, (n % 50) * QUARTERS, "member") for n, nick in enumerate(nicks))
    data = WallData(magnets=magnets, tonight=evening(Config(), NOW, nicks))
    for name in ("impression-7.3", "impression-13.3", "what"):
        pages = report(data, name)
        assert len(pages) > 1 or name == "impression-13.3", name
        assert sorted(named(pages, {"pair", "bye", "waiting"})) == sorted(nicks), name
    seven, thirteen = len(report(data, "impression-7.3")), len(report(data, "impression-13.3"))
    assert thirteen < seven  # the 13.3" uses its room
    second = render(data, View("tonight", 13, 1), profile("impression-7.3"))
    first = render(data, View("tonight", 13, 0), profile("impression-7.3"))
    assert first.tobytes() != second.tobytes()


SCRIPTS = st.sampled_from(
    [
        "Łukasz",
        "Żaneta",
        "Дмитрий",
        "Наталья",
        "小龍",
        "囲碁の王",
        "🦊",
        "🐉 Smok",
        "Grzegorz",
        "Brzęczyszczykiewicz",
        "김민수",
        "Ёжик",
    ]
)


@st.composite
def evenings(draw: st.DrawFn) -> WallData:
    """A random evening: up to 40 players of mixed alphabets with long names, some games tonight."""
    count = draw(st.integers(0, 40))
    names: list[str] = []
    for index in range(count):
        words = draw(st.lists(SCRIPTS, min_size=1, max_size=3))
        names.append(f"{index} {' '.join(words)}"[:30])  # up to 30 characters, each nickname its own
    strengths = draw(st.lists(st.integers(0, 56 * QUARTERS), min_size=count, max_size=count))
    magnets = tuple(Magnet(nick, 13, strength, "member") for nick, strength in zip(names, strengths, strict=True))
    language = draw(st.sampled_from(["en", "pl"]))
    return WallData(magnets=magnets, tonight=evening(Config(), NOW, names), language=language)


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=evenings())
def test_any_evening_is_all_on_the_wall_legible_and_apart(name: str, orientation: str, data: WallData) -> None:
    assert data.tonight is not None
    pages = report(data, name, orientation)
    assert sorted(named(pages, {"pair", "bye", "waiting"})) == sorted(data.tonight.here)


def test_every_tonight_page_is_drawn_in_the_panels_inks_and_says_when_it_was_updated() -> None:
    data = tonight_data()
    for panel in PROFILES.values():
        for orientation in ("landscape", "portrait"):
            image = render(data, View("tonight", 13), panel, orientation)
            assert image.mode == "P" and image.getpalette() == panel.palette()
            assert image.getextrema()[1] < len(panel.inks)
    stale = render(replace(data, updated=datetime(2026, 11, 26, 20, 0)), View("tonight", 13), profile("what"))
    assert stale.tobytes() != render(data, View("tonight", 13), profile("what")).tobytes()


# --- `semedori render --page tonight` ------------------------------------------------------------------------


def test_render_writes_every_tonight_page_and_a_layout_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from display import cli

    monkeypatch.setattr(cli, "demo_data", tonight_data)  # --demo draws the fixed evening, fifteen checked in
    out = tmp_path / "wall"
    result = CliRunner().invoke(
        render_command, ["--size", "13", "--panel", "impression-7.3", "--demo", "--page", "tonight", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    layout = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    assert layout["page"] == "tonight" and round(layout["dpi"]) == 128
    assert [page["file"] for page in layout["pages"]] == ["tonight-13-1.png", "tonight-13-2.png"]
    nicks = []
    for page in layout["pages"]:
        with Image.open(out / page["file"]) as image:
            assert image.size == (800, 480)
        for label in page["names"]:
            assert set(label) >= {"kind", "nicks", "text", "box", "cap_height_px"}
            if label["kind"] in ("pair", "bye"):
                assert label["cap_height_px"] * 25.4 / layout["dpi"] >= 3.0
                nicks += label["nicks"]
    assert sorted(nicks) == sorted(TONIGHT_HERE)


def test_render_draws_tonight_from_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    with Store.open(tmp_path) as store:
        for line in PLAYERS:
            store.record(parse_line(json.dumps(line)))
        day = club_evening(store.config, club_now(store.config, datetime.now(UTC)))[0]
        store.check_in(day, "Bianka")
        store.check_in(day, "Czarek")
    out = tmp_path / "wall"
    result = CliRunner().invoke(render_command, ["--page", "tonight", "--out", str(out)])
    assert result.exit_code == 0, result.output
    layout = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    pairs = [label for label in layout["pages"][0]["names"] if label["kind"] == "pair"]
    assert [sorted(label["nicks"]) for label in pairs] == [["Bianka", "Czarek"]]


# --- button C and the refresh, against a real store --------------------------------------------------------


@pytest.fixture
def buttons_on_mock_pins() -> Iterator[MockFactory]:
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.close()
        Device.pin_factory = None


def wall_at(store: Store, start: datetime, screen: Screen | None = None, **chosen: object) -> tuple[Wall, Clock]:
    clock = Clock(start)
    timing: dict[str, object] = {
        "debounce": 20,
        "min_interval": 60,
        "quiet_from": time(23, 0),
        "quiet_until": time(7, 0),
        **chosen,
    }
    wall = Wall(
        store,
        screen or Screen(),
        DisplaySettings(**timing),  # type: ignore[arg-type]
        monotonic=clock.monotonic,
        now=clock.now,
    )
    assert wall.refresh()
    return wall, clock


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()  # the buttons pull the line to ground
    factory.pin(pin).drive_high()


def tonight_of(wall: Wall) -> Tonight:
    assert wall.data is not None and wall.data.tonight is not None
    return wall.data.tonight


def test_button_c_shows_tonight_while_the_club_is_open(store: Store, buttons_on_mock_pins: MockFactory) -> None:
    wall, _ = wall_at(store, datetime(2026, 11, 5, 19, 0))  # a Thursday, 19:00: the evening is on
    store.check_in(club_evening(store.config, datetime(2026, 11, 5, 19, 0))[0], "Bianka")
    buttons = Buttons({"A": 5, "B": 6, "C": 16, "D": 24}, wall.press)
    press(buttons_on_mock_pins, 16)
    assert wall.tick()
    assert wall.view.page == "tonight" and wall.view.size == 13
    assert tonight_of(wall).here == ("Bianka",)
    buttons.close()


@pytest.mark.parametrize("hour", [4, 12, 16])  # 04:00 is when CI runs: after the evening, in quiet hours
def test_button_c_shows_the_week_while_the_club_is_closed(
    store: Store, buttons_on_mock_pins: MockFactory, hour: int
) -> None:
    wall, _ = wall_at(store, datetime(2026, 11, 5, hour, 0))
    buttons = Buttons({"A": 5, "B": 6, "C": 16, "D": 24}, wall.press)
    press(buttons_on_mock_pins, 16)
    assert wall.tick()  # a button is answered even at night: someone stands there
    assert wall.view.page == "week"
    buttons.close()


def test_the_clubs_own_hours_decide(store: Store, buttons_on_mock_pins: MockFactory) -> None:
    store.save_config(store.config.with_changes(evening_starts=time(10, 0), evening_ends=time(14, 0)))
    wall, clock = wall_at(store, datetime(2026, 11, 7, 11, 0))  # a Saturday morning club
    buttons = Buttons({"C": 16}, wall.press)
    press(buttons_on_mock_pins, 16)
    assert wall.tick() and wall.view.page == "tonight"
    clock.wait(4 * 3600)  # 15:00: the club has closed
    wall.press("A")
    wall.tick()
    press(buttons_on_mock_pins, 16)
    assert wall.tick() and wall.view.page == "week"
    buttons.close()


def test_button_c_steps_through_tonights_pages_then_the_next_size(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        for line in PLAYERS:
            store.record(parse_line(json.dumps(line)))
        nicks = [f"Gracz {n}" for n in range(40)]
        for n, nick in enumerate(nicks):
            store.record(
                parse_line(
                    json.dumps(
                        {
                            "type": "player",
                            "at": "2026-11-02T18:00",
                            "nick": nick,
                            "size": 13,
                            "status": "member",
                            "strength": n,
                        }
                    )
                )
            )
        start = datetime(2026, 11, 5, 19, 0)
        for nick in nicks:
            store.check_in(club_evening(store.config, start)[0], nick)
        wall, _ = wall_at(store, start, page_advance=0)
        wall.press("C")
        assert wall.tick()
        parts = tonight_pages(wall.data, 13, profile("impression-7.3"))  # type: ignore[arg-type]
        assert parts > 1 and wall.parts == parts
        seen = [(wall.view.page, wall.view.size, wall.view.part)]
        for _ in range(parts):
            wall.press("C")
            assert wall.tick()
            seen.append((wall.view.page, wall.view.size, wall.view.part))
        # Every page of tonight on 13x13, then on to the next size with magnets.
        assert seen == [("tonight", 13, part) for part in range(parts)] + [("tonight", 9, 0)]


def test_a_check_in_refreshes_the_tonight_page_after_a_calm(store: Store) -> None:
    start = datetime(2026, 11, 5, 19, 0)
    day = club_evening(store.config, start)[0]
    screen = Screen()
    wall, clock = wall_at(store, start, screen)
    wall.press("C")
    assert wall.tick() and wall.view.page == "tonight"
    shown = len(screen.shown)
    clock.wait(120)
    assert not wall.tick()  # nothing changed
    store.check_in(day, "Bianka")
    store.check_in(day, "Czarek")  # no history written, yet the store's one change counter moves
    assert not wall.tick()  # noticed; more players may be arriving
    clock.wait(21)
    assert wall.tick()
    assert len(screen.shown) == shown + 1
    assert tonight_of(wall).here == ("Bianka", "Czarek")
    pairs = tonight_of(wall).pairs(wall.data.magnets, 13).suggestion.pairs  # type: ignore[union-attr]
    assert [(p.white.nick if p.white else None) for p in pairs] == ["Bianka"]
    clock.wait(120)
    store.refuse(day, "Bianka", "Czarek")  # they would rather not play each other: the pair goes
    wall.tick()
    clock.wait(21)
    assert wall.tick() and len(screen.shown) == shown + 2
    store.check_out(day, "Czarek")
    clock.wait(120)
    wall.tick()
    clock.wait(21)
    assert wall.tick() and tonight_of(wall).here == ("Bianka",)


def test_the_evenings_end_empties_the_tonight_page_with_nothing_written(store: Store) -> None:
    late = datetime(2026, 11, 6, 2, 56)  # the evening of 5 November runs until 03:00
    store.check_in(club_evening(store.config, late)[0], "Bianka")
    wall, clock = wall_at(store, late, quiet_from=time(5, 0), quiet_until=time(6, 0))
    wall.press("C")
    assert wall.tick() and tonight_of(wall).here == ("Bianka",)
    counted = store.change_counter()
    clock.wait(120)  # 02:58: the same evening, nothing to draw again
    assert not wall.tick() and wall.view.page == "tonight"
    clock.wait(150)  # 03:00:30: the next evening, whose list is empty (long before the page times out)
    assert not wall.tick()  # noticed; drawn after the calm like any change
    clock.wait(21)
    assert wall.tick() and tonight_of(wall).here == ()
    assert store.change_counter() == counted  # the turn of the evening alone


def test_a_result_tonight_refreshes_the_page_and_lists_it(store: Store) -> None:
    start = datetime(2026, 11, 5, 19, 0)
    day = club_evening(store.config, start)[0]
    store.check_in(day, "Bianka")
    store.check_in(day, "Czarek")
    screen = Screen()
    wall, clock = wall_at(store, start, screen)
    wall.press("C")
    assert wall.tick()
    clock.wait(120)
    store.record(
        parse_line(
            json.dumps(
                {
                    "type": "game",
                    "at": "2026-11-05T19:01",
                    "size": 13,
                    "players": ["Bianka", "Czarek"],
                    "winner": "Czarek",
                    "by": "resignation",
                }
            )
        )
    )
    wall.tick()
    clock.wait(21)
    assert wall.tick()
    assert [g.winner for g in tonight_of(wall).played()] == ["Czarek"]
    pages = report(wall.data, "impression-7.3")  # type: ignore[arg-type]
    assert lines(pages, "result")[0].startswith("Czarek ↑")


def test_no_refresh_in_quiet_hours_even_when_someone_checks_in(store: Store) -> None:
    start = datetime(2026, 11, 5, 22, 50)  # the evening is on until 03:00, the wall is quiet from 23:00
    day = club_evening(store.config, start)[0]
    screen = Screen()
    wall, clock = wall_at(store, start, screen)
    wall.press("C")
    assert wall.tick() and wall.view.page == "tonight"
    shown = len(screen.shown)
    clock.wait(15 * 60)  # 23:05
    store.check_in(day, "Bianka")
    for _ in range(30):
        wall.tick()
        clock.wait(60)
    assert len(screen.shown) == shown


def test_the_tonight_page_stays_up_all_evening_and_goes_back_to_the_board_once_closed(store: Store) -> None:
    start = datetime(2026, 11, 5, 21, 0)
    wall, clock = wall_at(store, start, quiet_from=None, quiet_until=None)
    wall.press("C")
    assert wall.tick() and wall.view.page == "tonight"
    clock.wait(2 * 3600)  # 23:00: results keep coming in, the page stays
    wall.tick()
    assert wall.view.page == "tonight"
    clock.wait(4 * 3600 + 1)  # 03:00:01: the evening is over
    wall.tick()
    clock.wait(61)
    wall.tick()
    assert wall.view.page == "board"


def test_tonights_pages_follow_each_other_by_themselves_but_never_at_night(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        start = datetime(2026, 11, 5, 21, 0)
        for n in range(40):
            store.record(
                parse_line(
                    json.dumps(
                        {
                            "type": "player",
                            "at": "2026-11-02T18:00",
                            "nick": f"Gracz {n}",
                            "size": 13,
                            "status": "member",
                            "strength": n,
                        }
                    )
                )
            )
            store.check_in(club_evening(store.config, start)[0], f"Gracz {n}")
        wall, clock = wall_at(store, start, page_advance=600)
        wall.press("C")
        assert wall.tick() and wall.view == View("tonight", 13, 0) and wall.parts > 1
        clock.wait(599)
        assert not wall.tick()
        clock.wait(2)
        assert wall.tick() and wall.view == View("tonight", 13, 1)
        clock.seconds += 2 * 3600  # 23:10: quiet hours, though the evening goes on
        assert not wall.tick() and wall.view.part == 1


class Recording(Canvas):
    """A canvas that keeps every text as drawn (after any shortening with an ellipsis)."""

    drawn: list[str]

    def drawn_text(
        self, xy: tuple[float, float], text: str, face: object, ink: str = "black", anchor: str = "la"
    ) -> float:
        self.drawn = [*getattr(self, "drawn", []), text]
        return super().drawn_text(xy, text, face, ink, anchor)  # type: ignore[arg-type]


def test_no_name_of_the_demo_evening_is_cut_on_any_panel() -> None:
    """A name wider than its column goes on another line or in smaller type (never under 3 mm), not "Brzęczy…"."""
    data = tonight_data("pl")
    for name, panel in PROFILES.items():
        for orientation in ("landscape", "portrait"):
            drawn = []
            for part in range(tonight_pages(data, 13, panel, orientation)):
                canvas = Recording(panel, panel.canvas(orientation))
                tonight_page(canvas, data, 13, header_box(canvas)[1], part)
                drawn += canvas.drawn
            assert not [text for text in drawn if "…" in text], (name, orientation)
            assert "Brzęczyszczykiewicz" in " ".join(drawn), (name, orientation)


def test_a_player_renamed_since_checking_in_is_named_not_dropped() -> None:
    data = tonight_data(here=(*TONIGHT_HERE, "Stary Nick"))
    pages = report(data, "impression-7.3")
    assert "Not on the board any more (renamed?): Stary Nick" in " ".join(lines(pages, "waiting"))
    assert sorted(named(pages, {"pair", "bye", "waiting"})) == sorted((*TONIGHT_HERE, "Stary Nick"))
