"""Two clubs on one scale (docs/calibration.md): the match file, and the offset between two clubs' numbers.

Pure: no I/O, no clock. The club text: a group that plays among itself drifts; a few games
between groups and a shift by the mean result error fix it, "and by the same road two clubs
with uncalibrated rankings can play each other".

- **The match file** (``semedori-match``, version ``FORMAT``) carries an evening of games between
  two clubs: for each game both players and their strengths at the time, each on their own club's
  scale, the result and the margin. It names the club that wrote it (its id and name) and the
  rules of the sizes played (a different rules version is refused: the margins would not mean the
  same). Two seals guard it: ``checksum``, the SHA-256 of its content, finds a file damaged on the
  way; ``seal``, an HMAC-SHA256 of the same content keyed with the **match code** both owners
  noted at the match, finds a file changed by someone who recomputed the checksum (a forgery).
- **The offset**: how many strengths stronger than its own numbers the other club's players
  played, on our scale. The other player's margin is modelled as ``c + k·δ + ε``, ``c`` what the
  handicap and the two numbers expected (as docs/fairness.md, with the size's table constant
  ``k``), ``δ`` the offset; the likelihood (margins as they are, clear results as "at least the
  clear margin", unmeasured wins as who won) gives ``δ`` and its likelihood-ratio interval.
- **The suggested shift**: ``δ`` in whole strengths, for either club: ours down by ``δ``
  (``−δ``), or theirs up by ``δ``. Never applied here: the owner previews it as a dated shift.
- **The club rating**: our offset against each other club met, from every match imported.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from kiosk.catalogue import N_, translate
from kiosk.config import Config
from kiosk.errors import HistoryError, SemedoriError
from kiosk.events import RESIGNATION, Margin, _size, _strength, format_at, margin_json, parse_at, parse_margin
from kiosk.fairness import CHI2_95, Interval, _crossing, _log_normal_tail, _maximum
from kiosk.handicap import KOMI, MOVE_POINTS, SizeRules, handicap_for
from kiosk.scale import QUARTERS, Quarters, as_number

FORMAT = "semedori-match"
VERSION = 1
MATCH_GAMES = 6  # fewer games between two clubs say too little to shift anyone
LARGEST_FILE = 2_000_000  # characters: an evening of games is a few kilobytes

MESSAGES: dict[str, str] = {
    "match-not-json": N_("This is not a match file: it is not readable JSON."),
    "match-format": N_("This is not a match file of this version (semedori-match, version {version})."),
    "match-too-large": N_("This file is too large to be a match file."),
    "match-damaged": N_("The match file is damaged: its checksum does not match its content. Ask for it again."),
    "match-forged": N_(
        "The match file was changed after it was written, or the match code is wrong: its seal does not match."
    ),
    "match-code": N_("Type the match code both owners noted at the match (at least 6 characters)."),
    "match-rules": N_(
        "The other club plays {size}x{size} by other rules ({theirs}; ours: {ours}): its margins cannot be compared."
    ),
    "match-own": N_("This match file was written by this club: import it at the other club."),
    "match-bad-game": N_("Game {number} of the match file is not valid: {detail}."),
    "match-empty": N_("The match file has no games."),
    "match-twice": N_("This match was imported already ({at})."),
}


class MatchError(SemedoriError, ValueError):
    """A match file that cannot be imported: a code of ``MESSAGES``; nothing was changed."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        params = {k: v.message(language) if isinstance(v, HistoryError) else v for k, v in self.params.items()}
        return translate(language, MESSAGES[self.code], **params)


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: ``home`` is a player of the club that wrote the file, ``away`` of the other club."""

    at: datetime
    size: int
    home: str
    home_strength: Quarters  # on the writing club's scale
    away: str
    away_strength: Quarters  # on the other club's scale
    winner: str | None  # "home", "away", None for a draw
    by: Margin


@dataclass(frozen=True)
class Match:
    """A match file's content: who wrote it, under which rules, and the games."""

    club_id: str
    club_name: str
    other_id: str  # the club met, as the writer knew it ("" when not known)
    other_name: str
    rules: dict[str, list[Any]]  # size -> [points per strength, clear margin, training moves], as text
    games: tuple[MatchGame, ...]


def size_rules_text(rules: SizeRules) -> list[Any]:
    return [str(rules.points_per_strength), str(rules.clear_margin), rules.training_moves]


def _content(match: Match) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {"id": match.club_id, "name": match.club_name},
        "other": {"id": match.other_id, "name": match.other_name},
        "rules": match.rules,
        "games": [
            {
                "at": format_at(g.at),
                "size": g.size,
                "home": g.home,
                "home_strength": as_number(g.home_strength),
                "away": g.away,
                "away_strength": as_number(g.away_strength),
                "winner": g.winner,
                **({"by": margin_json(g.by)} if g.by is not None else {}),
            }
            for g in match.games
        ],
    }


def _canonical(content: dict[str, Any]) -> bytes:
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _check_code(code: str) -> bytes:
    cleaned = "".join(code.split()).upper()
    if len(cleaned) < 6:
        raise MatchError("match-code")
    return cleaned.encode("utf-8")


def write_match(match: Match, code: str) -> str:
    """The match file's text: its content with the checksum and the seal keyed by the match code."""
    content = _content(match)
    body = _canonical(content)
    sealed = {
        **content,
        "checksum": hashlib.sha256(body).hexdigest(),
        "seal": hmac.new(_check_code(code), body, hashlib.sha256).hexdigest(),
    }
    return json.dumps(sealed, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def read_match(text: str, code: str, own_id: str, config: Config) -> Match:
    """A match file checked whole: format, checksum, seal, not our own, rules as ours, every game; MatchError."""
    key = _check_code(code)
    if len(text) > LARGEST_FILE:
        raise MatchError("match-too-large")
    try:
        raw = json.loads(text)
    except ValueError:
        raise MatchError("match-not-json") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT or raw.get("version") != VERSION:
        raise MatchError("match-format", version=VERSION)
    checksum, seal = raw.pop("checksum", None), raw.pop("seal", None)
    body = _canonical(raw)
    if not isinstance(checksum, str) or not hmac.compare_digest(checksum, hashlib.sha256(body).hexdigest()):
        raise MatchError("match-damaged")
    if not isinstance(seal, str) or not hmac.compare_digest(seal, hmac.new(key, body, hashlib.sha256).hexdigest()):
        raise MatchError("match-forged")
    try:
        club, other, rules, games = raw["club"], raw["other"], raw["rules"], raw["games"]
        club_id, club_name = str(club["id"]), str(club["name"])
        other_id, other_name = str(other["id"]), str(other["name"])
    except (KeyError, TypeError):
        raise MatchError("match-format", version=VERSION) from None
    if club_id == own_id:
        raise MatchError("match-own")
    if not isinstance(games, list) or not games:
        raise MatchError("match-empty")
    parsed = tuple(_game(number, line) for number, line in enumerate(games, start=1))
    for size in sorted({g.size for g in parsed}):
        ours = size_rules_text(config.size_rules[size])
        theirs = rules.get(str(size)) if isinstance(rules, dict) else None
        if theirs != ours:
            raise MatchError("match-rules", size=size, theirs=_rules_words(theirs), ours=_rules_words(ours))
    return Match(club_id, club_name, other_id, other_name, rules, parsed)


def _rules_words(rules: object) -> str:
    if isinstance(rules, list) and len(rules) == 3:
        return f"{rules[0]} / {rules[1]} / {rules[2]}"
    return "?"


def _game(number: int, line: object) -> MatchGame:
    try:
        if not isinstance(line, dict):
            raise HistoryError("bad-json", detail="not an object")
        size = _size(line.get("size"))
        winner = line.get("winner")
        if winner not in ("home", "away", None):
            raise HistoryError("bad-winner", nick=winner)
        by = parse_margin(line.get("by"), size) if winner is not None else None
        home, away = line.get("home"), line.get("away")
        if not isinstance(home, str) or not isinstance(away, str) or not home.strip() or not away.strip():
            raise HistoryError("bad-players")
        return MatchGame(
            parse_at(line.get("at")),
            size,
            home,
            _strength(line.get("home_strength")),
            away,
            _strength(line.get("away_strength")),
            winner,
            by,
        )
    except HistoryError as error:
        raise MatchError("match-bad-game", number=number, detail=error) from None


# --- the offset -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Offset:
    """How much stronger than their numbers the other club's players played, on our scale, in strength."""

    size: int
    games: int
    measured: int
    found: Interval | None  # None: not enough games
    shift_ours: Quarters  # the shift of our size that would put us on their scale (0: none)
    shift_theirs: Quarters  # the shift of their size that would put them on ours

    @property
    def enough(self) -> bool:
        return self.found is not None

    @property
    def clear(self) -> bool:
        """True when the interval leaves 0 out: the two scales differ."""
        return self.found is not None and not self.found.holds(0.0)


def _given(difference: Quarters, rules: SizeRules) -> float:
    """The points the handicap gives the weaker player for a difference (0 in an even game)."""
    h = handicap_for(abs(difference), rules)
    if h.even:
        return 0.0
    return float(KOMI + MOVE_POINTS * (h.moves - 1) + h.prisoners)


def offset(games: tuple[MatchGame, ...] | list[MatchGame], size: int, rules: SizeRules, ours_home: bool) -> Offset:
    """The offset of the other club on ``size`` from a match's games (``ours_home``: our players are ``home``).

    The handicap of each game is the table's for the two numbers as written (as an occasional game).
    """
    mine = [g for g in games if g.size == size]
    k = float(rules.points_per_strength)
    clear_margin = float(rules.clear_margin)
    exact: list[float] = []  # the other player's margin minus what the numbers expected, in points
    cells: list[tuple[float, float, int]] = []  # (expected, threshold, sign) of clear results and unmeasured wins
    for g in mine:
        us, them = (g.home_strength, g.away_strength) if ours_home else (g.away_strength, g.home_strength)
        difference = them - us  # positive: their player hangs higher
        points = _given(difference, rules)
        # what the numbers expected for their player: the strength difference's worth, less (or plus) the handicap
        worth = k * difference / QUARTERS
        expected = worth - points if difference > 0 else worth + points if difference < 0 else 0.0
        theirs_won = None if g.winner is None else (g.winner == "away") == ours_home
        if theirs_won is None:
            exact.append(0.0 - expected)
            continue
        sign = 1 if theirs_won else -1
        if g.by == RESIGNATION or (isinstance(g.by, Fraction) and g.by >= rules.clear_margin):
            cells.append((expected, clear_margin, sign))
        elif isinstance(g.by, Fraction):
            exact.append(sign * float(g.by) - expected)
        else:
            cells.append((expected, 0.0, sign))
    measured = len(exact) + sum(1 for _, t, _ in cells if t)
    if len(mine) < MATCH_GAMES:
        return Offset(size, len(mine), measured, None, 0, 0)

    def like(delta: float, spread: float) -> float:
        shift = k * delta
        total = -len(exact) * math.log(spread) - sum((r - shift) ** 2 for r in exact) / (2 * spread * spread)
        for expected, threshold, sign in cells:
            total += _log_normal_tail(sign * (expected + shift - sign * threshold) / spread)
        return total

    def profile(delta: float) -> float:
        return _maximum(lambda s: like(delta, math.exp(s)), math.log(0.5), math.log(300.0), 36)[1]

    reach = 40.0  # strengths: two scales further apart than this are not one game's business
    best, peak = _maximum(profile, -reach, reach, 40)
    level = peak - CHI2_95 / 2
    low = -reach if profile(-reach) >= level else _crossing(profile, best, -reach, level)
    high = reach if profile(reach) >= level else _crossing(profile, best, reach, level)
    found = Interval(best, low, high)
    whole = _whole(best) if not found.holds(0.0) else 0
    return Offset(size, len(mine), measured, found, -whole, whole)


def _whole(value: float) -> Quarters:
    """A shift in whole strengths (quarters), the nearest whole number, a half toward no shift."""
    rounded = math.floor(abs(value) + 0.5 - 1e-9)
    return int(math.copysign(rounded, value)) * QUARTERS


@dataclass(frozen=True)
class Met:
    """One club met, for the club rating: our offset against it (the last match's, with its interval)."""

    club_id: str
    club_name: str
    size: int
    matches: int
    games: int
    last: datetime
    offset: Offset


def club_rating(matches: list[tuple[Match, bool]], config: Config) -> list[Met]:
    """Our offset against each other club met, per size, from every imported match (``bool``: our players home).

    All the matches against one club count together, as one evening of many games.
    """
    by_club: dict[tuple[str, int], list[tuple[Match, bool]]] = {}
    for match, ours_home in matches:
        # a club we wrote to is known by its id when it sent us a file before, else by its name
        other = (match.other_id or "name:" + match.other_name.casefold()) if ours_home else match.club_id
        for size in sorted({g.size for g in match.games}):
            by_club.setdefault((other, size), []).append((match, ours_home))
    result = []
    for (club_id, size), found in sorted(by_club.items()):
        games = [g for match, _ in found for g in match.games]
        home = found[0][1]
        name = found[-1][0].other_name if home else found[-1][0].club_name
        # every match of one club read from the same side: a match we wrote has us at home
        flipped = [g if ours_home == home else _flip(g) for match, ours_home in found for g in match.games]
        fitted = offset(flipped, size, config.size_rules[size], home)
        result.append(Met(club_id, name, size, len(found), len(games), max(g.at for g in games), fitted))
    return result


def _flip(g: MatchGame) -> MatchGame:
    winner = {"home": "away", "away": "home", None: None}[g.winner]
    return MatchGame(g.at, g.size, g.away, g.away_strength, g.home, g.home_strength, winner, g.by)
