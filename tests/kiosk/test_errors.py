"""Errors a user can cause: a clear message in English and Polish (docs/design.md, house rule 3)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import kiosk
from kiosk.catalogue import translate
from kiosk.errors import MESSAGES, ConfigError, HistoryError, StoreError

# Every parameter any message uses, so each template can be filled in.
PARAMS = {
    "detail": "x",
    "type": "game",
    "field": "by",
    "value": "v",
    "limit": 30,
    "minutes": 10,
    "nick": "Ala",
    "other": "Ola",
    "size": 13,
    "game": 7,
    "a": "Ala",
    "b": "Ola",
    "now": "2026-11-03 20:00",  # the kiosk's clock
    "days": 7,
    "path": "/home/pi/semedori.sqlite3",
    "backup": "DATA/backups/semedori-2026-11-30.sqlite3",  # semedori check on a damaged database
}


# HistoryError.message fills these itself (the rules' KOMI, as the club writes it); a raise need not pass them.
FILLED_BY_THE_ERROR = {"komi"}


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_message_has_a_polish_text_of_its_own(code: str) -> None:
    error = HistoryError(code, **PARAMS)
    assert error.message("pl") != error.message("en")
    assert error.message("pl").strip() and error.message("en").strip()


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_both_languages_use_the_same_parameters(code: str) -> None:
    def names(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    assert names(MESSAGES[code]) == names(translate("pl", MESSAGES[code]))
    assert names(MESSAGES[code]) <= set(PARAMS) | FILLED_BY_THE_ERROR


def test_every_code_the_kiosk_raises_has_a_message() -> None:
    source = "\n".join(path.read_text(encoding="utf-8") for path in Path(kiosk.__file__).parent.glob("*.py"))
    raised = set(re.findall(r'(?:HistoryError|StoreError)\(\s*"([a-z-]+)"', source))
    assert raised, "found no error codes in kiosk/"
    assert raised - set(MESSAGES) == set()


def test_a_message_names_the_line_in_the_users_language() -> None:
    error = HistoryError("unknown-player", nick="Nikt").at_line(5)
    assert error.line == 5
    assert error.message("en") == "line 5: unknown player 'Nikt'"
    assert error.message("pl") == "wiersz 5: nieznany gracz 'Nikt'"
    assert str(error) == "line 5: unknown player 'Nikt'"


def test_an_unknown_language_falls_back_to_english() -> None:
    assert HistoryError("draw-even").message("de") == HistoryError("draw-even").message("en")


def test_errors_are_also_the_matching_builtins() -> None:
    assert isinstance(HistoryError("draw-even"), ValueError)
    assert isinstance(ConfigError("top", "bad"), ValueError)
    assert isinstance(StoreError(), OSError)
    assert StoreError().message("pl") != StoreError().message("en")


def test_every_error_the_kiosk_raises_fills_in_its_message() -> None:
    formatter = string.Formatter()
    missing, checked = [], 0
    for path in sorted(Path(kiosk.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "HistoryError" and node.args):
                continue
            code = node.args[0]
            if not isinstance(code, ast.Constant) or any(k.arg is None for k in node.keywords):
                continue  # a code or parameters passed on: checked where they are made
            needed = {name for _, name, _, _ in formatter.parse(MESSAGES[code.value]) if name}
            given = {k.arg for k in node.keywords} - {"line"} | FILLED_BY_THE_ERROR
            checked += 1
            if needed - given:
                missing.append(f"{path.name}:{node.lineno} {code.value} lacks {sorted(needed - given)}")
    assert checked > 30
    assert missing == []


def test_a_long_value_is_echoed_only_as_a_short_excerpt() -> None:
    # A 30 MB field must not come back in a 30 MB message.
    error = HistoryError("bad-size", value="A" * 1_000_000)
    assert len(error.message("en")) < 120 and len(error.message("pl")) < 120
    assert "AAAA" in error.message("en")
