"""Benchmark of late results on a 50,000-game store (figures to compare, not timed tests).

The most common write of a club evening is a result sent some minutes after the form
was opened: its "Played at" lies before the last game. Measured on a history that ends
just before now (bench.history.recent_history_file):

- through the store: a game dated 0-30 minutes before the latest one against a game
  appended at the end (goal: p95 at most 3x the append's);
- the same over HTTP, the JSON API of the app served by waitress on 127.0.0.1;
- void and edit of a game from this week (goal: under 100 ms);
- 16 phones (`semedori serve` in its own process) posting games dated 0-30 minutes
  ago at the same moment (goal: p95 wait under 1 s, nothing lost, never "database is
  locked").

    .venv/bin/python bench/bench_late.py [--games 50000] [--runs 100] [--phones 16] [--each 10]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from waitress.server import create_server

from bench.bench_load import serve
from bench.history import recent_history_file
from kiosk.config import Config
from kiosk.events import Edit, GamePlayed, Rename, Void
from kiosk.recording import check_margin, new_game
from kiosk.rules import club_now
from kiosk.services import games
from kiosk.store import Store
from web import create_app

CACHE = Path(tempfile.gettempdir()) / "semedori-bench"
# Players of the benchmark history on 13x13 (every third one, from Gracz001).
PLAYERS = [f"Gracz{n:03d}" for n in range(1, 120, 3)]


def summary(times: list[float]) -> tuple[float, float]:
    """Median and p95 of times in ms."""
    return statistics.median(times), statistics.quantiles(times, n=20)[-1]


def line(name: str, times: list[float]) -> tuple[float, float]:
    median, p95 = summary(times)
    print(f"  {name:<52} median {median:7.1f} ms   p95 {p95:7.1f} ms   slowest {max(times):7.1f} ms")
    return median, p95


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def pair(i: int) -> tuple[str, str]:
    a = PLAYERS[i % len(PLAYERS)]
    b = PLAYERS[(i * 7 + 1) % len(PLAYERS)]
    return (a, b) if a != b else (a, PLAYERS[(i + 1) % len(PLAYERS)])


def through_the_store(folder: Path, runs: int) -> None:
    """Appends and late games alternating, then voids and edits of this week's games."""
    rng = random.Random(7)
    with Store.open(folder) as store:
        clock = store.recent_games(1)[0].at
        appends: list[float] = []
        late: list[float] = []
        ids: list[int] = []
        for i in range(runs):
            clock += timedelta(minutes=2)
            a, b = pair(i)
            appends.append(timed(lambda: store.record(GamePlayed(clock, 13, (a, b), a, None))))  # noqa: B023
            when = clock - timedelta(minutes=rng.randint(0, 30), seconds=30)
            recorded: list = []
            late.append(timed(lambda: recorded.append(store.record(GamePlayed(when, 13, (b, a), a, None)))))  # noqa: B023
            ids.append(recorded[0].game.id)
        print(f"through the store ({runs} of each, alternating):")
        _, append_p95 = line("append a game at the end", appends)
        _, late_p95 = line("a game dated 0-30 minutes before the latest", late)
        print(f"  ratio of p95s: {late_p95 / append_p95:.2f} (goal <= 3)")
        # A phone's game as the views recorded it before the games service (new_game, check_margin, record) against the
        # games service, which adds the duplicate check under the write lock (the pair's games another phone
        # entered in the last same_game_minutes), alternating so both see the same store.
        before_check: list[float] = []
        served: list[float] = []
        for i in range(runs):
            for series, times in ((0, before_check), (1, served)):
                clock += timedelta(minutes=2)
                a, b = pair(i + 7 * series)
                typed = games.Typed(13, [a, b], a, None, clock)
                answers: list = []

                def views_did(typed: games.Typed = typed, answers: list = answers, now: datetime = clock) -> None:
                    game = new_game(typed.size, typed.players, typed.winner, None, now, now)
                    check_margin(store.magnets(), game, store.config)
                    answers.append(store.record(game))

                def service(typed: games.Typed = typed, answers: list = answers, now: datetime = clock) -> None:
                    # The loop's own origin (None), as one phone's games: the check runs in full, finds no other's.
                    answers.append(games.record_game(store, typed, now, None))

                times.append(timed(views_did if series == 0 else service))
                assert answers[0].new, answers[0]
        _, old_p95 = line("a phone's game as the views did it (no check)", before_check)
        _, served_p95 = line("the same through the games service (duplicate check)", served)
        print(f"  ratio of p95s: {served_p95 / old_p95:.2f}")
        voids = [timed(lambda: store.record(Void(clock, n))) for n in ids[-runs // 2 :]]  # noqa: B023
        edits = []
        for n in ids[: runs // 2]:
            game = store.game(n)
            assert game is not None
            fixed = GamePlayed(game.at - timedelta(minutes=5), 13, game.players, game.players[1], "resignation")
            edits.append(timed(lambda: store.record(Edit(clock, n, fixed))))  # noqa: B023
        line("void of a game from this week", voids)
        line("edit of a game from this week (5 minutes earlier, other winner)", edits)
        names = [f"Gracz{n:03d}" for n in range(5)]
        renames = [timed(lambda: store.record(Rename(clock, a, f"{a}x"))) for a in names]  # noqa: B023
        line("rename (the whole history, streamed)", renames)
        start = time.perf_counter()
        problems = store.check()
        print(f"  semedori check: {problems or 'ok'} ({time.perf_counter() - start:.1f} s)")


def over_http(folder: Path, runs: int) -> None:
    """The JSON API through waitress: games at the end ("at" left out: now) and 0-30 minutes ago."""
    rng = random.Random(11)
    app = create_app({"SEMEDORI_HOME": str(folder), "STORE_PER_THREAD": True})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=60)

    def post(body: dict[str, object]) -> None:
        connection.request("POST", "/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read().decode()
        assert response.status == 201, text[:300]

    try:
        for i in range(5):  # warm-up
            post({"size": 13, "players": list(pair(i)), "winner": pair(i)[0]})
        appends: list[float] = []
        late: list[float] = []
        for i in range(runs):
            a, b = pair(i)
            appends.append(timed(lambda: post({"size": 13, "players": [a, b], "winner": a})))  # noqa: B023
            when = club_now(Config(), datetime.now(UTC)) - timedelta(minutes=rng.randint(1, 30))
            body = {"size": 13, "players": [b, a], "winner": a, "at": when.strftime("%Y-%m-%dT%H:%M")}
            late.append(timed(lambda: post(body)))  # noqa: B023
        print(f"over HTTP (JSON API, waitress on 127.0.0.1, {runs} of each, alternating):")
        _, append_p95 = line("POST /api/games at the end (now)", appends)
        _, late_p95 = line('POST /api/games with "at" 1-30 minutes ago', late)
        print(f"  ratio of p95s: {late_p95 / append_p95:.2f} (goal <= 3)")
    finally:
        connection.close()
        server.task_dispatcher.shutdown()
        server.close()
        thread.join(timeout=5)


def phone(host: str, number: int, games: int, start: threading.Barrier, waits: list[float], wrong: list[str]) -> None:
    """One phone: post ``games`` games dated 0-30 minutes ago, noting each wait."""
    rng = random.Random(number)
    # Each phone from its own address, as on the club's Wi-Fi: the kiosk's write limits count per address
    # (web/limits.py), and sixteen phones sharing 127.0.0.1 would be throttled as one (the whole of 127/8 is loopback).
    connection = http.client.HTTPConnection(host, timeout=120, source_address=(f"127.0.0.{number + 2}", 0))
    try:
        connection.connect()
        start.wait()
        for n in range(games):
            # A pair of its own (a phone's own player, someone of the rest): another phone's game of the same pair
            # minutes ago would be asked about as the same game (409 likely-duplicate), not recorded.
            a, b = PLAYERS[number % 16], PLAYERS[16 + (number + n) % (len(PLAYERS) - 16)]
            when = club_now(Config(), datetime.now(UTC)) - timedelta(minutes=rng.randint(0, 30))
            body = {
                "size": 13,
                "players": [a, b],
                "winner": a,
                "by": "resignation",
                "at": when.strftime("%Y-%m-%dT%H:%M"),
                "key": f"late-{number}-{n}",
            }
            began = time.perf_counter()
            connection.request("POST", "/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"})
            response = connection.getresponse()
            text = response.read().decode()
            waits.append((time.perf_counter() - began) * 1000)
            if response.status != 201:
                wrong.append(f"{response.status} {text[:200]}")
    except OSError as error:
        wrong.append(f"connection: {error}")
    finally:
        connection.close()


def phones_at_once(folder: Path, phones: int, each: int) -> None:
    """``phones`` phones at the same moment against `semedori serve` in its own process."""
    process, host = serve(folder, 8)
    waits: list[float] = []
    wrong: list[str] = []
    start = threading.Barrier(phones + 1)
    threads = [threading.Thread(target=phone, args=(host, n, each, start, waits, wrong)) for n in range(phones)]
    try:
        for thread in threads:
            thread.start()
        start.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - began
    finally:
        process.terminate()
        process.wait(timeout=30)
    with Store.open(folder) as store:
        problems = store.check()
        keyed = store.db.execute("SELECT count(*) FROM event WHERE key LIKE 'api-game:late-%'").fetchone()[0]
    total = phones * each
    locked = sum("locked" in w for w in wrong)
    print(f"{phones} phones x {each} games dated 0-30 minutes ago, at once (semedori serve --threads 8):")
    line("wait per game", waits)
    print(f"  {total} games in {seconds:.1f} s; answers other than 201: {len(wrong)} ({locked} 'database is locked')")
    print(f"  games recorded: {keyed} of {total}; check: {problems or 'ok'}")
    for text in wrong[:3]:
        print(f"    {text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--phones", type=int, default=16)
    parser.add_argument("--each", type=int, default=10)
    parser.add_argument("--every", type=int, default=Store.checkpoint_every, help="games between checkpoints")
    parser.add_argument("--only", choices=["store", "http", "phones"], action="append")
    options = parser.parse_args()
    Store.checkpoint_every = options.every
    source = recent_history_file(options.games, CACHE, club_now(Config(), datetime.now(UTC)))
    with tempfile.TemporaryDirectory(prefix="semedori-bench-late-") as name:
        built = Path(name) / "built"
        start = time.perf_counter()
        with Store.open(built) as store:
            store.import_history(source.read_text(encoding="utf-8").splitlines())
        took = time.perf_counter() - start
        size = (built / "semedori.sqlite3").stat().st_size / 1e6
        print(f"{options.games} games imported in {took:.1f} s (the history ends {source.stem[-8:]}); ", end="")
        print(f"a checkpoint every {options.every} games; the database {size:.0f} MB")
        for part, work in (
            ("store", lambda f: through_the_store(f, options.runs)),
            ("http", lambda f: over_http(f, options.runs)),
            ("phones", lambda f: phones_at_once(f, options.phones, options.each)),
        ):
            if options.only and part not in options.only:
                continue
            folder = Path(name) / part
            shutil.copytree(built, folder)
            work(folder)


if __name__ == "__main__":
    main()
