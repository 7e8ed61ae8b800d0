"""The month's awards on the phone: the player page, the owner's page and its certificate downloads (web/awards.py)."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from werkzeug.test import TestResponse

from kiosk.events import parse_line
from kiosk.store import Store
from web import create_app
from web.pin import hash_pin

PIN = "2468"
# A Thursday evening in late November 2026 (the kiosk's clock, so the test does not depend on today).
NOW = datetime(2026, 11, 26, 19, 0, tzinfo=UTC)
NOVEMBER_GAMES = [
    '{"type": "game", "at": "2026-11-10T18:00", "size": 13, "players": ["Ewa", "Gosia"], "winner": "Ewa", "by": null}',
    '{"type": "game", "at": "2026-11-17T18:00", "size": 13, "players": ["Ewa", "Gosia"], "winner": "Ewa", "by": null}',
]


def text(response: TestResponse) -> str:
    """The page as a person reads it."""
    import html

    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def app(home: Path) -> Flask:
    with Store.open(home) as store:
        for line in NOVEMBER_GAMES:
            store.record(parse_line(line))
    return create_app(
        {
            "SEMEDORI_HOME": str(home),
            "TESTING": True,
            "SEMEDORI_PI_CLOCK": lambda: NOW,
            "SEMEDORI_TIMESYNC_FLAG": str(home / "synchronized"),
        }
    )


@pytest.fixture
def owner(client: FlaskClient, store: Store, send) -> FlaskClient:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    return client


def test_the_player_page_names_the_players_awards_in_both_languages(client: FlaskClient) -> None:
    # Ewa (30) beat Gosia (30.5) twice in even games: two arrows up, net, and her first even game with a
    # stronger player; Gosia's first loss each week was free.
    page = text(client.get("/players/Ewa"))
    assert "Awards" in page and "Most improved" in page and "November 2026 · ↑2" in page
    assert "First even game with a stronger player" in page and "with Gosia" in page
    assert "Most games" in page  # Ewa and Gosia tie with 2 games each
    client.set_cookie("lang", "pl")
    page = text(client.get("/players/Ewa"))
    assert "Nagrody" in page and "Największy postęp" in page and "listopad 2026 · ↑2" in page
    assert "Most improved" not in text(client.get("/players/Gosia")) and "Franek" not in page


def test_the_owners_page_lists_the_month_with_a_certificate_for_each_winner(owner: FlaskClient) -> None:
    page = owner.get("/owner/awards/")
    assert page.status_code == 200
    shown = text(page)
    # Dawid's win over Bianka on 2 November (the conftest's club) ties with Ewa's two wins.
    assert "Awards of November 2026" in shown and "Most improved Dawid ↑2" in shown and "Ewa ↑2 " in shown
    assert "Most games Ewa 2 games" in shown and "Gosia 2 games" in shown
    assert "Most different opponents Nobody this month." in shown
    links = re.findall(r'href="(/owner/awards/2026-11/[^"]+)"', page.get_data(as_text=True))
    assert len(links) == 5  # two improved, two games, one even: a certificate each, in English on A5 ...
    assert all(link.endswith("lang=en&amp;paper=A5") for link in links)
    a4 = owner.get("/owner/awards/?month=2026-11&paper=A4&lang=pl").get_data(as_text=True)
    assert re.findall(r'href="(/owner/awards/2026-11/[^"]+)"', a4)[0].endswith("lang=pl&amp;paper=A4")  # or as chosen
    assert "The month's awards and certificates" in text(owner.get("/owner/"))
    owner.set_cookie("lang", "pl")
    assert "Nagrody: listopad 2026" in text(owner.get("/owner/awards/?month=2026-11"))
    october = text(owner.get("/owner/awards/?month=2026-10"))
    assert "Nagrody: październik 2026" in october and october.count("W tym miesiącu nikt.") == 4


def png(response: TestResponse) -> Image.Image:
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert "attachment" in response.headers["Content-Disposition"]
    return Image.open(io.BytesIO(response.get_data()))


def test_a_certificate_downloads_as_a_print_sized_png(owner: FlaskClient) -> None:
    english = png(owner.get("/owner/awards/2026-11/improved/Ewa.png?lang=en&paper=A5"))
    assert english.size == (2480, 1748)
    polish = png(owner.get("/owner/awards/2026-11/improved/Ewa.png?lang=pl&paper=A5"))
    assert english.tobytes() != polish.tobytes()
    assert png(owner.get("/owner/awards/2026-11/even/ewa.png?paper=a4")).size == (3508, 2480)


@pytest.mark.parametrize(
    ("url", "status", "english", "polish"),
    [
        ("/owner/awards/?month=2026-13", 400, "is not a month", "to nie miesiąc"),
        ("/owner/awards/?paper=Letter", 400, "on A5 or A4", "na A5 lub A4"),
        ("/owner/awards/2026-1/improved/Ewa.png", 400, "is not a month", "to nie miesiąc"),
        ("/owner/awards/2026-11/improved/Ewa.png?paper=B5", 400, "on A5 or A4", "na A5 lub A4"),
        ("/owner/awards/2026-11/improved/Ewa.png?lang=de", 400, "English or Polish", "po polsku"),
        ("/owner/awards/2026-11/improved/Gosia.png", 404, "has no such award", "nie ma takiej nagrody"),
        ("/owner/awards/2026-11/fastest/Ewa.png", 404, "has no such award", "nie ma takiej nagrody"),
    ],
)
def test_a_wrong_address_gets_a_clear_message_in_the_users_language(
    owner: FlaskClient, url: str, status: int, english: str, polish: str
) -> None:
    response = owner.get(url)
    assert response.status_code == status and english in text(response)
    owner.set_cookie("lang", "pl")
    response = owner.get(url)
    assert response.status_code == status and polish in text(response)


def test_the_awards_and_certificates_need_the_pin(client: FlaskClient) -> None:
    for url in ("/owner/awards/", "/owner/awards/2026-11/improved/Ewa.png"):
        response = client.get(url)
        assert response.status_code == 302 and "/owner/login" in response.headers["Location"]


def test_a_new_game_changes_the_awards_shown_at_once(client: FlaskClient, store: Store) -> None:
    assert "Most games" in text(client.get("/players/Ewa"))  # remembered between games ...
    for day in (24, 25):
        store.record(
            parse_line(
                f'{{"type": "game", "at": "2026-11-{day}T18:00", "size": 9, '
                f'"players": ["Dawid", "Czarek"], "winner": "Czarek", "by": null}}'
            )
        )
    assert "Most games" not in text(client.get("/players/Ewa"))  # ... until the next write: Dawid played 3
    assert "Most games" in text(client.get("/players/Dawid"))


def test_a_player_shown_by_initials_keeps_their_awards_and_the_opponent_is_named_by_label(
    client: FlaskClient, store: Store
) -> None:
    from kiosk.privacy import INITIALS

    store.set_club_privacy(INITIALS)  # Ewa is "E.", Gosia "G."
    page = text(client.get("/players/E."))
    assert "First even game with a stronger player" in page and "with G." in page
    assert "Gosia" not in page
