"""The functions longer than a screen (50 lines), longest first: ``python tests/long_functions.py [LINES]``.

The house rule is that a function fits on a screen (docs/design.md, "House rules"). A longer one
either does several things (split it) or says in a ``# Long:`` comment why it is one thing; this
lists each with that comment, or ``(says nothing)`` where it has none yet.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def long_functions(limit: int = 50) -> list[tuple[int, str, str, str]]:
    """(lines, where, name, why) of every function of kiosk/, web/ and display/ over ``limit`` lines."""
    found = []
    for package in ("kiosk", "web", "display"):
        for path in sorted((ROOT / package).rglob("*.py")):
            found += long_functions_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), limit)
    return sorted(found, reverse=True)


def long_functions_in(text: str, where: str, limit: int = 50) -> list[tuple[int, str, str, str]]:
    """(lines, where:line, name, why) of each function of one module's ``text`` over ``limit`` lines."""
    found = []
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                body = lines[node.lineno - 1 : node.end_lineno]
                why = next((line.strip() for line in body if "# Long:" in line or "on purpose" in line), "")
                found.append((length, f"{where}:{node.lineno}", node.name, why or "(says nothing)"))
    return found


if __name__ == "__main__":
    rows = long_functions(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
    for length, where, name, why in rows:
        print(f"{length:4d}  {where}  {name}  {why[:100]}")
    print(f"{len(rows)} functions over the limit, {sum(why == '(says nothing)' for *_, why in rows)} saying nothing")
