"""Similar nicknames: "did you mean Bianka?" before a duplicate player is added (RULES.md §5)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from kiosk.events import nick_key

# Letters that NFKD does not split into a base letter and a mark (Polish ł, German ß, ...).
_PLAIN = str.maketrans({"ł": "l", "ß": "ss", "ø": "o", "đ": "d", "æ": "ae", "œ": "oe"})


def plain(nick: str) -> str:
    """A nickname without case, diacritics, punctuation or word order: what a typo keeps."""
    folded = unicodedata.normalize("NFKD", nick_key(nick).translate(_PLAIN))
    letters = "".join(ch if ch.isalnum() else " " for ch in folded if not unicodedata.combining(ch))
    return " ".join(sorted(letters.split()))


def distance(a: str, b: str, limit: int = 3) -> int:
    """Edits (insert, delete, change, swap of neighbours) from ``a`` to ``b``; stops at ``limit``."""
    if abs(len(a) - len(b)) >= limit:
        return limit
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return min(previous[-1], limit)


def allowed_edits(nick: str) -> int:
    """How many typos still make two nicknames look alike: none for short ones, more for long."""
    length = len(plain(nick))
    if length <= 3:
        return 0
    return 1 if length <= 7 else 2


def are_similar(a: str, b: str) -> bool:
    """True when two different nicknames probably name one person."""
    pa, pb = plain(a), plain(b)
    if pa == pb:
        return True
    edits = min(allowed_edits(a), allowed_edits(b))
    return edits > 0 and distance(pa, pb, edits + 1) <= edits


def similar(nick: str, existing: Iterable[str]) -> list[str]:
    """The existing nicknames that look like ``nick`` (its own exact key left out), closest first."""
    key = _key(nick)
    found = {n for n in existing if _key(n) != key and are_similar(nick, n)}
    return sorted(found, key=lambda n: (distance(plain(nick), plain(n)), nick_key(n)))


def _key(nick: str) -> str:
    return nick_key(" ".join(nick.split()))


def duplicate_pairs(nicks: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of nicknames that may be one person twice, for the owner to confirm or ignore."""
    unique = sorted(set(nicks), key=nick_key)
    return [(a, b) for i, a in enumerate(unique) for b in unique[i + 1 :] if are_similar(a, b)]


def resolve(typed: str, nicks: Iterable[str]) -> str | None:
    """The nickname a player meant: the same one ignoring case, else the only one that is the same
    without Polish letters and accents ("Lucja" finds "Łucja"); None when there is none, or two."""
    key = _key(typed)
    if not key:
        return None
    pool = list(nicks)
    exact = next((n for n in pool if _key(n) == key), None)
    if exact is not None:
        return exact
    wanted = plain(typed)
    found = {n for n in pool if plain(n) == wanted}
    return found.pop() if len(found) == 1 else None


def starting_with(typed: str, nicks: Iterable[str], limit: int = 5) -> list[str]:
    """Nicknames that begin like the typed text, ignoring case and Polish letters (type-ahead)."""
    wanted = plain(typed)
    if not wanted:
        return []
    found = {n for n in nicks if plain(n).startswith(wanted)}
    return sorted(found, key=nick_key)[:limit]


def suggestions(typed: str, nicks: Iterable[str], limit: int = 4) -> list[str]:
    """ "Did you mean" for an unknown name: look-alikes first, then names that begin the same way."""
    pool = list(nicks)
    found = similar(typed, pool)
    found += [n for n in starting_with(typed, pool, limit) if n not in found]
    return found[:limit]
