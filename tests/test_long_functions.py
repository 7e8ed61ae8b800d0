"""The house rule "a function fits on a screen" holds: a function of kiosk/, web/ or display/ over 50 lines
says in a ``# Long:`` comment why it is one thing (docs/design.md, "House rules"); else it is split."""

from __future__ import annotations

from long_functions import long_functions, long_functions_in


def _function(lines: int, comment: str = "") -> str:
    """A module with one function of exactly ``lines`` lines (its ``def`` line included)."""
    body = [f"    {comment}"] if comment else []
    body += [f"    x{n} = {n}" for n in range(lines - 1 - len(body))]
    return "\n".join(["def counted() -> None:", *body]) + "\n"


def test_every_function_over_a_screen_says_why_it_is_long() -> None:
    silent = [
        f"{where} {name} ({length} lines)" for length, where, name, why in long_functions() if why == "(says nothing)"
    ]
    assert not silent, "split these, or say why each is one thing in a '# Long:' comment: " + ", ".join(silent)


def test_a_long_function_without_a_reason_is_found() -> None:
    assert long_functions_in(_function(51), "x.py") == [(51, "x.py:1", "counted", "(says nothing)")]


def test_a_reason_or_a_screenful_is_not_found() -> None:
    assert long_functions_in(_function(50), "x.py") == []
    said = long_functions_in(_function(51, "# Long: one table."), "x.py")
    assert [why for *_, why in said] == ["# Long: one table."]
