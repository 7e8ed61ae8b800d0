"""The owner's matches page: importing the other club's match file, refusals, the club rating (web/matches.py)."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from club_days import on_the_club_clock
from flask import Flask
from flask.testing import FlaskClient
from form_fields import hidden_fields

from kiosk.services.calibration import export_match
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kiosk"))
from test_calibration import CODE, OFFSET, _club, _sheet

PIN = "8642"


@pytest.fixture
def match_file(tmp_path: Path) -> str:
    rng = random.Random(26)
    true_a = {f"A{n:02d}": rng.randint(8, 28) for n in range(20)}
    true_b = {f"B{n:02d}": rng.randint(8, 28) for n in range(20)}
    with _club(tmp_path / "a", "Klub A", true_a) as a:
        return export_match(a, _sheet(true_a, true_b, 60, seed=1), "Klub B", CODE)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    rng = random.Random(26)
    [rng.randint(8, 28) for _ in range(20)]
    true_b = {f"B{n:02d}": rng.randint(8, 28) for n in range(20)}
    with _club(tmp_path / "b", "Klub B", {n: s - OFFSET for n, s in true_b.items()}) as b:
        b.save_config(b.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    return tmp_path / "b"


@pytest.fixture
def app(home: Path) -> Flask:
    return create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "TESTING": True}))


@pytest.fixture
def owner(client: FlaskClient) -> FlaskClient:
    form = hidden_fields(client.get("/owner/login").get_data(as_text=True))
    assert client.post("/owner/login", data={**form, "pin": PIN}).status_code == 302
    return client


def _send(owner: FlaskClient, text: str, code: str = CODE) -> Any:
    form = hidden_fields(owner.get("/owner/matches").get_data(as_text=True))
    upload = (io.BytesIO(text.encode("utf-8")), "match.json")
    return owner.post(
        "/owner/matches", data={**form, "code": code, "match": upload}, content_type="multipart/form-data"
    )


def test_import_shows_the_offset_and_opens_the_shift_never_shifting(
    owner: FlaskClient, home: Path, match_file: str
) -> None:
    with Store.open(home) as store:
        before = list(store.export_lines())
    answer = _send(owner, match_file)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "Match file of Klub A: 60 games, checked and kept." in page
    assert "Suggested: shift our 13x13 by +4, or Klub A shifts its own by −4" in page
    assert "/owner/shift?amount=4&amp;scope=size&amp;size=13" in page
    with Store.open(home) as store:
        assert list(store.export_lines()) == before  # nothing shifted
    rating = owner.get("/owner/matches").get_data(as_text=True)
    assert "Klub A" in rating and "<b>−4</b>" in rating


def test_a_damaged_or_forged_file_is_refused_kindly(owner: FlaskClient, home: Path, match_file: str) -> None:
    damaged = _send(owner, match_file.replace('"home"', '"away"', 1))
    assert damaged.status_code == 400 and "The match file is damaged" in damaged.get_data(as_text=True)
    wrong = _send(owner, match_file, code="NOT-THE-CODE")
    assert wrong.status_code == 400 and "its seal does not match" in wrong.get_data(as_text=True)
    with Store.open(home) as store:
        assert store.kept_matches() == []
    owner.set_cookie("lang", "pl")
    polish = _send(owner, "not json at all").get_data(as_text=True)
    assert "To nie jest plik meczu" in polish


# accel: the match file written on the owner's page (as the command line's export)
def _export(owner: FlaskClient, **fields: str) -> Any:
    form = hidden_fields(owner.get("/owner/matches").get_data(as_text=True))
    return owner.post("/owner/matches/export", data={**form, **fields}, content_type="multipart/form-data")


def test_the_host_writes_the_match_file_from_games_typed_one_a_line(
    owner: FlaskClient, home: Path, tmp_path: Path
) -> None:
    from test_calibration import DAY

    from kiosk.services.calibration import import_match

    typed = "\n".join(
        [
            f"{DAY} 18:00; 13; B00; A01; 20; home; resignation",
            f"{DAY} 18:40; 13; B01; A02; 33,5; away; 12",
            "",
            f'{{"at": "{DAY}T19:20", "size": 13, "home": "B02", "away": "A03", "away_strength": 22, "winner": "away"}}',
        ]
    )
    answer = _export(owner, other="Klub A", code=CODE, sheet=typed)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:2000]
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="match-Klub-A-')
    written = answer.get_data(as_text=True)
    # Club A reads it back with the code: three games, club B's players on B's board the day before.
    rng = random.Random(26)
    true_a = {f"A{n:02d}": rng.randint(8, 28) for n in range(20)}
    with _club(tmp_path / "a", "Klub A", true_a) as a:
        found, _offsets = import_match(a, written, CODE)
    assert found.club_name == "Klub B" and len(found.games) == 3
    # As typed, from the host's side: the Polish comma read as 33.5 (134 quarters), "away" won.
    assert [(g.home, g.away, g.away_strength, g.winner) for g in found.games][1] == ("B01", "A02", 134, "away")


@pytest.mark.parametrize(
    ("fields", "english", "polish"),
    [
        (
            {"other": "", "sheet": "x"},
            "Type the name of the club you played.",
            "Wpisz nazwę klubu, z którym graliście.",
        ),
        (
            {"other": "Klub A", "sheet": "2026-11-20 18:00; 13; B00"},
            "Game 1 of the match file is not valid",
            "Gra 1 w pliku meczu jest błędna",
        ),
        ({"other": "Klub A", "sheet": ""}, "The match file has no games.", "W pliku meczu nie ma gier."),
        (
            {"other": "Klub A", "sheet": "2026-11-20 18:00; 13; B00; A01; 20; maybe; 3"},
            "is not valid",
            "Gra 1 w pliku meczu jest błędna",
        ),
        (
            {"other": "Klub A", "sheet": "2026-11-20 18:00; 13; Nobody; A01; 20; home; 3"},
            "is not valid",
            "Gra 1 w pliku meczu jest błędna",
        ),
    ],
)
def test_a_bad_sheet_is_refused_kindly_in_both_languages_and_nothing_is_kept(
    owner: FlaskClient, home: Path, fields: dict[str, str], english: str, polish: str
) -> None:
    with Store.open(home) as store:
        before = list(store.export_lines())
    answer = _export(owner, code=CODE, **fields)
    assert answer.status_code == 400 and english in answer.get_data(as_text=True)
    owner.set_cookie("lang", "pl")
    assert polish in _export(owner, code=CODE, **fields).get_data(as_text=True)
    with Store.open(home) as store:
        assert list(store.export_lines()) == before and store.kept_matches() == []
    short = _export(owner, code="abc", other="Klub A", sheet="2026-11-20 18:00; 13; B00; A01; 20; home; 3")
    assert short.status_code == 400 and "co najmniej 6" in short.get_data(as_text=True)
