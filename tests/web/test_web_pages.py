"""The pages anyone reads: board, games, player, add player, handicap, rules, languages, errors."""

from __future__ import annotations

import html
import io
import re
from fractions import Fraction

import pytest
from club_days import on_the_club_clock
from flask.testing import FlaskClient

from kiosk.store import Store


def text(response) -> str:
    """The page as a person reads it."""
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    page = re.sub(r"</?(a|span|b)\b[^>]*>", "", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_board_shows_each_magnet_of_the_size_in_its_column(client: FlaskClient) -> None:
    response = client.get("/?size=13")
    page = response.get_data(as_text=True)
    assert re.search(r'<section class="column ink-blue header-solid">\s*<h2>30–39</h2>', page)  # as on the wall
    assert "Gosia" in page and "30.5" in page
    assert re.search(r'Franek</span>\s*<span class="guest"', page)  # the guest mark
    assert 'href="/players/Ewa"' in page
    assert "Bianka" not in page  # her magnet hangs on 9x9


def test_the_board_has_a_tab_per_size_and_picks_the_busiest(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<a href="/?size=13" aria-current="page">13×13</a>' in page  # four magnets on 13x13, three on 9x9
    assert 'href="/?size=9"' in page and 'href="/?size=19"' in page
    assert "No magnets on 19x19 yet." in text(client.get("/?size=19"))


def test_every_page_asks_not_to_be_indexed(client: FlaskClient) -> None:
    for url in ("/", "/new", "/games", "/handicap", "/rules", "/players/new", "/players/Bianka", "/api/board"):
        response = client.get(url)
        assert response.headers["X-Robots-Tag"] == "noindex, nofollow", url
        if not url.startswith("/api"):
            assert '<meta name="robots" content="noindex, nofollow">' in response.get_data(as_text=True)


def test_games_newest_first_with_handicap_and_moves(send, game: dict[str, str], client: FlaskClient) -> None:
    send("/new", game)
    page = text(client.get("/games"))
    assert page.index("2026-11-03 19:10") < page.index("2026-11-02 18:00")
    assert "2 starting moves, 0 prisoners · White: Bianka" in page
    assert "Dawid: clear win, 2 arrows up: 20 → 22" in page


def test_the_player_page_shows_magnets_chart_games_and_the_free_loss(send, game, client: FlaskClient) -> None:
    send("/new", game)
    response = client.get("/players/bianka")
    page = text(response)
    assert "Bianka" in page and "9×9: 33.5 member" in page
    assert "about 17 kyu" in page
    assert '<svg class="chart"' in response.get_data(as_text=True)
    assert "Czarek won by 21 points" in page
    assert "this week's free loss is still unused" in page  # November's games are weeks ago


def test_an_unknown_player_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/players/Nobody")
    assert response.status_code == 404
    assert "There is nothing here" in text(response)


def test_add_a_guest_at_zero_after_seeing_the_check(hidden, send, client: FlaskClient, store: Store) -> None:
    form = {"nick": "Zosia", "size": "9", "start": "zero"}
    response = send("/players/new", form)
    assert "Zosia starts as a guest at 0 on 9x9." in text(response)
    assert not [m for m in store.magnets() if m.nick == "Zosia"]

    fields = hidden(response.get_data(as_text=True))
    saved = client.post("/players/new", data={**fields, **form})
    assert saved.status_code == 302
    again = client.post("/players/new", data={**fields, **form})  # a double tap on Save
    assert again.status_code == 302 and again.headers["Location"] == saved.headers["Location"]
    assert [(m.size, m.strength, m.status) for m in store.magnets() if m.nick == "Zosia"] == [(9, 0, "guest")]


def test_a_guest_from_a_grade_sees_the_field_before_saving(send) -> None:
    page = text(send("/players/new", {"nick": "Zosia", "size": "13", "start": "kyu", "grade": "10"}))
    assert "Zosia starts as a guest at 37.5 on 13x13." in page
    page = text(send("/players/new", {"nick": "Zosia", "size": "13", "start": "dan", "grade": "1"}))
    assert "Zosia starts as a guest at 48.75 on 13x13." in page


def test_a_similar_nickname_is_offered_first(send) -> None:
    page = text(send("/players/new", {"nick": "Bianca", "size": "9", "start": "zero"}))
    assert "Did you mean: Bianka?" in page
    assert "No, add Bianca as a new player" in page


def test_bad_nicknames_and_grades_are_explained(send, store: Store) -> None:
    cases = [
        ({"nick": ""}, "Nickname: type a nickname (1 to 30 letters)."),  # the field is named
        ({"nick": "x" * 200}, "Nickname: the nickname is too long (200 letters; at most 30)."),
        ({"nick": "BIANKA"}, "BIANKA is already on the board. Pick that name, or choose another nickname."),
        ({"nick": "Zosia", "start": "kyu", "grade": "60"}, "A grade is a number: 1 to 50 kyu, or 1 to 9 dan."),
        ({"nick": "Zosia", "start": "dan", "grade": "abc"}, "A grade is a number: 1 to 50 kyu, or 1 to 9 dan."),
    ]
    before = len(store.magnets())
    for change, message in cases:
        response = send("/players/new", {"size": "9", "start": "zero", **change})
        assert response.status_code == 400
        assert message in text(response), change
    assert len(store.magnets()) == before


def test_html_in_a_new_nickname_is_never_executed(hidden, send, client: FlaskClient, store: Store) -> None:

    form = {"nick": "<b>x</b>", "size": "9", "start": "zero"}
    checked = send("/players/new", form)
    client.post("/players/new", data={**hidden(checked.get_data(as_text=True)), **form})
    board = client.get("/?size=9").get_data(as_text=True)
    assert "<b>x</b>" not in board and "&lt;b&gt;x&lt;/b&gt;" in board


@pytest.mark.parametrize(
    ("language", "komi", "said", "cell"),
    [
        ("en", Fraction(13, 2), "Even game: nigiri, komi 6.5", "even: nigiri, komi 6.5"),
        ("pl", Fraction(13, 2), "Równa partia: nigiri, komi 6,5", "równa: nigiri, komi 6,5"),
        ("en", Fraction(15, 2), "Even game: nigiri, komi 7.5", "even: nigiri, komi 7.5"),
        ("pl", Fraction(15, 2), "Równa partia: nigiri, komi 7,5", "równa: nigiri, komi 7,5"),
    ],
)
def test_the_even_game_line_writes_the_rules_komi_in_the_phones_language(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, language: str, komi: Fraction, said: str, cell: str
) -> None:
    """The number is kiosk.handicap.KOMI's, written as the club writes it (a decimal comma in Polish)."""
    monkeypatch.setattr("kiosk.handicap.KOMI", komi)
    client.set_cookie("lang", language)
    raw = client.get("/handicap?size=19&a=40&b=40.25").get_data(as_text=True)
    page = text(client.get("/handicap?size=19&a=40&b=40.25"))
    assert said in page and cell in page  # the calculator's line and the table's even rows
    number = said.rsplit(" ", 1)[-1]
    assert raw.count(f"komi\u00a0{number}") >= 2  # kept with its number: a phone never breaks the line there
    rules = text(client.get("/rules"))
    assert f"(komi {said.rsplit(' ', 1)[-1]})" in rules  # the club's rules page says it too


def test_the_handicap_calculator_for_strengths_and_players(client: FlaskClient) -> None:
    assert "2 starting moves, 0 prisoners" in text(client.get("/handicap?size=9&a=34.5&b=25"))
    assert "Bianka takes White, Czarek takes Black." in text(client.get("/handicap?size=9&a=Bianka&b=Czarek"))
    assert "Even game: nigiri, komi 6.5" in text(client.get("/handicap?size=19&a=40&b=40.25"))
    mixed = text(client.get("/handicap?size=9&a=30&b=Bianka"))
    assert "Type two strengths, or two nicknames, not one of each." in mixed
    assert "-4 is not a field of the board." in text(client.get("/handicap?size=9&a=30&b=-4"))


def test_the_calculator_refuses_a_strength_between_two_fields_in_the_users_language(client: FlaskClient) -> None:
    page = client.get("/handicap?size=13&a=30&b=31.25")
    assert page.status_code == 200
    assert "31.25 is not a field of the board. The nearest fields are 31 and 31.5." in text(page)
    assert "handicap-box" not in page.get_data(as_text=True)  # no handicap shown for it
    polish = {"Accept-Language": "pl"}
    between = text(client.get("/handicap?size=13&a=30&b=31,25", headers=polish))
    assert "31,25 to nie jest pole tablicy. Najbliższe pola to 31 i 31,5." in between
    mixed = text(client.get("/handicap?a=30&b=Bianka", headers=polish))
    assert "Wpisz dwie siły albo dwa nicki, nie jedno i drugie." in mixed


def test_the_handicap_tables_show_each_cell_with_its_differences(client: FlaskClient) -> None:
    page = text(client.get("/handicap?size=9"))
    assert "Handicap table 13x13" not in page  # one size at a time
    assert "Handicap table 9x9 From 4 starting moves (red): training game, White does not move." in page
    assert "Difference Starting moves Prisoners 0 – 2.75 even: nigiri, komi 6.5 3 – 3.25 1 0" in page
    page = text(client.get("/handicap?size=19"))
    assert "From 8 starting moves (red): training game, White does not move." in page
    assert "7.5 8 0 7.75 8 3" in page  # the first training rows of 19x19


def test_the_rules_in_english_and_in_polish(client: FlaskClient, store: Store) -> None:
    assert "first loss of the week" in text(client.get("/rules"))
    store.save_config(store.config.with_changes(guest_losses=3))
    assert "After 3 losses a guest becomes a member." in text(client.get("/rules"))
    assert "Pierwsza przegrana w tygodniu" in text(client.get("/rules", headers={"Accept-Language": "pl-PL,pl;q=0.9"}))


def test_a_chosen_language_is_remembered(client: FlaskClient) -> None:
    response = client.get("/language/pl?next=/games")
    assert response.headers["Location"] == "/games"
    assert "Zasady tablicy" in text(client.get("/rules"))
    assert client.get("/language/en?next=https://evil.example").headers["Location"] == "/"


def test_unknown_pages_and_methods_are_friendly(client: FlaskClient) -> None:
    assert client.get("/nothing").status_code == 404
    response = client.delete("/")
    assert response.status_code == 405
    assert "Back to the board" in text(response)


def test_with_a_store_per_thread_a_changed_setting_shows_at_once(home) -> None:
    from web import create_app

    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home), "STORE_PER_THREAD": True})).test_client()
    assert "Semedori Go Club" in text(client.get("/"))
    with Store.open(home) as other:  # the owner's request on another thread, or `semedori set-pin`
        other.save_config(other.config.with_changes(club_name="GoKids"))
    assert "GoKids" in text(client.get("/"))
    client.post("/api/games", json={"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 3})
    with Store.open(home) as other:
        assert len(other.recent_games()) == 2


def test_the_wall_preview_is_the_panels_picture(client: FlaskClient) -> None:
    from PIL import Image

    response = client.get("/board.png?size=9")
    assert response.status_code == 200 and response.mimetype == "image/png"
    picture = Image.open(io.BytesIO(response.get_data()))
    assert picture.size == (800, 480)
    assert client.get("/board.png?size=9").get_data() == response.get_data()  # nothing changed: the same picture
    assert 'src="/board.png?size=9"' in client.get("/?size=9").get_data(as_text=True)


def test_the_chart_follows_the_magnet_through_games_and_corrections() -> None:
    from datetime import datetime

    from kiosk.board import Change, GameResult, Move
    from kiosk.handicap import EVEN
    from web import chart

    joined = Change(datetime(2026, 11, 1, 10), "Czarek", 9, None, 100, "joined")
    game = GameResult(
        1,
        datetime(2026, 11, 3, 19),
        9,
        ("Bianka", "Czarek"),
        "Czarek",
        21,
        "Bianka",
        EVEN,
        {"Czarek": Move(100, 108, "clear-win"), "Bianka": Move(138, 134, "loss")},
    )
    points = chart.history("czarek", 9, [game], [joined])
    assert [strength for _, strength in points] == [100, 108]
    picture = chart.svg(points, "Strength on 9x9", until=datetime(2026, 11, 5, 19))
    assert '<text x="2"' in picture and ">27<" in picture and ">25<" in picture
    assert '<text x="294.0" y="29.0" class="now">27</text>' in picture  # the current field, labelled
    assert "2026-11-01" in picture and "2026-11-05" in picture
    # Steps in time: flat from the join (1 Nov 10:00) to the game 57 h later, up, flat until now (105 h):
    # x = 36 + 57/105 * 252 = 172.8.
    path = re.search(r'<path d="([^"]+)"', picture).group(1)
    assert path == "M36.0,126.0 H172.8V24.0 H288.0"
    assert chart.svg([], "nothing") == ""


def test_the_games_list_pages_and_filters_by_player_and_day(send, client, store: Store) -> None:
    import re as _re

    for minute in range(35):
        form = {
            "size": "9",
            "a": "Bianka",
            "b": "Czarek",
            "winner": "a",
            "by": "resignation",
            "at": f"2026-11-04T{18 + minute // 60}:{minute % 60:02d}",
        }
        assert send("/new", form).status_code == 302
    first = client.get("/games").get_data(as_text=True)
    ids = _re.findall(r'href="/games/(\d+)"', first)
    assert len(ids) == 30 and ids[0] == "36"
    older = _re.search(r'href="(/games\?before=\d+)" rel="next"', first).group(1)
    rest = _re.findall(r'href="/games/(\d+)"', client.get(older).get_data(as_text=True))
    assert rest == ["6", "5", "4", "3", "2", "1"]
    dawid = _re.findall(r'href="/games/(\d+)"', client.get("/games?player=dawid").get_data(as_text=True))
    assert dawid == ["1"]
    day = _re.findall(r'href="/games/(\d+)"', client.get("/games?date=2026-11-02").get_data(as_text=True))
    assert day == ["1"]
    assert "Zyx is not on the board. Check the name." in text(client.get("/games?player=Zyx"))
    assert client.get("/games?date=banana&before=x").status_code == 200


def test_the_player_page_has_a_record_per_size_and_head_to_head(send, game, client: FlaskClient) -> None:
    send("/new", game)
    page = text(client.get("/players/bianka"))
    assert "Wins and losses Size Wins Losses Draws 9×9 0 2 0" in page
    assert "Czarek 0 won · 1 lost · 0 drawn Play Czarek → handicap" in page
    assert "Dawid 0 won · 1 lost · 0 drawn" in page
    links = client.get("/players/bianka").get_data(as_text=True)
    assert 'href="/handicap?size=9&amp;a=Bianka&amp;b=Czarek"' in links
    client.set_cookie("lang", "pl")
    assert "Zagraj z: Czarek → handicap" in text(client.get("/players/bianka"))


def test_a_busy_players_page_links_to_all_their_games(send, client) -> None:
    for minute in range(31):
        form = {
            "size": "9",
            "a": "Bianka",
            "b": "Czarek",
            "winner": "a",
            "by": "resignation",
            "at": f"2026-11-04T18:{minute:02d}",
        }
        send("/new", form)
    page = client.get("/players/Czarek").get_data(as_text=True)
    assert page.count('<article class="game">') == 30
    assert 'href="/games?player=Czarek"' in page
    assert 'href="/games?player=Bianka"' not in client.get("/players/Dawid").get_data(as_text=True)


# --- the home-screen icon ------------------------------------------------------------------------


def test_a_phone_adding_the_board_to_its_home_screen_gets_the_clubs_name_and_an_icon(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<link rel="icon" href="/favicon.ico" sizes="any">' in page
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["name"] == "Semedori Go Club" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:  # every icon is on the kiosk itself: the club's Wi-Fi has no internet
        assert icon["src"].startswith("/static/")
        with client.get(icon["src"]) as picture:
            assert picture.status_code == 200 and picture.mimetype == "image/png"
            width = int.from_bytes(picture.data[16:20], "big")  # the PNG header's width
        assert f"{width}x{width}" == icon["sizes"]
    with client.get("/favicon.ico") as favicon:
        assert favicon.status_code == 200 and favicon.data[:4] == b"\x00\x00\x01\x00"  # an ICO, not a 404 page


def test_the_home_screen_name_is_in_the_phones_language(client: FlaskClient, store: Store) -> None:
    store.save_config(store.config.with_changes(club_name="Klub Go Semedori w Krakowie"))
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": "pl"}).get_json(force=True)
    assert manifest["name"] == "Klub Go Semedori w Krakowie"
    assert manifest["short_name"] == "Tablica" and manifest["lang"] == "pl"
