"""Tonight's suggested pairings: nearest strengths, no rematch, a bye, each pair's handicap."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from histories import MONDAY, at, board_of, game, player
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.config import Config
from kiosk.errors import HistoryError
from kiosk.events import nick_key
from kiosk.handicap import DEFAULT_SIZE_RULES, handicap_for
from kiosk.pairing import Side
from kiosk.scale import fields, quarters
from kiosk.store import Store
from kiosk.tonight import Pair, Suggestion, pair_of, played_pairs, sides_of, suggest

CONFIG = Config()


def side(nick: str, strength: float, guest: bool = False) -> Side:
    return Side(nick, quarters(strength), guest, False)


def nicks(s: Suggestion) -> list[tuple[str, str]]:
    return [(p.sides[0].nick, p.sides[1].nick) for p in s.pairs]


# --- examples a club would check by hand -----------------------------------------------------


def test_nearest_strengths_play_each_other_with_the_boards_handicap() -> None:
    players = [side("Ala", 10), side("Bartek", 30), side("Celina", 12), side("Darek", 29)]
    s = suggest(13, players, CONFIG)
    assert nicks(s) == [("Bartek", "Darek"), ("Celina", "Ala")]
    assert s.bye is None
    first, second = s.pairs
    assert first.handicap.even  # 13x13: a difference of 1 is worth less than komi
    assert first.white is None
    assert second.white is not None and second.white.nick == "Celina"
    assert (second.handicap.moves, second.handicap.prisoners) == (1, 4)  # d = 2: 2 x 5 - 6.5 = 3.5 → 4


def test_a_training_game_is_said_as_such() -> None:
    s = suggest(9, [side("Bianka", 34.5), side("Czarek", 10)], CONFIG)
    (p,) = s.pairs
    assert p.white is not None and p.white.nick == "Bianka"
    assert p.handicap.training
    assert p.handicap == handicap_for(quarters(24.5), DEFAULT_SIZE_RULES[9])


def test_the_odd_player_sits_out_where_it_costs_least() -> None:
    s = suggest(13, [side("A", 30), side("B", 29), side("C", 20), side("D", 10), side("E", 9)], CONFIG)
    assert s.bye is not None and s.bye.nick == "C"
    assert nicks(s) == [("A", "B"), ("D", "E")]


def test_a_rematch_of_tonight_is_avoided() -> None:
    players = [side("A", 30), side("B", 29), side("C", 28), side("D", 27)]
    s = suggest(13, players, CONFIG, tonight={pair_of("A", "B")})
    assert nicks(s) == [("A", "C"), ("B", "D")]
    assert s.rematches == 0


def test_a_rematch_that_cannot_be_avoided_is_played_and_said() -> None:
    s = suggest(13, [side("A", 30), side("b", 29)], CONFIG, tonight={pair_of("a", "B")})
    assert nicks(s) == [("A", "b")]
    assert s.rematches == 1


def test_last_weeks_pairs_are_avoided_where_possible_but_tonights_first() -> None:
    players = [side("A", 30), side("B", 29), side("C", 28), side("D", 27)]
    last_week = {pair_of("A", "B"), pair_of("A", "C")}
    assert nicks(suggest(13, players, CONFIG, last_week=last_week)) == [("A", "D"), ("B", "C")]
    # A and D played tonight: a pair of last week is better than a rematch of tonight.
    s = suggest(13, players, CONFIG, tonight={pair_of("A", "D")}, last_week=last_week)
    assert s.rematches == 0 and s.recent == 1


def test_who_sat_out_tonight_plays_next() -> None:
    players = [side("A", 30), side("B", 29), side("C", 28)]
    assert suggest(13, players, CONFIG).bye.nick in {"A", "C"}  # type: ignore[union-attr]
    for had in ("A", "C"):
        s = suggest(13, players, CONFIG, had_bye={had})
        assert s.bye is not None and s.bye.nick != had


def test_one_player_sits_out_and_nobody_is_no_pairs() -> None:
    alone = suggest(13, [side("A", 30)], CONFIG)
    assert alone.pairs == () and alone.bye is not None and alone.bye.nick == "A"
    assert suggest(13, [], CONFIG).pairs == ()


def test_a_player_named_twice_is_refused_in_the_users_language() -> None:
    with pytest.raises(HistoryError) as error:
        suggest(13, [side("Żaba", 3), side("ŻABA", 3)], CONFIG)
    assert error.value.message("en") == "Żaba is named twice"
    assert error.value.message("pl") == "Żaba — ten nick jest podany dwa razy"


def test_a_refused_suggestion_is_passed_in_like_a_game_of_tonight() -> None:
    players = [side("A", 30), side("B", 29), side("C", 28), side("D", 27)]
    assert nicks(suggest(13, players, CONFIG)) == [("A", "B"), ("C", "D")]
    # A and B say no: re-pair with their pair among tonight's, and they are apart.
    assert nicks(suggest(13, players, CONFIG, tonight={pair_of("A", "B")})) == [("A", "C"), ("B", "D")]


def test_a_whole_250_magnet_club_checked_in_is_paired() -> None:
    chance = random.Random(250)
    players = [Side(f"gracz {i} 🐉", chance.choice(fields()), i % 5 == 0, False) for i in range(251)]
    played = {pair_of(chance.choice(players).nick, chance.choice(players).nick) for _ in range(600)}
    played = {p for p in played if len(p) == 2}
    s = suggest(19, players, CONFIG, tonight=played)
    seated = [side.nick for p in s.pairs for side in p.sides] + [s.bye.nick if s.bye else ""]
    assert sorted(seated) == sorted(p.nick for p in players)
    assert s.rematches == 0
    assert suggest(19, players, CONFIG).total_difference <= total(greedy(players))


def test_the_answer_does_not_depend_on_the_order_players_arrived() -> None:
    players = [side(n, s) for n, s in [("A", 20), ("B", 20), ("C", 21), ("D", 19), ("E", 20)]]
    first = suggest(19, players, CONFIG)
    for order in itertools.permutations(players):
        assert suggest(19, list(order), CONFIG) == first


# --- properties -------------------------------------------------------------------------------------

NAMES = [f"p{i}" for i in range(60)]


@st.composite
def evenings(draw: st.DrawFn, most: int = 40) -> tuple[list[Side], set[Pair], set[Pair]]:
    """Tonight's players (strengths are fields of the scale) and who already played whom."""
    count = draw(st.integers(0, most))
    strengths = draw(st.lists(st.sampled_from(fields()), min_size=count, max_size=count))
    players = [Side(NAMES[i], q, False, False) for i, q in enumerate(strengths)]
    possible = [pair_of(a.nick, b.nick) for a, b in itertools.combinations(players, 2)]
    if not possible:
        return players, set(), set()
    tonight = set(draw(st.lists(st.sampled_from(possible), max_size=3 * count)))
    last_week = set(draw(st.lists(st.sampled_from(possible), max_size=3 * count)))
    return players, tonight, last_week


def greedy(players: list[Side]) -> list[tuple[Side, Side]]:
    """The baseline: strongest first, each pair the next two players; the weakest sits out when odd."""
    ordered = sorted(players, key=lambda s: (-s.strength, nick_key(s.nick)))
    return [(ordered[i], ordered[i + 1]) for i in range(0, len(ordered) - 1, 2)]


def closest_first(players: list[Side]) -> list[tuple[Side, Side]]:
    """Another greedy baseline: take the closest two of those left, again and again."""
    left = list(players)
    pairs = []
    while len(left) > 1:
        a, b = min(itertools.combinations(left, 2), key=lambda ab: abs(ab[0].strength - ab[1].strength))
        pairs.append((a, b))
        left.remove(a)
        left.remove(b)
    return pairs


def total(pairs: list[tuple[Side, Side]]) -> int:
    return sum(abs(a.strength - b.strength) for a, b in pairs)


@given(evenings())
@settings(max_examples=150, deadline=None)
def test_everyone_plays_at_most_once_and_only_the_odd_one_sits_out(evening: tuple[list[Side], set, set]) -> None:
    players, tonight, last_week = evening
    s = suggest(13, players, CONFIG, tonight, last_week)
    seated = [side.nick for p in s.pairs for side in p.sides] + ([s.bye.nick] if s.bye else [])
    assert sorted(seated) == sorted(p.nick for p in players)
    assert (s.bye is not None) == (len(players) % 2 == 1)
    for p in s.pairs:
        white = p.white
        assert p.difference == abs(p.sides[0].strength - p.sides[1].strength)
        assert white is None or white.strength == max(p.sides[0].strength, p.sides[1].strength)


@given(evenings(most=60))
@settings(max_examples=150, deadline=None)
def test_the_sum_of_differences_is_no_worse_than_a_greedy_baseline(evening: tuple[list[Side], set, set]) -> None:
    players, _, _ = evening
    s = suggest(13, players, CONFIG)
    assert s.total_difference <= total(greedy(players))
    assert s.total_difference <= total(closest_first(players))


@given(evenings(most=40))
@settings(max_examples=150, deadline=None)
def test_with_history_no_worse_than_the_greedy_baseline_when_that_has_no_rematch(
    evening: tuple[list[Side], set, set],
) -> None:
    players, tonight, last_week = evening
    s = suggest(13, players, CONFIG, tonight, last_week)
    baseline = greedy(players)
    keys = [pair_of(a.nick, b.nick) for a, b in baseline]
    if not any(k in tonight for k in keys):
        assert s.rematches == 0
        if not any(k in last_week for k in keys):
            assert s.recent == 0 and s.total_difference <= total(baseline)


def every_pairing(players: list[Side]) -> Iterator[list[tuple[Side, Side]]]:
    """Every way to seat the players in pairs (one sits out when odd)."""
    if len(players) < 2:
        yield []
        return
    if len(players) % 2:
        for i in range(len(players)):
            yield from every_pairing(players[:i] + players[i + 1 :])
        return
    first, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        for more in every_pairing(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *more]


@given(evenings(most=9))
@settings(max_examples=200, deadline=None)
def test_no_rematch_when_one_can_be_avoided_and_the_best_pairing_otherwise(
    evening: tuple[list[Side], set, set],
) -> None:
    players, tonight, last_week = evening
    s = suggest(13, players, CONFIG, tonight, last_week)

    def cost(pairs: list[tuple[Side, Side]]) -> tuple[int, int, int]:
        keys = [pair_of(a.nick, b.nick) for a, b in pairs]
        return (sum(k in tonight for k in keys), sum(k in last_week for k in keys), total(pairs))

    best = min(cost(pairs) for pairs in every_pairing(players))
    assert (s.rematches, s.recent, s.total_difference) == best


def test_pairs_that_played_are_people_whatever_the_size_and_spelling() -> None:
    board = board_of(
        player("Ewa", 13, "member", 30),
        player("Gosia", 13, "member", 29),
        player("Gosia", 9, "member", 20),
        player("Olek", 13, "member", 15),
        game(9, "Gosia", "ewa", "Gosia", 3, at(0, 30)),
        game(13, "Olek", "Ewa", "Olek", None, at(2, 0)),
    )
    assert played_pairs(board.games, MONDAY) == {pair_of("EWA", "gosia"), pair_of("Ewa", "Olek")}
    assert played_pairs(board.games, MONDAY + timedelta(days=1)) == {pair_of("Ewa", "Olek")}


def test_tonights_players_stand_on_the_size_or_on_their_primary_magnet() -> None:
    board = board_of(player("Ewa", 13, "member", 30), player("Hania", 9, "guest", 20))
    ewa, hania = sides_of(board.magnets, 13, [" Ewa ", "hania"])
    assert (ewa.nick, ewa.strength, ewa.occasional) == ("Ewa", quarters(30), False)
    assert (hania.nick, hania.strength, hania.occasional, hania.guest) == ("Hania", quarters(20), True, True)
    with pytest.raises(HistoryError, match="Ewa is named twice"):
        sides_of(board.magnets, 13, ["Ewa", "EWA"])


# --- `semedori pair` ----------------------------------------------------------------------------------

HISTORY = [
    {"type": "player", "at": "2026-10-01T18:00", "nick": "Ewa", "size": 13, "status": "member", "strength": 30},
    {"type": "player", "at": "2026-10-01T18:00", "nick": "Gosia", "size": 13, "status": "member", "strength": 29},
    {"type": "player", "at": "2026-10-01T18:00", "nick": "Olek", "size": 13, "status": "member", "strength": 15},
    {"type": "player", "at": "2026-10-01T18:00", "nick": "Franek", "size": 13, "status": "guest", "strength": 0},
    {"type": "player", "at": "2026-10-01T18:00", "nick": "Hania", "size": 9, "status": "member", "strength": 20},
    {"type": "player", "at": "2026-10-01T18:00", "nick": "Żaneta", "size": 13, "status": "member", "strength": 17},
    # Last week: Olek beat Żaneta (her free loss: she stays at 17) and Franek beat Ewa (the
    # guest goes up to 1, the member stays). Tonight: Ewa and Gosia (on 9x9: still a rematch).
    {"type": "game", "at": "2026-10-29T19:00", "size": 13, "players": ["Olek", "Żaneta"], "winner": "Olek"},
    {"type": "game", "at": "2026-10-30T19:00", "size": 13, "players": ["Franek", "Ewa"], "winner": "Franek"},
    {"type": "game", "at": "2026-11-04T19:00", "size": 9, "players": ["Ewa", "Gosia"], "winner": "Gosia", "by": 3},
]
NOW = "2026-11-04T20:30"


def semedori(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SEMEDORI_HOME": str(home)}
    script = Path(sys.executable).with_name("semedori")
    return subprocess.run([str(script), *args], env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("club")
    history = home / "history.jsonl"
    history.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in HISTORY), encoding="utf-8")
    assert semedori(home, "import", str(history)).returncode == 0
    return home


def test_pair_prints_the_pairs_with_their_handicaps(club: Path) -> None:
    result = semedori(club, "pair", "--size", "13", "--now", NOW, "Ewa", "Gosia", "hania", "Franek")
    assert result.returncode == 0, result.stderr
    # Ewa and Gosia played tonight, Ewa and Franek last week: the pairs go round them.
    assert result.stdout.splitlines() == [
        "13x13: 4 players, 2 pairs",
        "",
        "1. Ewa (30) against Hania (20), difference 10",
        "   Hania has no 13x13 magnet: the primary magnet's strength stands in.",
        "   White: Ewa",
        "   Black: Hania, 4 starting moves, 5 prisoners from White",
        "",
        "2. Gosia (29) against Franek (1), difference 28",
        "   White: Gosia",
        "   Black: Franek, 11 starting moves, 4 prisoners from White",
        "   Training game: White's magnet does not move.",
    ]


def test_pair_gives_the_bye_where_no_pair_of_last_week_is_needed(club: Path) -> None:
    result = semedori(club, "pair", "--size", "13", "--json", "--now", NOW, "Olek", "Żaneta", "Franek")
    data = json.loads(result.stdout)
    assert [[p["nick"] for p in pair["players"]] for pair in data["pairs"]] == [["Olek", "Franek"]]
    assert data["bye"] == {"nick": "Żaneta", "strength": 17}
    assert data["played_last_week"] == 0


def test_pair_json_is_the_same_suggestion(club: Path) -> None:
    result = semedori(club, "pair", "--size", "13", "--json", "--now", NOW, "Ewa", "Gosia", "Olek", "Franek")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [[p["nick"] for p in pair["players"]] for pair in data["pairs"]] == [["Ewa", "Olek"], ["Gosia", "Franek"]]
    ewa_olek = data["pairs"][0]
    assert ewa_olek["white"] == "Ewa"
    assert ewa_olek["difference"] == 14
    assert ewa_olek["handicap"] == {"even": False, "moves": 5, "prisoners": 12}
    assert ewa_olek["training"] is False
    assert data["pairs"][1]["players"][1] == {"nick": "Franek", "strength": 1, "guest": True}
    assert data["pairs"][1]["training"] is True
    assert data["bye"] is None and data["rematches"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Ewa", "Zosia"], "unknown player 'Zosia'"),
        (["Ewa", "EWA"], "Ewa is named twice"),
        (["--now", "yesterday", "Ewa"], "is not a date and time"),
    ],
)
def test_pair_refuses_bad_input_with_one_clear_line(club: Path, args: list[str], message: str) -> None:
    result = semedori(club, "pair", "--size", "13", *args)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_pair_without_names_pairs_tonights_check_in_list(club: Path) -> None:
    assert "nobody is checked in tonight" in semedori(club, "pair", "--size", "13", "--now", NOW).stderr
    with Store.open(club) as store:
        for nick in ("Ewa", "Gosia", "Olek", "Franek"):
            store.check_in(date(2026, 11, 4), nick)
    result = semedori(club, "pair", "--size", "13", "--json", "--now", NOW)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # The same players as named above, so the same pairs: round tonight's Ewa-Gosia game.
    assert [[p["nick"] for p in pair["players"]] for pair in data["pairs"]] == [["Ewa", "Olek"], ["Gosia", "Franek"]]
    # After the evening (03:00 the next day) the list is empty again.
    assert "nobody is checked in" in semedori(club, "pair", "--size", "13", "--now", "2026-11-05T03:00").stderr
