"""The owner's symbols beside the labels on the wall: "★ A.K." and "♥ A.K.²" are two children a child
tells apart, the symbol drawn beside the label, never cutting it; the phone shows the same symbols."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from display.cli import render_command
from kiosk.events import NICK_LIMIT, parse_line
from kiosk.privacy import INITIALS, NICK, PlayerPrivacy
from kiosk.store import Store

LONG = "Ż" * NICK_LIMIT  # shown by nickname: the longest a nickname may be, with a symbol before it
PLAYERS = ["Adam Kot", "Anna Kamińska", "Ala Kruk", "Ola Zielińska", LONG]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    (tmp_path / "semedori.toml").write_text('[club]\nname = "Klub Go"\n', encoding="utf-8")
    with Store.open(tmp_path) as store:
        for number, nick in enumerate(PLAYERS):
            line = {"type": "player", "at": "2026-11-02T18:00", "nick": nick, "size": 13, "status": "member"}
            store.record(parse_line(json.dumps({**line, "strength": 10 + number}, ensure_ascii=False)))
        store.set_club_privacy(INITIALS)
        store.set_player_privacy("Adam Kot", PlayerPrivacy(mark="★"))
        store.set_player_privacy("Anna Kamińska", PlayerPrivacy(mark="♥"))
        store.set_player_privacy(LONG, PlayerPrivacy(NICK, mark="✿"))
    return tmp_path


def drawn(out: Path) -> dict[str, list[str]]:
    report = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    return {label["nick"]: label["lines"] for page in report["pages"] for label in page["magnets"]}


@pytest.mark.parametrize("panel", ["impression-7.3", "what"])
def test_the_wall_draws_the_owners_symbol_beside_the_label_and_the_label_whole(home: Path, panel: str) -> None:
    out = home / f"wall-{panel}"
    result = CliRunner().invoke(render_command, ["--size", "13", "--panel", panel, "--out", str(out)])
    assert result.exit_code == 0, result.output
    labels = drawn(out)
    assert "".join(labels["★ A.K."]) == "★ A.K." and "".join(labels["♥ A.K.²"]) == "♥ A.K.²"
    assert "A.K.³" in labels  # Ala Kruk: no symbol, the label alone
    assert "".join(labels[f"✿ {LONG}"]) == f"✿ {LONG}"  # wrapped if it must, never cut
    assert "Adam Kot" not in (out / "layout.json").read_text(encoding="utf-8")  # the symbol tells no name
    with Image.open(next(out.glob("*.png"))) as picture:
        assert picture.getcolors(1 << 16) is not None and len(picture.getcolors(1 << 16) or []) > 1


def test_every_symbol_is_drawn_by_the_walls_own_type_and_none_is_a_stone() -> None:
    from display.columns import NICK as NICK_TYPE
    from display.fonts import font, has_glyph
    from kiosk.privacy import MARKS

    assert all(has_glyph(font(NICK_TYPE, 24), mark) for mark in MARKS)  # no code box, no fallback face
    assert not {"○", "●", "◯", "⚪", "⚫"} & set(MARKS)  # tonight's page marks White and Black with these
