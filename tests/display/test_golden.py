"""Golden pictures: the demo club on every panel, compared pixel for pixel with the committed files.

After a change to the picture that is meant, run ``python tests/display/golden_pictures.py``, look at the
new files, and commit them with the change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from golden_pictures import CASES, GOLDEN, picture
from PIL import Image

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "golden"


@pytest.mark.parametrize("case", list(CASES))
def test_the_picture_matches_its_golden_file(case: str) -> None:
    path = GOLDEN / f"{case}.png"
    assert path.exists(), f"no golden file {path.name}: run python tests/display/golden_pictures.py"
    fresh = picture(case)
    with Image.open(path) as golden:
        same = (
            golden.size == fresh.size
            and golden.getpalette() == fresh.getpalette()
            and golden.tobytes() == fresh.tobytes()
        )
    if not same:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        fresh.save(ARTIFACTS / path.name)
    regenerate = "python tests/display/golden_pictures.py"
    assert same, f"{case} changed: compare {ARTIFACTS / path.name} with {path}; if meant, {regenerate}"


def test_a_real_change_is_caught(tmp_path: Path) -> None:
    """The comparison is not blind: one pixel of another ink is a difference."""
    fresh = picture("board-what")
    changed = fresh.copy()
    changed.putpixel((200, 150), (fresh.getpixel((200, 150)) + 1) % 3)
    assert changed.tobytes() != fresh.tobytes()
