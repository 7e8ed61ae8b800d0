"""The wall under the club's privacy settings: every magnet still hangs, by its public label."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from display.cli import render_command
from display.wall import from_source
from kiosk.events import nick_key, parse_line
from kiosk.privacy import INITIALS, NICK, SHORT, PlayerPrivacy
from kiosk.store import Store

NICKS = [
    "Łucja Kowalska", "Łukasz Kowalski", "Ludwik Kos", "Żaneta Nowak", "Zenon Nowicki", "Adam Kot",
    "Anna Kamińska", "Ёжик Туманный", "王小明", "🐉 Smok Wawelski", "Kasia", "Bartek Ćwik", "Ola Zielińska",
]  # fmt: skip
HIDDEN, SHOWN, SHORTENED = "Ola Zielińska", "Kasia", "Bartek Ćwik"
EXPECTED = {
    "Łucja Kowalska": "Ł.K.", "Łukasz Kowalski": "Ł.K.²", "Ludwik Kos": "L.K.", "Żaneta Nowak": "Ż.N.",
    "Zenon Nowicki": "Z.N.", "Adam Kot": "A.K.", "Anna Kamińska": "A.K.²", "Ёжик Туманный": "Ё.Т.", "王小明": "王.",
    "🐉 Smok Wawelski": "🐉.S.W.", "Kasia": "Kasia", "Bartek Ćwik": "Bartuś", "Ola Zielińska": "O.Z.",
}  # fmt: skip


def _line(**raw: object) -> str:
    return json.dumps(raw, ensure_ascii=False)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    (tmp_path / "semedori.toml").write_text('[club]\nname = "Klub Go"\n', encoding="utf-8")
    with Store.open(tmp_path) as store:
        for number, nick in enumerate(NICKS):
            store.record(
                parse_line(
                    _line(type="player", at="2026-11-02T18:00", nick=nick, size=13, status="member", strength=number)
                )
            )
        store.record(
            parse_line(_line(type="game", at="2026-11-02T19:00", size=13, players=[HIDDEN, NICKS[0]], winner=HIDDEN))
        )
        store.set_club_privacy(INITIALS)
        store.set_player_privacy(HIDDEN, PlayerPrivacy(NICK, hidden=True))  # hidden: never the nickname
        store.set_player_privacy(SHOWN, PlayerPrivacy(NICK))
        store.set_player_privacy(SHORTENED, PlayerPrivacy(SHORT, "Bartuś"))
    return tmp_path


def test_the_wall_in_initials_mode_draws_every_magnet_by_its_label_never_a_hidden_nickname(home: Path) -> None:
    out = home / "wall"
    result = CliRunner().invoke(render_command, ["--size", "13", "--panel", "impression-7.3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    drawn = [label for page in report["pages"] for label in page["magnets"]]
    assert sorted(label["nick"] for label in drawn) == sorted(EXPECTED.values())  # nobody hidden from the wall
    texts = [label["text"] for label in drawn]
    assert len(set(texts)) == len(texts)  # "A.K." and "A.K.²" stay two
    for nick, label in EXPECTED.items():
        if label != nick:
            assert nick not in (out / "layout.json").read_text(encoding="utf-8")
    assert all(label["text"].rstrip("…") for label in drawn)


def test_the_walls_recent_and_week_games_use_labels_too(home: Path) -> None:
    with Store.open(home) as store:
        data = from_source(store, datetime(2026, 11, 3, 12, 0))
    names = {n for g in (*data.recent, *data.week) for n in (*g.players, *g.moves, g.winner)}
    assert names == {"O.Z.", "Ł.K."}
    assert data.moved(13) == {"O.Z.": 1}  # the wall's ↑ still finds its magnet (Ł.K. stays at 0)


def test_the_walls_tonight_page_names_players_by_their_labels_and_still_notices_a_check_in(home: Path) -> None:
    from display.profiles import profile
    from display.render import tonight_report
    from kiosk.evening import club_evening

    evening = datetime(2026, 11, 3, 19, 0)
    with Store.open(home) as store:
        day = club_evening(store.config, evening)[0]
        for nick in (HIDDEN, "Adam Kot", "Anna Kamińska", SHOWN):
            store.check_in(day, nick)
        store.refuse(day, "Adam Kot", "Anna Kamińska")
        data = from_source(store, evening)
        assert data.tonight is not None
        assert data.tonight.here == ("O.Z.", "A.K.", "A.K.²", "Kasia")
        # The refusal still keeps the two apart under their labels (the pairing matches by keys).
        assert data.tonight.refused == {frozenset({nick_key("A.K."), nick_key("A.K.²")})}
        # The refresh notices check-ins by the store's change counter, whatever the labels: reading moves it
        # not, nor does checking in a player who is already here (no refresh every turn).
        counted = store.change_counter()
        from_source(store, evening)
        assert store.check_in(day, SHOWN) is False and store.change_counter() == counted
    drawn = json.dumps(
        [labels for _, labels in tonight_report(data, 13, profile("impression-7.3"))], ensure_ascii=False
    )
    for nick in (HIDDEN, "Adam Kot", "Anna Kamińska"):
        assert nick not in drawn
    assert "A.K.²" in drawn and "Kasia" in drawn
