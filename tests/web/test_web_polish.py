"""A Polish phone reads no English sentence on any page: every page of the app, the
owner's too, in a club with games, a guest, a training game and players here tonight, read as Polish."""

from __future__ import annotations

import html
import re
import time

from flask import Flask
from flask.testing import FlaskClient

from kiosk.store import Store
from web.pin import hash_pin

# Words of English sentences that no Polish sentence of ours has ("to", "no", "na" are Polish words).
ENGLISH = {
    "the", "and", "is", "are", "of", "won", "was", "with", "your", "you", "this", "that", "for", "has", "have",
    "not", "yet", "who", "what", "game", "games", "magnet", "magnets", "player", "players", "tonight", "points",
    "guest", "member", "strength", "lost", "moves", "week", "free", "loss", "here", "there", "nothing", "when",
}  # fmt: skip
# Pages that are no page to read: files, JSON, pictures, downloads.
NOT_PAGES = {"static", "language", "pages.favicon", "pages.manifest", "pictures.board_png", "owner.export"}
NOT_PAGES |= {"owner.backup", "privacy.export", "awards.certificate_png", "event.export_h9", "event.export_opengotha"}
ARGUMENTS = {"nick": "Czarek", "game_id": "1"}
NICKS = {"Bianka", "Czarek", "Dawid", "Ewa", "Gosia", "Franek", "Hania", "Zosia", "Bartuś"}


def sentences(page: str) -> list[str]:
    """The page's texts as a person reads them, without scripts, styles and text marked as English."""
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'<(a|span)\b[^>]*\blang="en"[^>]*>.*?</\1>', " ", page, flags=re.S)  # the language switch
    found = []
    for chunk in re.split(r"<[^>]+>", page):
        text = " ".join(html.unescape(chunk).split())
        if text:
            found.append(text)
    return found


def english(text: str) -> bool:
    """True when ``text`` reads as English: two English words or more, nicknames aside."""
    words = [w for w in re.findall(r"[A-Za-z]+", text) if w not in NICKS]
    return sum(w.lower() in ENGLISH for w in words) >= 2


def pages(app: Flask) -> list[str]:
    """Every page a person opens, with a player and a game wherever a page names one."""
    found = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint in NOT_PAGES or rule.endpoint.startswith("api."):
            continue
        if rule.arguments - set(ARGUMENTS):
            continue
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<int:{name}>", ARGUMENTS[name]).replace(f"<path:{name}>", ARGUMENTS[name])
        found.append(path)
    extra = [
        "/?size=9",
        "/?size=19",
        "/new?a=Bianka&b=Czarek&size=9",
        "/tonight?size=9",
        "/handicap?size=9&a=Bianka&b=Zosia",
    ]
    return found + extra + ["/players/Zosia", "/games/2", "/nowhere", "/owner/privacy/player?nick=Czarek"]


def test_no_page_shows_a_polish_phone_an_english_sentence(app: Flask, client: FlaskClient, store: Store, send) -> None:
    # The club has an owner PIN (without one nobody is the owner).
    store.save_config(store.config.with_changes(language="pl", owner_pin_hash=hash_pin("2468")))
    send("/new", {"size": "9", "a": "Bianka", "b": "Czarek", "winner": "b", "by": "points", "points": "21"})
    send("/new", {"size": "9", "a": "Zosia", "b": "Dawid", "winner": "a", "by": "resignation", "kind": "teaching"})
    for nick in ("Bianka", "Czarek", "Zosia"):
        send("/tonight", {"nick": nick, "size": "9"}, url="/tonight/here")
    with client.session_transaction() as session:
        session["owner"] = time.time() - 60  # the owner typed the PIN a minute ago
    read = 0
    found: dict[str, list[str]] = {}
    for path in pages(app):
        response = client.get(path)
        assert response.status_code < 500, path
        if response.status_code in (301, 302, 303):
            continue
        english_here = [text for text in sentences(response.get_data(as_text=True)) if english(text)]
        if english_here:
            found[path] = english_here
        read += 1
    assert read > 30
    assert found == {}, "English on a Polish page"


def test_the_owners_answers_and_the_audit_log_are_polish_too(
    app: Flask, client: FlaskClient, store: Store, send
) -> None:
    """What the owner's forms answer (a problem beside its field, a question before a void), the owner's home with
    what needs attention, and the audit log with its notes: no English sentence either."""
    store.save_config(store.config.with_changes(language="pl", owner_pin_hash=hash_pin("2468")))
    client.set_cookie("lang", "pl")
    send("/new", {"size": "9", "a": "Bianka", "b": "Czarek", "winner": "b", "by": "points", "points": "21"})
    with client.session_transaction() as session:
        session["owner"] = time.time() - 60
    origin = re.search(r'name="origin" value="([^"]+)"', client.get("/owner/recent/").get_data(as_text=True))[1]
    answers = [
        send("/owner/member", {"nick": "Nowa", "size": "9", "strength": "22.5"}),
        send("/owner/correction", {"nick": "Bianka", "size": "9", "strength": "31", "with": ""}),
        send("/owner/magnets", {"nick": "Bianka", "to": ""}, url="/owner/magnets/rename"),
        send("/owner/clock", {"at": "soon"}),
        send("/owner/recent/", {"origin": origin}, url="/owner/recent/void"),
        send("/new", {"a": "", "b": "B" * 43, "size": "9"}),
        send("/players/new", {"nick": "", "size": "9", "start": "kyu", "grade": "77"}),
        send("/tonight", {"nick": ""}, url="/tonight/here"),
    ]
    send("/owner/privacy/", {"show": "initials", "minors": "initials"}, url="/owner/privacy/club")
    send("/owner/privacy/player?nick=Czarek", {"nick": "Czarek", "show": "club", "hidden": "yes"})
    send("/owner/correction", {"nick": "Bianka", "size": "9", "strength": "31", "with": "Czarek"})
    answers += [client.get("/owner/audit"), client.get("/owner/")]
    said = [html.unescape(response.get_data(as_text=True)) for response in answers]
    assert "najbliższe pola to 22 i 23" in said[0] and "Unieważnić" in said[4] and "Gracz 1: wpisz nick" in said[5]
    assert "Prywatność: Czarek" in said[-2]
    found = {}
    for response in answers:
        assert response.status_code < 500
        page = response.get_data(as_text=True)
        english_here = [text for text in sentences(page) if english(text)]
        if english_here:
            found[response.request.path] = english_here
    assert found == {}, "English on a Polish page"
