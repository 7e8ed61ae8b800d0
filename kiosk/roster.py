"""Lists in: a roster's players for an event's start, from a CSV file or an OpenGotha file.

Pure: text in, ``RosterRow``s out, or ``HistoryError`` naming the line and what is wrong, so a damaged file
changes nothing (the use case writes only a whole, checked list: ``kiosk.services.league.import_roster``).

* **CSV**: one player a line, ``nickname, size, strength or grade`` (a header line is skipped; a semicolon
  separates too, as a Polish spreadsheet writes it, and then ``12,5`` is a decimal comma). The strength is a
  field of the board (``12``, ``30.5``), or a grade (``10k``, ``10 kyu``, ``2d``, ``1 dan``).
* **OpenGotha**: the ``<Player>`` elements of a tournament file (``name``, ``firstName``, ``rank``), read by
  the standard library's XML parser; the size is the event's (the file has none of its own).
"""

from __future__ import annotations

import csv
import io
import re
from typing import NamedTuple
from xml.etree import ElementTree

from kiosk.errors import HistoryError
from kiosk.events import clean_nick, nick_key
from kiosk.handicap import SIZES
from kiosk.scale import MAX_DAN, MAX_KYU, Quarters, is_field, quarters

ROSTER_LIMIT = 200  # players in one list: a club's season, with room
FILE_LIMIT = 1_000_000  # characters of a file read at all

_GRADE = re.compile(r"^\s*(\d{1,2})\s*(k|kyu|d|dan)\s*$", re.IGNORECASE)


class RosterRow(NamedTuple):
    """One player of a list: nickname, size, and a strength (quarters) or a grade (kyu or dan)."""

    nick: str
    size: int
    strength: Quarters | None = None
    kyu: int | None = None
    dan: int | None = None


def grade_of(text: str) -> tuple[int | None, int | None] | None:
    """A grade as people write it (``10k``, ``10 kyu``, ``2d``, ``1 dan``): (kyu, dan); None when it is none."""
    found = _GRADE.match(text)
    if found is None:
        return None
    number, word = int(found.group(1)), found.group(2).lower()
    if word.startswith("k"):
        return (number, None) if 1 <= number <= MAX_KYU else None
    return (None, number) if 1 <= number <= MAX_DAN else None


def _strength(text: str, decimal_comma: bool) -> Quarters | None:
    typed = text.strip().replace(",", ".") if decimal_comma else text.strip()
    if not re.fullmatch(r"\d{1,2}(\.\d{1,2})?", typed):
        return None
    try:
        value = quarters(typed)
    except ValueError:
        return None
    return value if is_field(value) else None


def _row(cells: list[str], decimal_comma: bool, size: int | None) -> RosterRow:
    cells = [cell.strip() for cell in cells]
    while cells and not cells[-1]:
        cells.pop()
    if len(cells) != 3 or not cells[0]:
        raise HistoryError("roster-columns")
    nick = clean_nick(cells[0])
    if not cells[1].isdecimal() or int(cells[1][:3]) not in SIZES:
        raise HistoryError("roster-size", value=cells[1])
    row_size = int(cells[1])
    if size is not None and row_size != size:
        raise HistoryError("roster-other-size", value=row_size, size=size)
    grade = grade_of(cells[2])
    if grade is not None:
        return RosterRow(nick, row_size, None, *grade)
    strength = _strength(cells[2], decimal_comma)
    if strength is None:
        raise HistoryError("roster-grade", value=cells[2])
    return RosterRow(nick, row_size, strength)


def _header(cells: list[str]) -> bool:
    return len(cells) >= 3 and not cells[1].strip().isdecimal()


def from_csv(text: str, size: int | None = None) -> list[RosterRow]:
    """The players of a CSV roster (``nickname, size, strength or grade``); ``size``: the event's, when every row
    must be on it. Every line is checked before anything is used: ``HistoryError`` names the first bad one."""
    if len(text) > FILE_LIMIT or "\x00" in text:
        raise HistoryError("roster-not-csv")
    text = text.lstrip("\ufeff")  # a spreadsheet's byte order mark
    first = next((line for line in text.splitlines() if line.strip()), "")
    semicolons = first.count(";") > first.count(",")
    reader = csv.reader(io.StringIO(text), delimiter=";" if semicolons else ",")
    rows: list[RosterRow] = []
    try:
        for number, cells in enumerate(reader, start=1):
            if not any(cell.strip() for cell in cells) or (not rows and number == 1 and _header(cells)):
                continue
            try:
                rows.append(_row(cells, semicolons, size))
            except HistoryError as error:
                raise error.at_line(number) from None
    except csv.Error:
        raise HistoryError("roster-not-csv") from None
    return _checked(rows)


def _checked(rows: list[RosterRow]) -> list[RosterRow]:
    if not rows:
        raise HistoryError("roster-empty")
    if len(rows) > ROSTER_LIMIT:
        raise HistoryError("roster-too-long", limit=ROSTER_LIMIT)
    seen: set[str] = set()
    for row in rows:
        if nick_key(row.nick) in seen:
            raise HistoryError("named-twice", nick=row.nick)
        seen.add(nick_key(row.nick))
    return rows


def from_opengotha(text: str, size: int) -> list[RosterRow]:
    """The players of an OpenGotha tournament file, on ``size`` (the event's): the nickname is the first name
    and the name (as OpenGotha shows them), the grade its ``rank``."""
    if len(text) > FILE_LIMIT or "<!DOCTYPE" in text or "<!ENTITY" in text:  # no entity tricks in a club's file
        raise HistoryError("roster-not-opengotha")
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        raise HistoryError("roster-not-opengotha") from None
    if root.tag != "Tournament":
        raise HistoryError("roster-not-opengotha")
    rows = []
    for element in root.iter("Player"):
        if element.get("name") is None:  # another element of that name (a ByePlayer's entry names no one)
            continue
        nick = clean_nick(" ".join(f"{element.get('firstName', '')} {element.get('name', '')}".split()))
        rank = element.get("rank", "")
        grade = grade_of(rank)
        if grade is None:
            raise HistoryError("roster-rank", nick=nick, value=rank)
        rows.append(RosterRow(nick, size, None, *grade))
    return _checked(rows)
