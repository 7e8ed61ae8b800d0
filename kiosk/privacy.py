"""Children's privacy: the public label of every magnet, and who is hidden from public pages.

Each player is shown on the wall and the public pages by a *label*: the nickname, the
initials ("Łucja Kowalska" → "Ł.K."), or a short name the owner chose. The club sets the
default, the owner may set it per player, and a player may be hidden from the public
pages (the wall still shows them, never by nickname). The owner's pages show everything.

``public_labels`` is the one place labels are made; the wall and the web both call it.
It is pure: the settings are read by the store and passed in.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from kiosk.board import GameResult, Magnet
from kiosk.errors import HistoryError
from kiosk.events import clean_nick, nick_key
from kiosk.names import lookalike_key, resolve

NICK, INITIALS, SHORT = "nick", "initials", "short"
MODES = (NICK, INITIALS, SHORT)
AS_CLUB = "club"
MINORS_MODES = (INITIALS, AS_CLUB)  # a minor by initials unless a consent is noted, or as the club shows everyone
SHORT_NAME_LONGEST = 20
# Two players whose labels would be the same are told apart by a small raised number
# ("A.K.", "A.K.²"): it tells nothing more of the hidden nickname, as another letter would.
_RAISED = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
MOST_INITIALS = 3
FALLBACK = "?"
# A symbol the owner may give a player: "M.² ★" and "M.² ♥" are two children a child tells apart
# without the label saying more of either name. Shapes, not colours: every panel draws them (a black-and-white
# one too, and for a colour-blind child), and DejaVu Sans, the wall's type, has each one. Never ○ or ●: the wall's
# tonight page marks White and Black with them.
MARKS = ("★", "♪", "▲", "■", "◆", "♥", "♣", "♠", "☀", "☾", "✿", "✚")


@dataclass(frozen=True, slots=True)
class PlayerPrivacy:
    """What the owner set for one player; the defaults show the club's choice."""

    show: str | None = None  # NICK, INITIALS or SHORT; None follows the club's setting
    short_name: str = ""
    hidden: bool = False  # not on the public pages and API (the wall shows the label)
    minor: bool = False  # marked in the owner's export when the owner asks for it
    # A minor's consent to be shown by nickname, as the owner noted it: True given, False not,
    # None not noted; and the day it was noted ("2026-09-01"). Never whose consent: no parents' names.
    consent: bool | None = None
    consent_on: str = ""
    mark: str = ""  # one of MARKS, drawn beside the label on the phone and the wall; "" none


@dataclass(frozen=True)
class Privacy:
    """The club's setting and every player's, by nick key (``kiosk.events.nick_key``)."""

    club_show: str = NICK
    players: Mapping[str, PlayerPrivacy] = field(default_factory=dict)
    # How a minor is shown when the owner chose nothing for them and no consent is noted: by initials (the
    # club's default, MINORS_MODES) or as the club shows everyone.
    minors_show: str = INITIALS
    # When each player joined (their first entry in the history), by nick key: labels are given in this
    # order, so a label once given stays with its player; players missing here come last.
    joined: Mapping[str, int] = field(default_factory=dict)

    def of(self, nick: str) -> PlayerPrivacy:
        """One player's settings (the defaults when the owner set none)."""
        return self.players.get(nick_key(nick), PlayerPrivacy())

    def hidden(self, nick: str) -> bool:
        """True when the player is hidden from the public pages."""
        return self.of(nick).hidden

    def shows_nick(self, nick: str) -> bool:
        """True when the public sees this player's nickname."""
        return _mode(self, nick) == NICK


def _mode(privacy: Privacy, nick: str) -> str:
    """How a player is shown: their own choice, else the club's; never the nickname when hidden."""
    own = privacy.of(nick)
    minor_by_initials = own.minor and own.consent is not True and privacy.minors_show == INITIALS
    mode = own.show or (INITIALS if minor_by_initials else privacy.club_show)
    if mode == SHORT and not own.short_name.strip():
        mode = INITIALS
    if own.hidden and mode == NICK:
        mode = SHORT if own.short_name.strip() else INITIALS
    return mode


def _clusters(text: str) -> list[str]:
    """The characters a reader sees: a letter with its accents, an emoji with its modifiers, a flag."""
    found: list[str] = []
    joined = False
    for ch in text:
        regional = 0x1F1E6 <= ord(ch) <= 0x1F1FF
        extends = (
            unicodedata.combining(ch) != 0
            or unicodedata.category(ch) in ("Mn", "Me")
            or 0xFE00 <= ord(ch) <= 0xFE0F  # variation selectors
            or 0x1F3FB <= ord(ch) <= 0x1F3FF  # skin tones
            or 0xE0020 <= ord(ch) <= 0xE007F  # tag letters (flags of regions)
            or ch == "\u200d"
        )
        pair = regional and found and len(found[-1]) == 1 and 0x1F1E6 <= ord(found[-1]) <= 0x1F1FF
        if found and (extends or joined or pair):
            found[-1] += ch
        else:
            found.append(ch)
        joined = ch == "\u200d"
    return found


def initials(nick: str) -> str:
    """The initials of a nickname: "Łucja Kowalska" → "Ł.K.", "王小明" → "王.", "🐉 Smok" → "🐉.S."; never empty."""
    text = unicodedata.normalize("NFC", nick)
    words: list[str] = []
    word = ""
    for cluster in _clusters(text):
        base = cluster[0]
        if base.isalnum() or unicodedata.category(base) in ("So", "Sk") or len(cluster) > 1:
            word += cluster
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    letters = [_clusters(w)[0].upper() if _clusters(w)[0].isalpha() else _clusters(w)[0] for w in words]
    if not letters:  # a nickname of punctuation only: its first visible character
        letters = [c for c in _clusters(text) if not c.isspace()][:1] or [FALLBACK]
    return "".join(f"{letter}." for letter in letters[:MOST_INITIALS])


def _base_label(privacy: Privacy, nick: str) -> str:
    mode = _mode(privacy, nick)
    if mode == NICK:
        return nick
    if mode == SHORT:
        return " ".join(privacy.of(nick).short_name.split())
    return initials(nick)


def raised(number: int) -> str:
    """A number in raised digits: 2 → "²"."""
    return str(number).translate(_RAISED)


def public_labels(nicks: Iterable[str], privacy: Privacy) -> dict[str, str]:
    """Every player's public label, by nickname: unique (case aside), never empty.

    Players shown by nickname keep it; the others take their initials or short name, and
    where two would read the same (or the same as a shown nickname), the one who joined
    later gets a raised number: "A.K.", "A.K.²". Joining order, not nickname order: a
    newcomer "Daniel" must not take Dawid's "D."; without the order (a pure
    call with no store), nickname order.
    """
    last = len(privacy.joined) + 1
    unique = sorted(
        {nick_key(n): n for n in nicks}.values(), key=lambda n: (privacy.joined.get(nick_key(n), last), nick_key(n))
    )
    labels: dict[str, str] = {}
    taken: set[str] = set()
    numbered: dict[str, int] = {}  # the last number given to a label: fifty "A.K." need not count from 2 each
    for nick in unique:
        if _mode(privacy, nick) == NICK:
            labels[nick] = nick
            taken.add(nick_key(nick))
    for nick in unique:
        if nick in labels:
            continue
        base = _base_label(privacy, nick) or initials(nick)
        label, number = base, numbered.get(nick_key(base), 1)
        while nick_key(label) in taken:
            number += 1
            label = base + raised(number)
        numbered[nick_key(base)] = number
        labels[nick] = label
        taken.add(nick_key(label))
    return labels


def check_short_name(raw: str, nick: str, nicks: Iterable[str], labels: Mapping[str, str]) -> str:
    """A short name the owner typed, cleaned; ValueError with a message code when it cannot be one.

    It may not be empty of letters, longer than 20 characters, nor read like another
    player's nickname or label (the public would take one for the other).
    """
    name = " ".join(raw.split())
    if not name:
        return ""
    if len(name) > SHORT_NAME_LONGEST:
        raise ValueError("short-name-long")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("short-name-control")
    key = nick_key(name)
    others = [n for n in nicks if nick_key(n) != nick_key(nick)]
    if any(nick_key(n) == key for n in others):
        raise ValueError("short-name-taken")
    if any(nick_key(labels.get(n, "")) == key for n in others):
        raise ValueError("short-name-taken")
    return name


@dataclass(frozen=True)
class PublicNames:
    """The public face of a board's players: a label for each, and which are hidden."""

    labels: Mapping[str, str]  # nick key -> label
    owners: Mapping[str, str]  # label's key -> the nickname it stands for
    hidden_keys: frozenset[str]
    club_show: str = NICK
    entries: Mapping[str, int] = field(default_factory=dict)  # nick key -> the entry the player joined with
    marks: Mapping[str, str] = field(default_factory=dict)  # nick key -> the owner's symbol (MARKS) for them

    def mark(self, name: str) -> str:
        """The symbol beside a player's label, by their nickname or their label; "" when none."""
        key = nick_key(name)
        return self.marks.get(key) or self.marks.get(nick_key(self.owners.get(key, "")), "")

    def marked(self, nick: str) -> str:
        """The label as the wall draws it: the owner's symbol, then the label ("★ M.²"); the label alone else."""
        label, mark = self.label(nick), self.mark(nick)
        return f"{mark} {label}" if mark else label

    def on_the_wall(self) -> PublicNames:
        """The same names with each owner's symbol beside its label ("★ M.²"), as every wall page draws them."""
        if not self.marks:
            return self
        nicks = list(self.owners.values())
        labels = {nick_key(n): self.marked(n) for n in nicks}
        return replace(self, labels=labels, owners={nick_key(labels[nick_key(n)]): n for n in nicks})

    def nick_of_entry(self, entry: int) -> str | None:
        """The player who joined with this history entry (a phone's "That's me" keeps it, not a label)."""
        return next((n for n in self.owners.values() if self.entries.get(nick_key(n)) == entry), None)

    def label(self, nick: str) -> str:
        """The label the public sees for a nickname (a name no longer on the board: by the club's setting)."""
        found = self.labels.get(nick_key(nick))
        if found is not None:
            return found
        return nick if self.club_show == NICK else initials(nick)

    def hidden(self, nick: str) -> bool:
        """True when the player is left off the public pages."""
        return nick_key(nick) in self.hidden_keys

    def nick_for(self, typed: str) -> str | None:
        """The player a phone means: their label ("A.K.", a short name), or their own whole nickname.

        A label wins over a nickname; a typed label without Polish letters still finds it
        ("Lucja" → "Łucja"). A nickname shown as initials is found only when typed whole, so
        nobody can fish for it letter by letter; a hidden player's nickname is not found at
        all (a hidden child types their label), so it cannot be tied to the label either.
        """
        key = nick_key(" ".join(typed.split()))
        if not key:
            return None
        if key in self.owners:
            return self.owners[key]
        nick = next((n for n in self.owners.values() if nick_key(n) == key), None)
        if nick is not None:
            return None if self.hidden(nick) else nick
        label = resolve(typed, list(self.labels.values()))
        return self.owners[nick_key(label)] if label is not None else None

    def nick_of_label(self, name: str) -> str | None:
        """The nickname a label stands for, exactly (case aside); None for anything else."""
        return self.owners.get(nick_key(name))

    def shown(self, magnets: Iterable[Magnet]) -> tuple[Magnet, ...]:
        """The magnets a public page lists (hidden players left out), each under its label."""
        return tuple(replace(m, nick=self.label(m.nick)) for m in magnets if not self.hidden(m.nick))

    def magnet(self, magnet: Magnet) -> Magnet:
        """A magnet under its label (the wall shows hidden players too)."""
        return replace(magnet, nick=self.label(magnet.nick))

    def game(self, game: GameResult) -> GameResult:
        """A game with every name in it replaced by its label."""
        name = self.label
        return game._replace(
            players=(name(game.players[0]), name(game.players[1])),
            winner=name(game.winner) if game.winner is not None else None,
            white=name(game.white) if game.white is not None else None,
            moves={name(nick): move for nick, move in game.moves.items()},
            milestones=tuple((kind, *(name(n) for n in names)) for kind, *names in game.milestones),
        )


def public_names(nicks: Iterable[str], privacy: Privacy) -> PublicNames:
    """Labels and hidden flags of every player on the board (``public_labels`` made searchable)."""
    labels = public_labels(nicks, privacy)
    return PublicNames(
        labels={nick_key(n): label for n, label in labels.items()},
        owners={nick_key(label): n for n, label in labels.items()},
        hidden_keys=frozenset(nick_key(n) for n in labels if privacy.hidden(n)),
        club_show=privacy.club_show,
        entries={nick_key(n): privacy.joined[nick_key(n)] for n in labels if nick_key(n) in privacy.joined},
        marks={nick_key(n): privacy.of(n).mark for n in labels if privacy.of(n).mark in MARKS},
    )


def check_new_nick(raw: object, names: PublicNames, deliberate: bool = False) -> None:
    """Refuse a new player's nickname that would be taken for someone already on the board.

    - the same nickname (case aside): "taken" when the public sees that nickname; otherwise,
      and for a hidden child, the answer given for any name the phone may not see
      ("nick-unavailable"), which does not say whether someone has it;
    - another player's label ("D." in a club that shows initials): it would take the label,
      and a phone's typed "D." would then name the newcomer;
    - a look-alike (``kiosk.names.lookalike_key``: "Łucjа" with a Cyrillic а, "Lucja" for
      Łucja): "looks like Łucja", naming the player by their label, or "unavailable" when the
      public does not see their nickname. ``deliberate`` (the owner) lets a look-alike in,
      and is told whose label a nickname is.
    """
    nick = clean_nick(raw)
    key, alike = nick_key(nick), lookalike_key(nick)
    players = list(names.owners.values())
    for other in players:
        if nick_key(other) == key:
            raise HistoryError("nick-taken" if _named(names, other) else "nick-unavailable", nick=nick)
    if key in names.owners:  # another player's label, read exactly
        if deliberate:  # the owner sees every nickname: say whose label it is
            raise HistoryError("nick-is-label", nick=nick, other=names.owners[key])
        raise HistoryError("nick-unavailable", nick=nick)
    if deliberate:
        return
    for other in players:
        label = names.label(other)
        if lookalike_key(other) == alike and _named(names, other):
            raise HistoryError("nick-looks-like", nick=nick, other=label)
        if alike in (lookalike_key(other), lookalike_key(label)):
            raise HistoryError("nick-unavailable", nick=nick)


def _named(names: PublicNames, nick: str) -> bool:
    """True when the public sees this player by their own nickname (not hidden, not initials or a short name)."""
    return not names.hidden(nick) and nick_key(names.label(nick)) == nick_key(nick)
