"""The wall's test clubs: the golden pictures, the render tests and the benchmarks draw them.

Test tooling, not the product: the product's one demo club is kiosk/demo.py's (``semedori demo``,
``make run``, ``semedori render --demo``). These clubs are fixed data with a fixed "now", so a golden
picture stays the same byte for byte; bench/ scripts import this file by path.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import datetime, timedelta

from display.wall import WallData, from_board
from kiosk.board import Magnet
from kiosk.config import Config
from kiosk.events import parse_line
from kiosk.pairing import Side
from kiosk.replay import replay
from kiosk.scale import QUARTERS, fields
from kiosk.tournament import (
    A_WINS,
    B_WINS,
    DRAW,
    Tournament,
    first_rounds,
    format_for,
    next_round,
    planned_rounds,
    seeded,
)

# Names from the club's neighbourhood: Polish, Czech, German, Cyrillic, one emoji.
NICKS = (
    "Bianka",
    "Czarek",
    "Żaneta",
    "Łukasz",
    "Grzegorz Brzęczyszczykiewicz",
    "Ola",
    "Kuba",
    "Źdźbło",
    "Jiří",
    "Řehoř",
    "Šárka",
    "Jürgen",
    "Größe",
    "Ännchen",
    "Дмитрий",
    "Ёжик",
    "Наталья",
    "Mateusz",
    "Zosia",
    "Wojtek",
    "Tomek",
    "Agnieszka",
    "Piotr",
    "Ewa",
    "Marek",
    "Hania",
    "Staś",
    "Kot 🐈",
    "Igor",
    "Ula",
)
START = datetime(2026, 9, 1, 18, 0)
NOW = datetime(2026, 11, 26, 21, 30)  # a Thursday evening: the week has a few games


def history(players: int = len(NICKS), games: int = 260, seed: int = 7, size: int = 13) -> list[str]:
    """History lines of a club: members spread over the scale, a few guests, three months of games."""
    # Long: the demo club's history written out as data (players, then games, then this week's).
    rng = random.Random(seed)
    extra = (f"Gracz {n}" for n in range(players - len(NICKS)))
    nicks = list(NICKS[:players]) if players <= len(NICKS) else [*NICKS, *extra]
    lines = []
    for index, nick in enumerate(nicks):
        at = START + timedelta(seconds=index * 20)
        if index % 9 == 4:
            lines.append(
                {"type": "player", "at": _at(at), "nick": nick, "size": size, "status": "guest", "strength": 0}
            )
        else:
            strength = rng.choice([q for q in fields() if 8 * QUARTERS <= q <= 52 * QUARTERS]) / QUARTERS
            lines.append(
                {"type": "player", "at": _at(at), "nick": nick, "size": size, "status": "member", "strength": strength}
            )
    if size == 13:  # a few players with a 9x9 magnet too, so button A has sizes to cycle
        for index, nick in enumerate(nicks[:6]):
            lines.append(
                {
                    "type": "player",
                    "at": _at(START + timedelta(minutes=50 + index)),
                    "nick": nick,
                    "size": 9,
                    "status": "member",
                    "strength": 20 + 2 * index,
                }
            )
    span = (NOW - START).total_seconds()
    times = sorted(START + timedelta(hours=1, seconds=rng.uniform(0, span - 3600)) for _ in range(games))
    for at in times:
        board_size = 9 if rng.random() < 0.1 else size
        pool = nicks[:6] if board_size == 9 else nicks
        a, b = rng.sample(pool, 2)
        winner = rng.choice([a, b])
        by = rng.choice(["resignation", None, rng.randrange(1, 60) + 0.5])
        lines.append({"type": "game", "at": _at(at), "size": board_size, "players": [a, b], "winner": winner, "by": by})
    # This week: two newcomers (guests, one from a declared grade) and their first games.
    lines += [
        {"type": "player", "at": "2026-11-23T18:00", "nick": "Filip", "size": size, "status": "guest", "kyu": 15},
        {"type": "player", "at": "2026-11-23T18:01", "nick": "Marta", "size": size, "status": "guest", "strength": 0},
        {
            "type": "game",
            "at": "2026-11-23T18:30",
            "size": size,
            "players": ["Filip", "Marta"],
            "winner": "Marta",
            "by": "resignation",
        },
        {
            "type": "game",
            "at": "2026-11-24T18:30",
            "size": size,
            "players": ["Filip", nicks[1]],
            "winner": "Filip",
            "by": None,
        },
    ]
    return [json.dumps(line, ensure_ascii=False) for line in lines]


def _at(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def demo_data(players: int = len(NICKS), games: int = 260, config: Config | None = None) -> WallData:
    """The demo club's wall data, as of the demo's fixed "now"."""
    config = config or Config()
    board = replay([parse_line(line) for line in history(players, games)], config)
    return from_board(board, config, NOW)


# Nicknames as a mixed club writes them: Polish, Czech and German letters, Cyrillic, CJK, emoji.
MIXED_NAMES = (
    "Żaneta",
    "Łukasz",
    "Źdźbło",
    "Grzegorz Brzęczyszczykiewicz",
    "Jiří",
    "Größe",
    "Дмитрий",
    "Ёжик",
    "Наталья",
    "Светлана",
    "小龍",
    "囲碁の王",
    "김민수",
    "李白",
    "さくら",
    "Kot 🐈",
    "🦊",
    "🐉 Smok",
    "Staś",
    "Małgosia",
    "Bartłomiej",
    "Agnieszka",
    "Krzyś",
    "Wiktoria",
    "Ołeksandr",
    "Юлия",
    "王小明",
    "🐼",
)
SYLLABLES = ("ka", "to", "mi", "ra", "ze", "lu", "po", "ny", "be", "da", "sa", "wo", "ść", "ża", "ło", "ją")


def big_club(count: int = 120, crowded: int = 40, seed: int = 5, size: int = 13) -> WallData:
    """A large club on one size: mixed alphabets, ``crowded`` magnets on field 20, the rest around 30."""
    rng = random.Random(seed)
    nicks: list[str] = list(MIXED_NAMES[:count])
    taken = {nick.casefold() for nick in nicks}
    while len(nicks) < count:
        nick = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
        if rng.random() < 0.15:
            nick += f" {rng.choice('ABCDEFGHIJKLMNOPRSTUWZ')}."
        if nick.casefold() not in taken:
            taken.add(nick.casefold())
            nicks.append(nick)
    return hung_club(nicks, crowded, size, rng)


# Tonight's fixed evening: who checked in by 21:30, a few newcomers with CJK and emoji nicknames,
# and the games played since the evening began (one on 9x9). The tonight page's golden images draw it.
TONIGHT_PLAYERS = (("小龍", 28), ("さくら", 18), ("🦊", 31), ("김민수", 24))
TONIGHT_HERE = (
    "Żaneta",
    "Łukasz",
    "Дмитрий",
    "Наталья",
    "小龍",
    "さくら",
    "🦊",
    "Kot 🐈",
    "Grzegorz Brzęczyszczykiewicz",
    "Ola",
    "Ewa",
    "Staś",
    "Ёжик",
    "김민수",
    "Źdźbło",
)
TONIGHT_GAMES = (
    ("2026-11-26T18:40", 13, ("Łukasz", "Ola"), "Łukasz"),
    ("2026-11-26T19:15", 13, ("小龍", "Дмитрий"), "Дмитрий"),
    ("2026-11-26T19:20", 9, ("Bianka", "Czarek"), "Czarek"),
    ("2026-11-26T20:05", 13, ("Kot 🐈", "Staś"), "Kot 🐈"),
    ("2026-11-26T20:50", 13, ("さくら", "Ёжик"), "さくら"),
)


def tonight_data(language: str = "en", here: tuple[str, ...] = TONIGHT_HERE, played: bool = True) -> WallData:
    """The demo club on a Thursday evening at 21:30: fifteen players checked in, five games played tonight."""
    from display.tonight import evening

    config = Config(club_name="Semedori Go Club", form_url="http://semedori.local", language=language)
    lines = [parse_line(line) for line in history()]
    lines += [
        parse_line(
            json.dumps(
                {
                    "type": "player",
                    "at": "2026-11-26T18:00",
                    "nick": nick,
                    "size": 13,
                    "status": "guest" if nick == "🦊" else "member",
                    "strength": strength,
                },
                ensure_ascii=False,
            )
        )
        for nick, strength in TONIGHT_PLAYERS
    ]
    if played:
        lines += [
            parse_line(
                json.dumps(
                    {
                        "type": "game",
                        "at": at,
                        "size": size,
                        "players": list(players),
                        "winner": winner,
                        "by": "resignation",
                    },
                    ensure_ascii=False,
                )
            )
            for at, size, players, winner in TONIGHT_GAMES
        ]
    lines.sort(key=lambda event: event.at)
    board = replay(lines, config)
    data = from_board(board, config, NOW)
    return replace(data, tonight=evening(config, NOW, here, (), board.games))


# Tonight's small event, for the event page's golden images:
# six of tonight's players in a double round-robin, or forty of a mixed club in a Swiss, a few rounds played.
EVENT_SIX = ("Żaneta", "Łukasz", "小龍", "Дмитрий", "🦊", "Grzegorz Brzęczyszczykiewicz")


def demo_event(
    nicks: tuple[str, ...] = EVENT_SIX,
    strengths: dict[str, int] | None = None,
    played: int = 3,
    seed: int = 11,
    name: str = "",
    draws: float = 0.0,
) -> Tournament:
    """An event of ``nicks`` with ``played`` rounds decided and half the boards of the next (seeded results,
    a share ``draws`` of them drawn)."""
    rng = random.Random(seed)
    strengths = strengths or {}
    sides = [
        Side(nick, strengths.get(nick, (10 + (index * 7) % 40) * QUARTERS), False, False)
        for index, nick in enumerate(nicks)
    ]
    event_format = format_for(len(sides))
    event = Tournament(
        1,
        NOW.date(),
        13,
        event_format,
        planned_rounds(event_format, len(sides)),
        True,
        tuple(seeded(sides)),
        tuple(first_rounds(event_format, sides)),
        name=name,
    )
    strength = {s.nick: s.strength for s in sides}
    for number in range(1, played + 2):
        seats = []
        for seat in event.seats:
            if seat.round != number or seat.b is None or (number > played and seat.board % 2 == 0):
                seats.append(seat)
                continue
            a_wins = rng.random() < 0.5 + (strength[seat.a] - strength[seat.b]) / 400
            drawn = draws and rng.random() < draws
            seats.append(seat._replace(result=DRAW if drawn else A_WINS if a_wins else B_WINS))
        event = replace(event, seats=tuple(seats))
        event = replace(event, seats=(*event.seats, *next_round(event)))
    return event


def event_data(language: str = "en", count: int = 6) -> WallData:
    """Tonight's demo evening with an event on: six players (a double round-robin, round 4 of 10 on) or forty
    (a Swiss, round 4 of 11 on) named in Polish, Cyrillic, CJK and emoji."""
    from display.standings import of_event

    data = tonight_data(language)
    nicks: tuple[str, ...]
    if count == len(EVENT_SIX):
        nicks = EVENT_SIX
        magnets = data.magnets
    else:
        nicks = tuple(m.nick for m in big_club(count, crowded=0, seed=9).magnets)
        magnets = tuple(
            Magnet(nick, 13, (4 + (index * 13) % 48) * QUARTERS, "member") for index, nick in enumerate(nicks)
        )
        magnets = (*(m for m in data.magnets if m.nick not in nicks), *magnets)
    strengths = {m.nick: m.strength for m in magnets if m.size == 13}
    event = demo_event(nicks, strengths, name="Turniej andrzejkowy" if count > len(EVENT_SIX) else "")
    return replace(data, magnets=magnets, event=of_event(event, magnets, Config()))


# The clubs the layout is measured on: first names as a mixed club writes them, long ones included, a
# second or third of a name told apart by an initial or a number, as clubs do ("Przemysław D.", "さくら52").
SURVEY_NAMES = (
    "Bartłomiej",
    "Przemysław",
    "Weronika Ś.",
    "Małgorzata",
    "Grzegorz Brzęczyszczykiewicz",
    "Zosia",
    "Ola",
    "Александра",
    "Святослав",
    "Дмитрий",
    "Ёжик",
    "さくら",
    "小龍",
    "囲碁の王",
    "김민수",
    "王小明",
    "🐉 Smok",
    "Kot 🐈",
    "🦊",
    "Krzyś",
    "Agnieszka",
    "Jürgen",
    "Šárka",
    "Ołeksandr",
)
SURVEY_SIZES = (30, 120, 250)


def survey_club(count: int = 120, crowded: int | None = None, seed: int = 23, size: int = 13) -> WallData:
    """A club of ``count`` magnets named from ``SURVEY_NAMES``, repeats told apart by an initial or a number;
    ``crowded`` of them (default: 40, a third of a small club) on field 20, the rest around 30."""
    rng = random.Random(seed)
    crowded = min(40, count // 3) if crowded is None else crowded
    nicks: list[str] = []
    taken: set[str] = set()
    while len(nicks) < count:
        base = rng.choice(SURVEY_NAMES)
        nick = base
        if nick.casefold() in taken:
            latin = base[0].isascii() or base[0] in "ŁŚŻŹĆŃÓĘĄŠ"
            nick = (
                f"{base} {rng.choice('ABCDEFGHIJKLMNOPRSTUWZ')}."
                if latin and "." not in base
                else f"{base}{rng.randint(2, 99)}"
            )
        if nick.casefold() not in taken:
            taken.add(nick.casefold())
            nicks.append(nick)
    return hung_club(nicks, crowded, size, rng)


# tonightwall: an evening of 10 to 28 players for tonight's ruler: Polish, Cyrillic, CJK and
# emoji names, strengths spread over the fields (a few share one), a game in three played already tonight.
RULER_NAMES = (
    "Żaneta",
    "Łukasz",
    "Дмитрий",
    "小龍",
    "Małgosia",
    "🦊",
    "Grzegorz Brzęczyszczykiewicz",
    "Наталья",
    "さくら",
    "Bartłomiej",
    "Kot 🐈",
    "김민수",
    "Wiktoria",
    "Ёжик",
    "Źdźbło",
    "囲碁の王",
    "Krzyś",
    "Светлана",
    "🐉 Smok",
    "Agnieszka",
    "Ołeksandr",
    "王小明",
    "Staś",
    "Юлия",
    "Weronika Ś.",
    "Przemysław D.",
    "Przemysław U.",
    "🐼",
)


def ruler_evening(players: int = 18, language: str = "en", seed: int = 3) -> WallData:
    """An evening of ``players`` checked in on 13x13 at 21:30, a third of them with a game tonight."""
    from display.tonight import evening

    rng = random.Random(seed)
    config = Config(club_name="Semedori Go Club", form_url="http://semedori.local", language=language)
    nicks = list(RULER_NAMES[:players])
    spots = [f for f in fields() if 6 * QUARTERS <= f <= 32 * QUARTERS and f % QUARTERS == 0]
    lines: list[dict[str, object]] = [
        {
            "type": "player",
            "at": "2026-09-01T18:00",
            "nick": nick,
            "size": 13,
            "status": "guest" if index % 7 == 5 else "member",
            "strength": rng.choice(spots) / QUARTERS,
        }
        for index, nick in enumerate(nicks)
    ]
    at = datetime(2026, 11, 26, 18, 30)
    order = list(nicks)
    rng.shuffle(order)
    for a, b in zip(order[0 : players // 3 * 2 : 2], order[1 : players // 3 * 2 : 2], strict=False):
        at += timedelta(minutes=7)
        lines.append(
            {"type": "game", "at": _at(at), "size": 13, "players": [a, b], "winner": rng.choice([a, b]), "by": None}
        )
    events = [parse_line(json.dumps(line, ensure_ascii=False)) for line in lines]
    board = replay(events, config)
    data = from_board(board, config, NOW)
    return replace(data, tonight=evening(config, NOW, nicks, (), board.games))


# Names of any evening: the ruler's own, the club's, and the longest a nickname may be (30 characters), in Polish,
# Cyrillic, CJK and emoji.
LONG_NAMES = (
    "Grzegorz Brzęczyszczykiewicz",
    "Konstanty Ildefons Gałczyński",
    "Przemysław Wiśniewski-Żółtek",
    "Александра Константиновна Щ.",
    "Святослав Всеволодович Ж.",
    "東京大学囲碁部の田中太郎さん",
    "🦊 Lis Chytrusek z Podlasia 🐺",
    "Brzęczyszczykiewiczówna Ź.",
    "Zbigniew Źdźbłowski-Szczęsny",
    "Małgorzata Żółtowska-Ćwikła",
)
ANY_NAMES = tuple(
    name
    for name in dict.fromkeys((*RULER_NAMES, *NICKS, "Iga", "Nela", "🐙", "李", "Ян", "Øystein", "Ærø"))
    if name not in LONG_NAMES
)


def any_evening(
    seed: int, players: int | None = None, language: str | None = None, longest: int | None = None
) -> WallData:
    """A random evening of 10 to 25 players on 13x13: the ruler's property tests draw many.

    The seed picks how many are here, their names (a few of them the longest a nickname may be), where they
    hang (each on a field of their own over the whole scale, a handful of fields, or three), and how much
    was played tonight (nothing, a third, or everybody once or twice, so the pairs avoid rematches and
    partners stand far apart on the ruler).
    """
    from display.tonight import evening

    rng = random.Random(seed)
    count = players if players is not None else rng.randint(10, 25)
    language = language if language is not None else rng.choice(["en", "pl"])
    config = Config(club_name="Semedori Go Club", form_url="http://semedori.local", language=language)
    longest = rng.choice([0, 1, 2, 3, 4]) if longest is None else longest
    nicks = rng.sample(LONG_NAMES, longest) + rng.sample(ANY_NAMES, count - longest)
    rng.shuffle(nicks)
    whole = [f for f in fields() if f % QUARTERS == 0]
    spread = rng.choice(["apart", "scale", "few", "three"])
    if spread == "apart":  # each on a field of their own
        strengths = rng.sample([f for f in whole if 6 * QUARTERS <= f <= 32 * QUARTERS], min(count, 27))
        strengths += rng.sample(whole, count - len(strengths))
    elif spread == "scale":  # anywhere, the halves and quarters of the top too
        strengths = [rng.choice(fields()) for _ in nicks]
    else:
        spots = rng.sample(whole, 8 if spread == "few" else 3)
        strengths = [rng.choice(spots) for _ in nicks]
    lines: list[dict[str, object]] = [
        {
            "type": "player",
            "at": "2026-09-01T18:00",
            "nick": nick,
            "size": 13,
            "status": "guest" if rng.random() < 0.15 else "member",
            "strength": strength / QUARTERS,
        }
        for nick, strength in zip(nicks, strengths, strict=True)
    ]
    at = datetime(2026, 11, 26, 18, 30)
    rounds = rng.choice([0, 1, 1, 2]) if rng.random() < 0.7 else 0
    share = rng.choice([1 / 3, 1.0])
    for _ in range(rounds):
        order = list(nicks)
        rng.shuffle(order)
        playing = order[: int(len(order) * share) // 2 * 2]
        for a, b in zip(playing[0::2], playing[1::2], strict=True):
            at += timedelta(minutes=3)
            lines.append(
                {"type": "game", "at": _at(at), "size": 13, "players": [a, b], "winner": rng.choice([a, b]), "by": None}
            )
    events = [parse_line(json.dumps(line, ensure_ascii=False)) for line in lines]
    board = replay(events, config)
    data = from_board(board, config, NOW)
    return replace(data, tonight=evening(config, NOW, nicks, (), board.games))


def hung_club(nicks: list[str], crowded: int, size: int, rng: random.Random) -> WallData:
    """The nicknames hung on the board: the last ``crowded`` on field 20, the rest around 30; every eleventh a guest."""
    scale = fields()
    magnets = []
    for index, nick in enumerate(nicks):
        if index >= len(nicks) - crowded:
            strength = 20 * QUARTERS
        else:
            target = min(55.0, max(0.0, rng.gauss(30, 10))) * QUARTERS
            strength = min(scale, key=lambda q: abs(q - target))
        magnets.append(Magnet(nick, size, strength, "guest" if index % 11 == 5 else "member"))
    return replace(demo_data(), magnets=tuple(magnets), recent=(), week=())
