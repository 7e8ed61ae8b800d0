"""Two clubs on one scale: the match file and the offset between two synthetic clubs (kiosk/calibration.py).

Club A's numbers are its players' true strengths; club B's are ``OFFSET`` lower (B's scale is
uncalibrated: its players play stronger than their numbers). An evening of games between them is
drawn, seeded, from the model of docs/calibration.md; A writes the match file, B imports it.
"""

from __future__ import annotations

import json
import math
import random
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kiosk.calibration import MatchError, club_rating, offset
from kiosk.config import Config
from kiosk.handicap import handicap_for
from kiosk.scale import QUARTERS
from kiosk.services.calibration import export_match, import_match, kept
from kiosk.store import Store

CODE = "K7 Q2 M9 X4"
OFFSET = 4  # strengths: B's numbers are 4 below the truth on A's scale
SPREAD = 16.0  # points of noise in one 13x13 game
DAY = "2026-11-20"


def _club(folder: Path, name: str, numbers: dict[str, int], config: Config | None = None) -> Store:
    store = Store.open(folder)
    store.import_history(
        json.dumps(
            {"type": "player", "at": "2026-01-05T18:00", "nick": nick, "size": 13, "status": "member", "strength": s}
        )
        for nick, s in numbers.items()
    )
    store.save_config((config or store.config).with_changes(club_name=name))
    return store


def _sheet(true_a: dict[str, int], true_b: dict[str, int], games: int, seed: int) -> list[dict[str, Any]]:
    """The evening's games as club A's owner types them: our player, theirs with their number, the result."""
    rng = random.Random(seed)
    rules = Config().size_rules[13]
    k = float(rules.points_per_strength)
    lines = []
    for number in range(games):
        a, b = rng.choice(sorted(true_a)), rng.choice(sorted(true_b))
        b_number = true_b[b] - OFFSET
        d = (b_number - true_a[a]) * QUARTERS
        h = handicap_for(abs(d), rules)
        v = 0.0 if h.even else 6.5 + 13 * (h.moves - 1) + h.prisoners
        worth = k * (true_b[b] - true_a[a])
        margin_b = worth - v if d > 0 else worth + v if d < 0 else worth
        margin_b += rng.gauss(0.0, SPREAD)
        margin_b = math.floor(margin_b) + 0.5 if h.even else round(margin_b)
        line: dict[str, Any] = {
            "at": f"{DAY}T{18 + number // 30:02d}:{number % 30 * 2:02d}",
            "size": 13,
            "home": a,
            "away": b,
            "away_strength": b_number,
        }
        if margin_b == 0:
            line["winner"] = None
        else:
            line["winner"] = "away" if margin_b > 0 else "home"
            line["by"] = "resignation" if abs(margin_b) >= 30 and rng.random() < 0.5 else abs(margin_b)
        lines.append(line)
    return lines


@pytest.fixture
def clubs(tmp_path: Path) -> tuple[Store, Store, dict[str, int], dict[str, int]]:
    rng = random.Random(26)
    true_a = {f"A{n:02d}": rng.randint(8, 28) for n in range(20)}
    true_b = {f"B{n:02d}": rng.randint(8, 28) for n in range(20)}
    a = _club(tmp_path / "a", "Klub A", true_a)
    b = _club(tmp_path / "b", "Klub B", {n: s - OFFSET for n, s in true_b.items()})
    yield a, b, true_a, true_b
    a.close()
    b.close()


def test_the_offset_between_two_clubs_is_found_within_its_interval(clubs: Any) -> None:
    a, b, true_a, true_b = clubs
    text = export_match(a, _sheet(true_a, true_b, 60, seed=1), "Klub B", CODE)
    history_before = list(b.export_lines())
    match, (found,) = import_match(b, text, CODE)
    assert match.club_name == "Klub A" and len(match.games) == 60
    # at B, club A's players played OFFSET weaker than their numbers
    assert found.found is not None and found.found.low <= -OFFSET <= found.found.high, found
    assert found.clear
    assert found.shift_ours == OFFSET * QUARTERS  # B up by 4 joins A's scale
    assert found.shift_theirs == -OFFSET * QUARTERS  # or A down by 4
    assert list(b.export_lines()) == history_before  # nothing of B's history changed
    # the club rating at B: its offset against A; at A (which kept what it wrote): B's against A
    (met,) = club_rating(kept(b), b.config)
    assert met.club_name == "Klub A" and met.games == 60 and met.offset.found is not None
    assert met.offset.found.holds(-OFFSET)
    (seen_at_a,) = club_rating(kept(a), a.config)
    assert seen_at_a.club_name == "Klub B" and seen_at_a.offset.found is not None
    assert seen_at_a.offset.found.holds(OFFSET)


def test_a_few_games_are_not_enough(clubs: Any) -> None:
    a, b, true_a, true_b = clubs
    _, (found,) = import_match(b, export_match(a, _sheet(true_a, true_b, 4, seed=2), "Klub B", CODE), CODE)
    assert not found.enough and found.shift_ours == 0


def _refused(b: Store, text: str, code: str = CODE) -> MatchError:
    history = list(b.export_lines())
    with pytest.raises(MatchError) as refused:
        import_match(b, text, code)
    assert list(b.export_lines()) == history and b.kept_matches() == []
    return refused.value


def test_a_damaged_file_is_refused_and_changes_nothing(clubs: Any) -> None:
    a, b, true_a, true_b = clubs
    text = export_match(a, _sheet(true_a, true_b, 20, seed=3), "Klub B", CODE)
    damaged = text.replace('"winner": "home"', '"winner": "away"', 1)
    assert damaged != text
    error = _refused(b, damaged)
    assert error.code == "match-damaged"
    assert error.message() == "The match file is damaged: its checksum does not match its content. Ask for it again."
    assert error.message("pl").startswith("Plik meczu jest uszkodzony")
    assert _refused(b, text[: len(text) // 2]).code == "match-not-json"
    assert _refused(b, '{"format": "something else"}').code == "match-format"


def test_a_forged_file_or_a_wrong_code_is_refused(clubs: Any) -> None:
    import hashlib

    a, b, true_a, true_b = clubs
    text = export_match(a, _sheet(true_a, true_b, 20, seed=4), "Klub B", CODE)
    raw = json.loads(text)
    for game in raw["games"]:
        game["winner"] = "home"  # every game a win for A's players, the checksum made again
    raw.pop("checksum")
    seal = raw.pop("seal")
    raw["checksum"] = hashlib.sha256(
        json.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    ).hexdigest()
    raw["seal"] = seal
    assert _refused(b, json.dumps(raw)).code == "match-forged"
    assert _refused(b, text, code="WRONG-CODE").code == "match-forged"
    assert _refused(b, text, code="12").code == "match-code"


def test_another_rules_version_its_own_file_or_twice_is_refused(clubs: Any, tmp_path: Path) -> None:
    a, b, true_a, true_b = clubs
    text = export_match(a, _sheet(true_a, true_b, 20, seed=5), "Klub B", CODE)
    other_rules = Config().size_rules | {13: Config().size_rules[13].__class__(13, 4, 30, 6)}  # type: ignore[arg-type]
    with _club(tmp_path / "c", "Klub C", {"C1": 10}, Config().with_changes(size_rules=other_rules)) as c:
        history = list(c.export_lines())
        with pytest.raises(MatchError) as refused:
            import_match(c, text, CODE)
        assert refused.value.code == "match-rules" and "13x13" in refused.value.message()
        assert list(c.export_lines()) == history and c.kept_matches() == []
    with pytest.raises(MatchError) as own:
        import_match(a, text, CODE)
    assert own.value.code == "match-own"
    import_match(b, text, CODE)
    with pytest.raises(MatchError) as twice:
        import_match(b, text, CODE)
    assert twice.value.code == "match-twice" and len(b.kept_matches()) == 1


def test_offset_of_games_on_one_scale_is_near_zero() -> None:
    from kiosk.calibration import MatchGame

    rng = random.Random(9)
    games = []
    for n in range(80):
        a, b = rng.randint(10, 25), rng.randint(10, 25)
        margin = 5 * (b - a) + rng.gauss(0, 10)
        d = (b - a) * QUARTERS
        h = handicap_for(abs(d), Config().size_rules[13])
        v = 0.0 if h.even else 6.5 + 13 * (h.moves - 1) + h.prisoners
        margin = margin - v if d > 0 else margin + v if d < 0 else margin
        by = round(abs(margin)) or 1
        games.append(
            MatchGame(
                datetime(2026, 11, 20, 18, n % 60),
                13,
                f"a{n}",
                a * 4,
                f"b{n}",
                b * 4,
                "away" if margin > 0 else "home",
                Fraction(by),
            )
        )
    found = offset(games, 13, Config().size_rules[13], ours_home=True)
    assert found.found is not None and found.found.holds(0.0) and found.shift_ours == 0 and not found.clear
