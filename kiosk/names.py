"""Similar nicknames: "did you mean Bianka?" before a duplicate player is added (docs/rules.md §5)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from kiosk.confusables import skeleton
from kiosk.events import nick_key

# Letters that NFKD does not split into a base letter and a mark (Polish ł, German ß, ...).
_PLAIN = str.maketrans({"ł": "l", "ß": "ss", "ø": "o", "đ": "d", "æ": "ae", "œ": "oe"})


def plain(nick: str) -> str:
    """A nickname without case, diacritics, punctuation or word order: what a typo keeps."""
    folded = unicodedata.normalize("NFKD", nick_key(nick).translate(_PLAIN))
    letters = "".join(ch if ch.isalnum() else " " for ch in folded if not unicodedata.combining(ch))
    return " ".join(sorted(letters.split()))


def lookalike_key(nick: str) -> str:
    """What two nicknames share when a reader cannot tell them apart.

    The UTS #39 confusable skeleton (a Cyrillic "а" is an "a", "I" an "l", "0" an "O"), then
    case and accents away ("Łucja" and "Lucja" read alike to a child typing), then the skeleton
    again for what folding made. Unlike ``plain``, punctuation and word order count.
    """
    folded = unicodedata.normalize("NFKD", skeleton(" ".join(nick.split())).casefold().translate(_PLAIN))
    return skeleton("".join(ch for ch in folded if not unicodedata.combining(ch)))


def looks_like(nick: str, existing: Iterable[str]) -> str | None:
    """The first existing nickname (other than ``nick`` itself, case aside) that looks just like ``nick``."""
    key, own = lookalike_key(nick), _key(nick)
    return next((n for n in existing if _key(n) != own and lookalike_key(n) == key), None)


def distance(a: str, b: str, limit: int = 3) -> int:
    """Edits (insert, delete, change, swap of neighbours) from ``a`` to ``b``; stops at ``limit``.

    Only the band of cells within ``limit`` of the diagonal can stay under ``limit``, and a
    row whose every cell reached it ends the search: a few dozen cells, not the whole table.
    """
    if abs(len(a) - len(b)) >= limit:
        return limit
    big = limit + 1
    previous2: list[int] = []
    previous = [j if j < big else big for j in range(len(b) + 1)]
    for i, ca in enumerate(a, start=1):
        current = [big] * (len(b) + 1)
        current[0] = i if i < big else big
        low, high = max(1, i - limit), min(len(b), i + limit)
        for j in range(low, high + 1):
            cb = b[j - 1]
            cost = previous[j - 1] + (ca != cb)
            if previous[j] + 1 < cost:
                cost = previous[j] + 1
            if current[j - 1] + 1 < cost:
                cost = current[j - 1] + 1
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb and previous2[j - 2] + 1 < cost:
                cost = previous2[j - 2] + 1
            current[j] = cost
        if min(current[max(0, low - 1) : high + 1]) >= limit:
            return limit
        previous2, previous = previous, current
    return min(previous[-1], limit)


def allowed_edits(nick: str) -> int:
    """How many typos still make two nicknames look alike: none for short ones, more for long."""
    return _edits(plain(nick))


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


def duplicate_pairs(nicks: Iterable[str], limit: int | None = None) -> list[tuple[str, str]]:
    """Pairs of nicknames that may be one person twice, for the owner to confirm or ignore (the first ``limit``).

    Not every pair is compared (5,000 names are 12.5 million pairs): two names within k
    edits share a string made by deleting at most k letters from each (symmetric delete),
    so only names that share such a string are compared. Same answer, same order.
    """
    unique = sorted(set(nicks), key=nick_key)
    plains = [plain(n) for n in unique]
    edits = [_edits(p) for p in plains]
    variants = [_deletions(folded, most) for folded, most in zip(plains, edits, strict=True)]
    index: dict[str, list[int]] = {}
    for i, own in enumerate(variants):
        for variant in own:
            index.setdefault(variant, []).append(i)
    pairs: list[tuple[str, str]] = []
    for i, folded in enumerate(plains):
        candidates = {j for variant in variants[i] for j in index[variant] if j > i}
        for j in sorted(candidates):
            other, most = plains[j], min(edits[i], edits[j])
            if folded == other or (most > 0 and distance(folded, other, most + 1) <= most):
                pairs.append((unique[i], unique[j]))
                if limit is not None and len(pairs) >= limit:
                    return pairs
    return pairs


def _edits(folded: str) -> int:
    """``allowed_edits`` of an already folded nickname."""
    return 0 if len(folded) <= 3 else 1 if len(folded) <= 7 else 2


def _deletions(text: str, most: int) -> set[str]:
    """``text`` with up to ``most`` characters deleted, in every way."""
    found, layer = {text}, {text}
    for _ in range(most):
        layer = {word[:k] + word[k + 1 :] for word in layer for k in range(len(word))}
        found |= layer
    return found


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
