"""The wall's event page: tonight's event's round and standings, everyone legible, labels, button C."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_refresh import Screen
from test_wall_tonight import SCRIPTS, lines, named, wall_at  # the tonight page's own checks and clock
from wall_clubs import EVENT_SIX, demo_event, event_data

from display.canvas import Canvas
from display.fonts import NICK, cap_height, drawable, font, runs
from display.profiles import NAME_CAP_MM, PROFILES, SMALLEST_CAP_MM, profile
from display.refresh import Wall
from display.render import event_pages, event_report, header, header_box, render
from display.standings import EventWall, event_page, of_event
from display.wall import View, WallData, from_source
from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.evening import club_evening
from kiosk.events import parse_line
from kiosk.pairing import side_of
from kiosk.privacy import INITIALS, PlayerPrivacy
from kiosk.privacy import NICK as SHOW_NICK
from kiosk.scale import QUARTERS
from kiosk.services import tournaments as events
from kiosk.store import Store
from kiosk.tournament import A_WINS, B_WINS, event_standings, played_boards, points

NAME_KINDS = {"board", "result", "bye", "standing"}
THURSDAY = datetime(2026, 11, 5, 19, 0)  # the club's evening is on (17:00 to 03:00), the wall is not quiet


def report(data: WallData, name: str, orientation: str = "landscape") -> list[list[dict]]:
    """Every page's labels, checked for what always holds: inside the picture, apart, names at least 3 mm and
    nothing under 2 mm (the header too)."""
    panel = profile(name)
    width_px, height_px = panel.canvas(orientation)
    pages = []
    for part in range(event_pages(data, 13, panel, orientation)):
        canvas = Canvas(panel, panel.canvas(orientation))
        _, labels = event_page(canvas, data, header_box(canvas)[1], part)
        header(canvas, data, View("event", 13, part), header_box(canvas)[0])
        for _, face in canvas.texts:
            assert panel.px_to_mm(cap_height(face)) >= SMALLEST_CAP_MM, name
        boxes = sorted(label["box"] for label in labels)
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 < width_px and 0 <= y0 < y1 < height_px, (name, orientation)
        for index, a in enumerate(boxes):
            for b in boxes[index + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (name, orientation, a, b)
        for label in labels:
            least = NAME_CAP_MM if label["kind"] in NAME_KINDS | {"place", "number"} else SMALLEST_CAP_MM
            assert panel.px_to_mm(label["cap_height_px"]) >= least - 1e-9, (name, label)
        pages.append(labels)
    return pages


def standings_rows(pages: list[list[dict]]) -> list[tuple[str, ...]]:
    """The standings as drawn: each row's place, label, score, SOS and SODOS, read back from the report."""
    rows: list[list[str]] = []
    for page in pages:
        for label in page:
            if label["kind"] == "standing" and label["nicks"]:
                rows.append([label["nicks"][0]])
            elif label["kind"] in ("place", "number") and rows:
                rows[-1].append(label["text"])
    return [tuple(row) for row in rows]


# --- what the page shows ----------------------------------------------------------------------------------------


def test_the_page_shows_the_round_its_boards_with_white_and_the_handicap_and_the_standings() -> None:
    data = event_data()
    assert data.event is not None
    pages = report(data, "impression-7.3")
    assert lines(pages, "title") == ["Tonight's event"]
    assert "double round-robin · 13×13" in lines(pages, "note")
    assert lines(pages, "heading")[0] == "Round 4 of 10 · still playing: 1"
    event = demo_event(EVENT_SIX, {m.nick: m.strength for m in data.magnets if m.size == 13})
    boards = [b for b in played_boards(event, data.magnets, {}, Config()) if b.handicap is not None]
    on = [b for b in boards if b.seat.result is None]
    assert len(on) == 1 and len(boards) == 3
    seat, white, black, shown = on[0]
    assert white is not None and black is not None and shown is not None
    assert lines(pages, "board") == [f"{seat.board}. ○ {white} – ● {black}"]
    handicap = " ".join(lines(pages, "handicap"))
    assert handicap.startswith(f"White: {white} · {shown.moves} move")
    assert f"+ {shown.prisoners} prisoner" in handicap
    results = " ".join(lines(pages, "result"))
    for seat, *_ in boards:
        if seat.result is not None:
            winner, loser = (seat.a, seat.b) if seat.result == A_WINS else (seat.b, seat.a)
            assert f"{seat.board}. ✓ {winner} beat {loser}" in results
    expected = [
        (s.nick, f"{s.place}.", points(s.score), points(s.sos), points(s.sodos)) for s in event_standings(event)
    ]
    assert standings_rows(pages) == expected


def test_players_equal_on_score_sos_and_sodos_share_a_place() -> None:
    data = event_data(count=40)
    assert data.event is not None
    places = [s.place for s in data.event.standings]
    assert len(set(places)) < len(places)  # the demo Swiss has ties
    drawn = standings_rows(report(data, "impression-13.3"))
    assert [row[1] for row in drawn] == [f"{p}." for p in places]
    for earlier, later in zip(data.event.standings, data.event.standings[1:], strict=False):
        same = (earlier.score, earlier.sos, earlier.sodos) == (later.score, later.sos, later.sodos)
        assert (earlier.place == later.place) == same


def test_a_bye_says_it_counts_as_a_win() -> None:
    magnets = tuple(Magnet(nick, 13, (10 + 3 * n) * QUARTERS, "member") for n, nick in enumerate("ABCDE"))
    event = demo_event(tuple("ABCDE"), {m.nick: m.strength for m in magnets}, played=0)
    data = WallData(magnets=magnets, event=of_event(event, magnets, Config()))
    byes = lines(report(data, "impression-7.3"), "bye")
    assert len(byes) == 1 and byes[0].startswith("Sits out this round: ") and byes[0].endswith("(it counts as a win)")


def test_the_page_speaks_polish() -> None:
    pages = report(event_data("pl", count=40), "impression-7.3")
    assert lines(pages, "title") == ["Turniej andrzejkowy"]
    assert "system szwajcarski · 13×13" in lines(pages, "note")
    assert lines(pages, "heading")[:2] in (["Runda 4 z 11 · jeszcze grają: 10"], ["Runda 4 z 11", "jeszcze grają: 10"])
    assert "Tabela" in lines(pages, "heading")
    results = " ".join(lines(pages, "result"))
    assert " 1:0 " in results and " z " not in results  # a nickname is never declined ("wygr. z Zosia")
    assert "Białe: " in " ".join(lines(pages, "handicap"))
    header_texts = [label["text"] for page in pages for label in page if label["kind"] == "columns"]
    assert header_texts[:3] == ["Pkt", "SOS", "SODOS"]
    image = render(event_data("pl"), View("event", 13), profile("impression-7.3"))
    assert image.tobytes() != render(event_data("en"), View("event", 13), profile("impression-7.3")).tobytes()


def test_cjk_emoji_and_cyrillic_names_are_drawn_with_the_fallback_fonts() -> None:
    data = event_data(count=40)
    assert data.event is not None
    panel = profile("impression-7.3")
    face = font(NICK, panel.text_px(NICK, 3.0))
    nicks = [s.nick for s in data.event.standings]
    for nick in ("小龍", "さくら", "김민수", "🦊", "Kot 🐈", "Юлия"):
        assert nick in nicks and drawable(nick, face) == nick  # no ‹code› substitute, no "?"
    assert any(run_face is not face for _, run_face in runs("小龍", face))
    drawn = named(report(data, "impression-7.3"), {"standing"})
    assert {"小龍", "さくら", "김민수", "🦊", "Kot 🐈", "Юлия"} <= set(drawn)


@pytest.mark.parametrize("count", [6, 40])
def test_every_player_is_in_the_standings_once_and_every_board_shown_on_every_panel(count: int) -> None:
    data = event_data(count=count)
    assert data.event is not None
    players = sorted(s.nick for s in data.event.standings)
    on_boards = sorted(n for b in data.event.boards for n in (b.a, b.b) if n is not None)
    for name in PROFILES:
        for orientation in ("landscape", "portrait"):
            pages = report(data, name, orientation)
            assert sorted(named(pages, {"standing"})) == players, (name, orientation)
            assert sorted(named(pages, {"board", "result", "bye"})) == on_boards, (name, orientation)
            assert len(lines(pages, "number")) == 3 * count  # every player's score, SOS and SODOS


def test_forty_players_go_on_over_pages_on_the_7_3_and_fit_one_page_of_the_13_3() -> None:
    data = event_data(count=40)
    seven = event_pages(data, 13, profile("impression-7.3"))
    assert seven > 1 and event_pages(data, 13, profile("impression-13.3")) == 1
    first = render(data, View("event", 13, 0), profile("impression-7.3"))
    second = render(data, View("event", 13, 1), profile("impression-7.3"))
    assert first.tobytes() != second.tobytes()
    badges = [label for label in report(data, "impression-7.3")]
    assert len(badges) == seven


@st.composite
def events_on(draw: st.DrawFn) -> WallData:
    """A random event: 4 to 40 players of mixed alphabets with long names, some rounds played."""
    count = draw(st.integers(4, 40))
    names = tuple(f"{index} {' '.join(draw(st.lists(SCRIPTS, min_size=1, max_size=3)))}"[:30] for index in range(count))
    strengths = draw(st.lists(st.integers(0, 56 * QUARTERS), min_size=count, max_size=count))
    magnets = tuple(Magnet(nick, 13, strength, "member") for nick, strength in zip(names, strengths, strict=True))
    event = demo_event(
        names,
        {m.nick: m.strength for m in magnets},
        played=draw(st.integers(0, 3)),
        seed=draw(st.integers(0, 99)),
        draws=draw(st.sampled_from([0.0, 0.3])),
    )
    language = draw(st.sampled_from(["en", "pl"]))
    return WallData(magnets=magnets, event=of_event(event, magnets, Config()), language=language)


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=events_on())
def test_any_event_is_all_on_the_wall_legible_and_apart(name: str, orientation: str, data: WallData) -> None:
    assert data.event is not None
    pages = report(data, name, orientation)
    assert sorted(named(pages, {"standing"})) == sorted(s.nick for s in data.event.standings)
    assert sorted(named(pages, {"board", "result", "bye"})) == sorted(
        n for b in data.event.boards for n in (b.a, b.b) if n is not None
    )


class Recording(Canvas):
    """A canvas that keeps every text as drawn (after any shortening with an ellipsis)."""

    drawn: list[str]

    def drawn_text(
        self, xy: tuple[float, float], text: str, face: object, ink: str = "black", anchor: str = "la"
    ) -> float:
        self.drawn = [*getattr(self, "drawn", []), text]
        return super().drawn_text(xy, text, face, ink, anchor)  # type: ignore[arg-type]


def test_no_name_of_the_demo_events_is_cut_with_an_ellipsis() -> None:
    """A long name goes on another line (the standings' numbers below it), never "Brzęczy…"."""
    for count in (6, 40):
        data = event_data(count=count)
        for name, panel in PROFILES.items():
            for orientation in ("landscape", "portrait"):
                drawn = []
                for part in range(event_pages(data, 13, panel, orientation)):
                    canvas = Recording(panel, panel.canvas(orientation))
                    event_page(canvas, data, header_box(canvas)[1], part)
                    drawn += canvas.drawn
                assert not [text for text in drawn if "…" in text], (count, name, orientation)
                assert "Brzęczyszczykiewicz" in " ".join(drawn)


def test_every_event_page_is_drawn_in_the_panels_inks() -> None:
    data = event_data()
    for panel in PROFILES.values():
        image = render(data, View("event", 13), panel)
        assert image.mode == "P" and image.getpalette() == panel.palette()
        assert image.getextrema()[1] < len(panel.inks)


# --- from a real store ---------------------------------------------------------------------------------------------

CLUB = [("Łucja Kowalska", 20), ("Łukasz Kowalski", 22), ("Ваня", 10), ("小龍", 11), ("🐉 Smok", 30), ("Kasia", 16)]


def _line(**raw: object) -> object:
    return parse_line(json.dumps(raw, ensure_ascii=False))


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    """Six players on 13x13 and one on 9x9, joined on Monday 2 November 2026."""
    with Store.open(tmp_path) as store:
        for nick, strength in CLUB:
            store.record(
                _line(
                    type="player",
                    at="2026-11-02T18:00",
                    nick=nick,
                    size=13,
                    status="member",  # type: ignore[arg-type]
                    strength=strength,
                )
            )
        store.record(
            _line(
                type="player",
                at="2026-11-02T18:00",
                nick="Ola",
                size=9,
                status="member",  # type: ignore[arg-type]
                strength=20,
            )
        )
        yield store


def start_event(store: Store, nicks: list[str] | None = None, counts: bool = True) -> events.Tournament:
    evening = club_evening(store.config, THURSDAY)[0]
    sides = [side_of(store.magnets(), nick, 13) for nick, _ in CLUB if nicks is None or nick in nicks]
    return events.start(store, evening, 13, sides, counts=counts, name="Listopad")


def test_from_source_reads_tonights_open_event_and_its_results(club: Store) -> None:
    assert from_source(club, THURSDAY).event is None  # no event: the wall is as it was
    event = start_event(club)
    data = from_source(club, THURSDAY)
    assert data.event is not None and data.event.name == "Listopad" and data.event.round == 1
    assert data.event.playing == 3 and data.event.rounds == 10
    seat = event.round_seats(1)[0]
    assert seat.b is not None
    status, _ = events.record_result(club, event.id, 1, seat.board, B_WINS, "resignation", THURSDAY)
    assert status == events.SAVED
    data = from_source(club, THURSDAY)
    assert data.event is not None and data.event.playing == 2
    decided = next(b for b in data.event.boards if b.board == seat.board)
    assert decided.result == B_WINS and decided.winner == seat.b
    game = club.recent_games(1)[0]
    assert decided.white == game.white and decided.handicap == game.handicap  # as played, not as the magnets are now
    assert data.event.standings[0].nick == seat.b and data.event.standings[0].score == 1
    pages = report(data, "impression-7.3")
    assert f"{seat.b} beat {seat.a}" in " ".join(lines(pages, "result"))
    events.close(club, event.id)
    assert from_source(club, THURSDAY).event is None  # a closed event leaves the wall


def test_a_swiss_from_the_store_shows_its_next_round_once_a_round_is_done(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        nicks = [f"Gracz {n}" for n in range(12)]
        for n, nick in enumerate(nicks):
            store.record(
                _line(
                    type="player",
                    at="2026-11-02T18:00",
                    nick=nick,
                    size=13,
                    status="member",  # type: ignore[arg-type]
                    strength=10 + n,
                )
            )
        evening = club_evening(store.config, THURSDAY)[0]
        event = events.start(store, evening, 13, [side_of(store.magnets(), n, 13) for n in nicks], counts=False)
        for seat in event.round_seats(1):
            events.record_result(store, event.id, 1, seat.board, A_WINS, "resignation", THURSDAY)
        data = from_source(store, THURSDAY)
        assert data.event is not None and data.event.round == 2 and data.event.playing == 6
        assert lines(report(data, "impression-13.3"), "heading")[0] == f"Round 2 of {event.rounds} · still playing: 6"


def test_the_event_page_names_players_by_their_public_labels_never_a_hidden_nickname(club: Store) -> None:
    club.set_club_privacy(INITIALS)
    club.set_player_privacy("Kasia", PlayerPrivacy(SHOW_NICK))
    event = start_event(club)
    seat = event.round_seats(1)[0]
    events.record_result(club, event.id, 1, seat.board, A_WINS, "resignation", THURSDAY)
    data = from_source(club, THURSDAY)
    assert data.event is not None
    labels = {s.nick for s in data.event.standings}
    assert labels == {"Ł.K.", "Ł.K.²", "В.", "小.", "🐉.S.", "Kasia"}
    drawn = json.dumps([labels for _, labels in event_report(data, profile("impression-7.3"))], ensure_ascii=False)
    for nick, _ in CLUB:
        if nick != "Kasia":
            assert nick not in drawn, nick  # the nickname never reaches the wall's event page
    assert "Ł.K.²" in drawn and "Kasia" in drawn


# --- button C and the refresh ----------------------------------------------------------------------------------------


def cycle(wall: Wall, presses: int) -> list[tuple[str, int, int]]:
    seen = []
    for _ in range(presses):
        wall.press("C")
        wall.tick()
        seen.append((wall.view.page, wall.view.size, wall.view.part))
    return seen


def test_button_c_cycles_event_then_tonight_by_size_then_the_event_again(club: Store) -> None:
    wall, clock = wall_at(club, THURSDAY, page_advance=0)
    assert cycle(wall, 2) == [("tonight", 13, 0), ("tonight", 9, 0)]  # no event: as before
    start_event(club)
    assert not wall.tick()  # the event's start is a history line: the change counter shows it
    clock.wait(61)
    wall.tick()
    assert wall.data is not None and wall.data.event is not None
    assert cycle(wall, 4) == [("event", 13, 0), ("tonight", 13, 0), ("tonight", 9, 0), ("event", 13, 0)]


def test_button_c_steps_through_a_large_events_pages(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        nicks = [f"Gracz {n}" for n in range(40)]
        for n, nick in enumerate(nicks):
            store.record(
                _line(
                    type="player",
                    at="2026-11-02T18:00",
                    nick=nick,
                    size=13,
                    status="member",  # type: ignore[arg-type]
                    strength=n,
                )
            )
        evening = club_evening(store.config, THURSDAY)[0]
        events.start(store, evening, 13, [side_of(store.magnets(), n, 13) for n in nicks], counts=True)
        wall, _ = wall_at(store, THURSDAY, page_advance=0)
        wall.press("C")
        assert wall.tick() and wall.view == View("event", 13, 0)
        parts = event_pages(wall.data, 13, profile("impression-7.3"))  # type: ignore[arg-type]
        assert parts > 1 and wall.parts == parts
        seen = cycle(wall, parts)
        assert seen == [("event", 13, part) for part in range(1, parts)] + [("tonight", 13, 0)]


def test_with_the_club_closed_c_goes_from_the_event_to_the_week(club: Store) -> None:
    afternoon = datetime(2026, 11, 5, 16, 0)  # tonight's event, started before the doors open
    evening = club_evening(club.config, afternoon)[0]
    events.start(club, evening, 13, [side_of(club.magnets(), n, 13) for n, _ in CLUB], counts=True)
    wall, _ = wall_at(club, afternoon)
    assert cycle(wall, 3) == [("event", 13, 0), ("week", 13, 0), ("event", 13, 0)]


def test_an_event_result_refreshes_the_event_page_after_a_calm(club: Store) -> None:
    event = start_event(club, counts=False)  # results that do not count on the board
    screen = Screen()
    wall, clock = wall_at(club, THURSDAY, screen)
    wall.press("C")
    assert wall.tick() and wall.view.page == "event"
    shown = len(screen.shown)
    clock.wait(120)
    assert not wall.tick()  # nothing changed
    seat = event.round_seats(1)[0]
    events.record_result(club, event.id, 1, seat.board, A_WINS, "resignation", THURSDAY)
    assert not wall.tick()  # noticed; more results may follow
    clock.wait(21)
    assert wall.tick() and len(screen.shown) == shown + 1
    assert wall.data is not None and wall.data.event is not None and wall.data.event.playing == 2
    clock.wait(3 * 3600)  # 22:00: the event page stays up while the event is open
    wall.tick()
    assert wall.view.page == "event"
    events.close(club, event.id)  # the owner closes it: back to the board
    clock.wait(30)
    wall.tick()
    clock.wait(61)
    wall.tick()
    assert wall.view.page == "board"


def test_the_event_leaves_the_wall_when_the_evening_ends_with_nothing_written(club: Store) -> None:
    # No signature of the event read every turn; the refresh watches the evening while an event is up.
    club.save_config(club.config.with_changes(sleeper_weeks=0))  # no new day's sleepers to refresh for anyway
    start_event(club)
    screen = Screen()
    wall, clock = wall_at(club, THURSDAY, screen, page_advance=0)
    wall.press("C")
    assert wall.tick() and wall.view.page == "event"
    counter = club.change_counter()
    clock.wait(13 * 3600)  # 08:00 on Friday (after the quiet hours): Thursday's evening is over, its event with it
    wall.tick()
    clock.wait(61)
    wall.tick()
    assert club.change_counter() == counter  # nothing was written
    assert wall.data is not None and wall.data.event is None and wall.view.page == "board"


def test_no_refresh_in_quiet_hours_even_when_an_event_result_comes_in(club: Store) -> None:
    late = datetime(2026, 11, 5, 22, 50)  # the evening is on until 03:00, the wall is quiet from 23:00
    event = start_event(club)
    screen = Screen()
    wall, clock = wall_at(club, late, screen)
    wall.press("C")
    assert wall.tick() and wall.view.page == "event"
    shown = len(screen.shown)
    clock.wait(15 * 60)  # 23:05
    for seat in event.round_seats(1):
        events.record_result(club, event.id, 1, seat.board, A_WINS, "resignation", late)
    for _ in range(30):
        wall.tick()
        clock.wait(60)
    assert len(screen.shown) == shown


def test_the_event_pages_follow_each_other_by_themselves(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        nicks = [f"Gracz {n}" for n in range(40)]
        for n, nick in enumerate(nicks):
            store.record(
                _line(
                    type="player",
                    at="2026-11-02T18:00",
                    nick=nick,
                    size=13,
                    status="member",  # type: ignore[arg-type]
                    strength=n,
                )
            )
        start = datetime(2026, 11, 5, 21, 0)
        events.start(
            store,
            club_evening(store.config, start)[0],
            13,
            [side_of(store.magnets(), n, 13) for n in nicks],
            counts=True,
        )
        wall, clock = wall_at(store, start, page_advance=600)
        wall.press("C")
        assert wall.tick() and wall.view == View("event", 13, 0) and wall.parts > 1
        clock.wait(601)
        assert wall.tick() and wall.view == View("event", 13, 1)


def test_the_wall_of_another_evening_has_no_event(club: Store) -> None:
    start_event(club)
    assert from_source(club, datetime(2026, 11, 6, 19, 0)).event is None  # Friday: Thursday's event is over
    data = from_source(club, THURSDAY)
    assert isinstance(data.event, EventWall)
    assert events.open_event(club, date(2026, 11, 5)) is not None


# --- `semedori render --page event` ----------------------------------------------------------------------------------


def test_render_writes_every_event_page_and_a_layout_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from display import cli
    from display.cli import render_command

    monkeypatch.setattr(cli, "demo_data", event_data)  # --demo draws the evening with an event of six on

    out = tmp_path / "wall"
    result = CliRunner().invoke(
        render_command, ["--panel", "impression-7.3", "--demo", "--page", "event", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    layout = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    assert layout["page"] == "event" and [page["file"] for page in layout["pages"]] == ["event-1.png"]
    standing = [
        label["nicks"][0]
        for page in layout["pages"]
        for label in page["names"]
        if label["kind"] == "standing" and label["nicks"]
    ]
    assert sorted(standing) == sorted(EVENT_SIX)


def test_render_draws_the_event_from_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from display.cli import render_command
    from kiosk.rules import club_now

    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    with Store.open(tmp_path) as store:
        for nick, strength in CLUB:
            store.record(
                _line(
                    type="player",
                    at="2026-11-02T18:00",
                    nick=nick,
                    size=13,  # type: ignore[arg-type]
                    status="member",
                    strength=strength,
                )
            )
        day = club_evening(store.config, club_now(store.config, datetime.now(UTC)))[0]  # whenever the test runs
        events.start(store, day, 13, [side_of(store.magnets(), n, 13) for n, _ in CLUB], counts=True)
    out = tmp_path / "wall"
    result = CliRunner().invoke(render_command, ["--page", "event", "--out", str(out)])
    assert result.exit_code == 0, result.output
    layout = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    drawn = [
        label["nicks"][0]
        for page in layout["pages"]
        for label in page["names"]
        if label["kind"] == "standing" and label["nicks"]
    ]
    assert sorted(drawn) == sorted(nick for nick, _ in CLUB)


def test_an_event_the_core_refuses_leaves_the_board_showing_and_does_not_refresh_every_turn(
    club: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault injected into the core's round (the real store, the real event): logged, the page left out."""
    import display.standings
    from kiosk.errors import HistoryError

    def refused(*_: object) -> object:
        raise HistoryError("unknown-player", nick="?")

    start_event(club)
    monkeypatch.setattr(display.standings, "played_boards", refused)
    screen = Screen()
    wall, clock = wall_at(club, THURSDAY, screen)
    assert wall.data is not None and wall.data.event is None and len(screen.shown) == 1
    wall.press("C")
    assert wall.tick() and wall.view.page == "tonight"  # as if no event were open
    for _ in range(10):
        clock.wait(120)
        assert not wall.tick()  # nothing changed: no refresh, no re-read every turn


def test_a_finished_event_says_so_and_a_draw_and_an_even_game_are_said_in_words() -> None:
    from kiosk.tournament import DRAW

    magnets = tuple(
        Magnet(nick, 13, strength * QUARTERS, "member")
        for nick, strength in (("Ala", 20), ("Ola", 20), ("Ewa", 30), ("Iza", 10))
    )
    strengths = {m.nick: m.strength for m in magnets}
    on = demo_event(("Ala", "Ola", "Ewa", "Iza"), strengths, played=0)
    even = next(s for s in on.round_seats(1) if {s.a, s.b} == {"Ala", "Ola"})  # Berger's round 1: 1–4, 2–3
    data = WallData(magnets=magnets, event=of_event(on, magnets, Config()))
    pages = report(data, "impression-7.3")
    assert f"{even.board}. {even.a} – {even.b}" in lines(pages, "board")  # equal: nigiri, nobody White yet
    assert "Even game: nigiri, komi 6.5" in lines(pages, "handicap")
    done = replace(
        on, seats=tuple(s._replace(result=DRAW if s.round == 1 and s.board == 1 else A_WINS) for s in on.seats)
    )
    assert done.finished
    pages = report(WallData(magnets=magnets, event=of_event(done, magnets, Config())), "impression-7.3")
    # On one line, or two when the prizes take a column of their own.
    heading = " · ".join(lines(pages, "heading")[:2]).replace("played · Standings", "played")
    assert heading.startswith(f"Round {done.rounds} of {done.rounds} · all rounds are played")
    assert not lines(pages, "board") and len(lines(pages, "result")) == 2
    first = next(s for s in done.round_seats(1) if s.board == 1)
    drawn = replace(done, seats=tuple(s for s in done.seats if s.round == 1))
    pages = report(WallData(magnets=magnets, event=of_event(drawn, magnets, Config())), "impression-7.3")
    assert f"1. ✓ {first.a} and {first.b} drew" in " ".join(lines(pages, "result"))


@pytest.mark.parametrize(("language", "mark"), [("en", "(went home)"), ("pl", "(poza turniejem)")])
def test_a_player_who_went_home_is_marked_in_the_standings_as_on_the_phone(language: str, mark: str) -> None:
    """The owner withdrew Brzęczyszczykiewicz during round 4: the wall says so, keeps their line and their score."""
    from kiosk.tournament import with_withdrawals

    data = event_data(language)
    strengths = {m.nick: m.strength for m in data.magnets if m.size == 13}
    on = demo_event(EVENT_SIX, strengths)
    gone = "Grzegorz Brzęczyszczykiewicz"  # the longest label: the mark must not push anything off
    left = replace(on, seats=with_withdrawals(on.seats, [(gone, on.current)]), withdrawn=((gone, on.current),))
    data = replace(data, event=of_event(left, data.magnets, Config()))
    assert data.event is not None
    for name in PROFILES:
        for orientation in ("landscape", "portrait"):
            pages = report(data, name, orientation)
            assert sorted(named(pages, {"standing"})) == sorted(s.nick for s in data.event.standings)  # nobody hidden
            rows = [
                " ".join(label["text"] for label in page if label["kind"] == "standing")
                for page in pages
                if any(label["kind"] == "standing" for label in page)
            ]
            text = " ".join(rows)
            assert text.count(mark) == 1, (name, orientation, text)
            # The mark follows the label of the one who went home, nobody else's.
            assert text.split(mark)[0].rstrip().endswith(gone), (name, orientation)
            scored = {row[0]: row[2] for row in standings_rows(pages)}
            assert scored[gone] == points(next(s.score for s in data.event.standings if s.nick == gone))
