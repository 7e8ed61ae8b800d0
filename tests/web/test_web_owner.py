"""The owner's tools behind the PIN: every action is an event in the history, shown in the audit log."""

from __future__ import annotations

import io
import re
import sqlite3

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from kiosk.store import Store
from web.pin import hash_pin

PIN = "2468"


def text(response: TestResponse) -> str:
    """The page as a person reads it."""
    import html

    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    page = re.sub(r"</?(a|span|b)\b[^>]*>", "", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def owner(client: FlaskClient, store: Store, send) -> FlaskClient:
    """A phone on which the owner typed the PIN."""
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    assert send("/owner/login", {"pin": PIN}).status_code == 302
    return client


def strengths(store: Store, size: int) -> dict[str, float]:
    """The board of a size as nick → strength."""
    return {m.nick: m.strength / 4 for m in store.magnets() if m.size == size}


def test_the_tools_need_the_pin(client: FlaskClient) -> None:
    for url in ("/owner/", "/owner/correction", "/owner/shift", "/owner/export", "/owner/backup", "/owner/audit"):
        response = client.get(url)
        assert response.status_code == 302 and "/owner/login" in response.headers["Location"], url


def test_with_no_pin_set_the_login_page_says_to_set_it_at_the_kiosk_and_takes_no_pin(send, store: Store, home) -> None:
    page = send("/owner/login", {"pin": "1234", "again": "1234"})
    assert page.status_code == 400 and "semedori set-pin" in page.get_data(as_text=True)
    assert not store.reload_config().owner_pin_hash
    assert store.entries(limit=1)[0].line.get("note") != "owner PIN set on the web (first start)"


def test_a_wrong_pin_is_refused_and_five_lock_the_door(client: FlaskClient, store: Store, send) -> None:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin(PIN)))
    for _ in range(5):
        response = send("/owner/login", {"pin": "0000"})
        assert response.status_code == 400 and "Wrong PIN" in text(response)
    assert send("/owner/login", {"pin": PIN}).status_code == 400  # locked for a minute
    assert client.get("/owner/").status_code == 302


def test_quick_correction_with_the_strong_members_name(owner: FlaskClient, send, store: Store) -> None:
    form = {"nick": "Czarek", "size": "9", "strength": "30", "status": "", "with": "Bianka", "note": "back from camp"}
    response = send("/owner/correction", {**form, "with": ""})
    assert response.status_code == 400
    assert "Strong member who agreed (required): name the strong member" in text(response)
    assert 'value="back from camp"' in response.get_data(as_text=True)
    assert send("/owner/correction", form).status_code == 302
    assert strengths(store, 9)["Czarek"] == 30
    assert "back from camp" in text(owner.get("/owner/audit"))
    response = send("/owner/correction", {**form, "strength": "30.3"})
    assert "30.3 is not a field of the scale" in text(response)


def test_shift_previews_every_magnet_then_saves(hidden, owner: FlaskClient, send, store: Store, client) -> None:
    form = {"amount": "-5", "scope": "size", "size": "9"}
    preview = send("/owner/shift", form)
    page = text(preview)
    assert "Bianka (9×9) 34.5 30" in page and "Dawid (9×9) 22 17" in page
    assert "Ewa" not in page
    assert strengths(store, 9)["Bianka"] == 34.5  # nothing saved yet

    saved = client.post("/owner/shift", data={**hidden(preview.get_data(as_text=True)), **form})
    assert saved.status_code == 302
    assert strengths(store, 9) == {"Bianka": 30, "Czarek": 20, "Dawid": 17}
    assert strengths(store, 13)["Ewa"] == 30


def test_a_shift_of_a_group_names_an_unknown_player(owner: FlaskClient, send) -> None:
    response = send("/owner/shift", {"amount": "2", "scope": "group", "nicks": "Ewa, Nobody"})
    assert response.status_code == 400 and "unknown player 'Nobody'" in text(response)


def test_a_shift_of_a_group_knows_a_renamed_player_by_the_old_name(
    hidden, owner: FlaskClient, send, store: Store, client
) -> None:
    assert send("/owner/magnets", {"nick": "Ewa", "to": "Ewka"}, url="/owner/magnets/rename").status_code == 302
    form = {"amount": "2", "scope": "group", "nicks": "ewa, Gosia"}
    preview = send("/owner/shift", form)
    assert preview.status_code == 200 and "Ewka (13×13) 30 32" in text(preview)
    saved = client.post("/owner/shift", data={**hidden(preview.get_data(as_text=True)), **form})
    assert saved.status_code == 302 and strengths(store, 13)["Ewka"] == 32
    unknown = send("/owner/shift", {**form, "nicks": "Ewka, Nobody"})
    assert unknown.status_code == 400 and "unknown player 'Nobody'" in text(unknown)


def test_merge_duplicates_with_preview_and_undo(hidden, owner: FlaskClient, send, store: Store, client) -> None:
    client.post("/api/players", json={"nick": "Bianca", "size": 13})
    page = owner.get("/owner/merge").get_data(as_text=True)
    link = re.search(r'<a href="(/owner/merge\?[^"]+)">(Bianca / Bianka|Bianka / Bianca)</a>', page)
    assert link is not None  # a suggested pair, one tap from the form
    assert 'value="Bian' in owner.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)
    form = {"from": "Bianca", "into": "Bianka"}
    preview = send("/owner/merge", form)
    assert "Bianka 9×9: 34.5 (member)" in text(preview) and "Bianka 13×13: 0 (guest)" in text(preview)

    client.post("/owner/merge", data={**hidden(preview.get_data(as_text=True)), **form})
    assert sorted((m.nick, m.size) for m in store.magnets() if m.nick.startswith("Bian")) == [
        ("Bianka", 9),
        ("Bianka", 13),
    ]
    undo = hidden(owner.get("/owner/merge").get_data(as_text=True))
    client.post("/owner/unmerge", data={**undo, **form})
    assert ("Bianca", 13) in [(m.nick, m.size) for m in store.magnets()]


def test_a_merge_in_force_names_the_kept_player_as_now_and_undoes(
    hidden, owner: FlaskClient, send, store: Store, client
) -> None:
    client.post("/api/players", json={"nick": "Bianca", "size": 13})
    form = {"from": "Bianca", "into": "Bianka"}
    preview = send("/owner/merge", form)
    client.post("/owner/merge", data={**hidden(preview.get_data(as_text=True)), **form})
    assert send("/owner/magnets", {"nick": "Bianka", "to": "Bea"}, url="/owner/magnets/rename").status_code == 302
    page = owner.get("/owner/merge")
    assert "Bianca → Bea" in text(page)
    assert client.post("/owner/unmerge", data=hidden(page.get_data(as_text=True))).status_code == 302
    assert ("Bianca", 13) in [(m.nick, m.size) for m in store.magnets()]
    assert "Merges in force" not in text(owner.get("/owner/merge"))


def test_void_a_game_replays_the_board(owner: FlaskClient, send, store: Store) -> None:
    assert strengths(store, 9)["Dawid"] == 22
    assert "Void or edit (owner)" in text(owner.get("/games/1"))
    asked = send("/owner/games/1", {"action": "void"})
    assert asked.status_code == 200  # the first tap only asks
    assert "Void Dawid – Bianka? Both magnets move back as if the game was never played." in text(asked)
    assert strengths(store, 9)["Dawid"] == 22
    assert send("/owner/games/1", {"action": "void-confirmed"}).status_code == 302
    assert strengths(store, 9)["Dawid"] == 20 and not store.recent_games()


def test_a_void_can_be_undone(owner: FlaskClient, send, store: Store) -> None:
    send("/owner/games/1", {"action": "void-confirmed", "note": "wrong table"})
    page = owner.get("/owner/games/1")
    assert "This game was voided" in text(page) and "Undo the void: count the game again" in text(page)
    back = send("/owner/games/1", {"action": "restore"})
    assert back.status_code == 302
    assert strengths(store, 9)["Dawid"] == 22
    assert [g.players for g in store.recent_games()] == [("Dawid", "Bianka")]
    log = text(owner.get("/owner/audit"))
    assert "Voided the game Dawid – Bianka." in log and "Why: wrong table" in log
    assert "Recorded the game Dawid – Bianka." in log
    assert "phone:" not in log and "None" not in log
    assert 'href="/owner/games/1"' in owner.get("/owner/audit").get_data(as_text=True)


def test_the_audit_log_is_polish_for_a_polish_phone(owner: FlaskClient, send, store: Store) -> None:
    send("/owner/games/1", {"action": "void-confirmed"})
    owner.set_cookie("lang", "pl")
    log = text(owner.get("/owner/audit"))
    assert "Unieważniono partię Dawid – Bianka." in log and "właściciel" in log


def test_a_shift_preview_paints_an_unchanged_magnet_as_unchanged(owner: FlaskClient, send) -> None:
    page = send("/owner/shift", {"amount": "0.25", "scope": "size", "size": "9"}).get_data(as_text=True)
    rows = re.findall(r'<td class="(up|down|same)">', page)
    assert "same" in rows and "down" not in rows  # 0.25 moves some magnets up a field, leaves others


def test_the_correction_marks_the_strong_member_required(owner: FlaskClient) -> None:
    page = owner.get("/owner/correction").get_data(as_text=True)
    assert re.search(r'name="with"[^>]*required', page)
    assert "Strong member who agreed (required)" in text(owner.get("/owner/correction"))


def test_edit_a_game_replays_the_board(owner: FlaskClient, send, store: Store) -> None:
    form = {
        "action": "edit",
        "size": "9",
        "a": "Dawid",
        "b": "Bianka",
        "winner": "b",
        "by": "resignation",
        "played": "2026-11-02T18:00",
    }
    assert send("/owner/games/1", form).status_code == 302
    assert strengths(store, 9)["Dawid"] == 20  # his free loss of the week
    assert store.game(1).winner == "Bianka"
    bad = send("/owner/games/1", {**form, "b": "Nobody"})
    assert bad.status_code == 400 and "unknown player 'Nobody'" in text(bad)


def test_a_polish_owner_edits_a_result_with_the_phone_forms_buttons_and_types_no_english_word(
    owner: FlaskClient, send, store: Store
) -> None:
    store.save_config(store.config.with_changes(language="pl"))  # a Polish club; the phone asks for no language
    page = owner.get("/owner/games/1")
    # Dawid beat Bianka by resignation: the form shows it with the buttons, no English word to keep.
    assert re.search(r'name="by" value="resignation" checked', page.get_data(as_text=True))
    assert "resignation" not in text(page) and "Przez poddanie" in text(page)
    form = {"action": "edit", "size": "9", "a": "Dawid", "b": "Bianka", "winner": "b", "played": "2026-11-02T18:00"}
    assert send("/owner/games/1", {**form, "by": "points", "points": "7,5"}).status_code == 302
    assert store.game(1).by == 7.5  # type: ignore[union-attr]
    page = owner.get("/owner/games/1").get_data(as_text=True)
    assert re.search(r'name="by" value="points" checked', page) and 'value="7,5"' in page
    before = store.history_entries()
    wrong = send("/owner/games/1", {**form, "by": "points", "points": ""})
    assert wrong.status_code == 400 and "Punkty: wpisz punkty" in text(wrong)  # said in Polish, and nothing saved
    assert store.history_entries() == before


def test_rename_retire_and_restore(owner: FlaskClient, send, store: Store, client) -> None:
    assert send("/owner/magnets", {"nick": "Czarek", "to": "Cezary"}, url="/owner/magnets/rename").status_code == 302
    assert "Cezary" in strengths(store, 9)
    taken = send("/owner/magnets", {"nick": "Cezary", "to": "bianka"}, url="/owner/magnets/rename")
    assert "the nickname 'bianka' is taken" in text(taken)
    send("/owner/magnets", {"nick": "Cezary", "size": "9"}, url="/owner/magnets/retire")
    assert "Cezary" not in text(client.get("/?size=9"))
    send("/owner/magnets", {"nick": "Cezary", "size": "9"}, url="/owner/magnets/restore")
    assert "Cezary" in text(client.get("/?size=9"))


def test_add_a_member_at_any_field(owner: FlaskClient, send, store: Store) -> None:
    assert send("/owner/member", {"nick": "Leszek", "size": "19", "strength": "50.5"}).status_code == 302
    assert [(m.strength, m.status) for m in store.magnets() if m.nick == "Leszek"] == [(202, "member")]
    bad = send("/owner/member", {"nick": "Marek", "size": "19", "strength": "45.1"})
    assert bad.status_code == 400 and "is not a field of the scale" in text(bad)


def test_settings(owner: FlaskClient, send, store: Store, client) -> None:
    form = {
        "club_name": "GoKids Kraków",
        "timezone": "Europe/Warsaw",
        "language": "pl",
        "guest_losses": "3",
        "form_url": "http://go.local",
    }
    assert send("/owner/settings", form).status_code == 302
    config = store.reload_config()
    assert (config.club_name, config.language, config.guest_losses) == ("GoKids Kraków", "pl", 3)
    assert "GoKids Kraków" in text(client.get("/", headers={"Accept-Language": "de"}))
    bad = send("/owner/settings", {**form, "timezone": "Mars/Olympus"})
    # The club speaks Polish now, and so does the refusal (the zone is named as typed).
    assert bad.status_code == 400 and "nieznana strefa czasowa 'Mars/Olympus'" in text(bad)
    assert "zmienione ustawienia: club_name=GoKids Kraków" in text(owner.get("/owner/audit"))


def test_a_polish_owner_is_told_in_polish_why_a_setting_was_not_saved(
    owner: FlaskClient, send, store: Store, home
) -> None:
    store.save_config(store.config.with_changes(language="pl"))  # the club's language; the phone asks for none
    form = {"club_name": "GoKids", "timezone": "Europe/Warsaw", "language": "pl", "guest_losses": "2", "form_url": ""}
    saved = (home / "semedori.toml").read_bytes()
    notes = len(list(store.entries(limit=100)))
    for typed, polish, english in (
        ({"guest_losses": "5"}, "konfiguracja guest_losses: musi wynosić 2 albo 3", "must be 2 or 3"),
        (
            {"timezone": "Europe/Warszawa"},
            "konfiguracja timezone: nieznana strefa czasowa 'Europe/Warszawa'; wpisz nazwę taką jak Europe/Warsaw",
            "unknown time zone",
        ),
        ({"club_name": " "}, "konfiguracja club_name: musi mieć od 1 do 80 znaków", "characters"),
    ):
        refused = send("/owner/settings", {**form, **typed})
        page = text(refused)
        assert refused.status_code == 400 and polish in page, page
        assert english not in page and "configuration" not in page
        assert (home / "semedori.toml").read_bytes() == saved
        assert len(list(store.entries(limit=100))) == notes
    assert store.reload_config().club_name == "Semedori Go Club"


def test_export_import_and_backup(owner: FlaskClient, send, store: Store, client, tmp_path) -> None:
    exported = owner.get("/owner/export")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    lines = exported.get_data(as_text=True).splitlines()
    assert len(lines) == 8 and '"type": "game"' in lines[-1]
    client.post("/api/games", json={"size": 9, "players": ["Bianka", "Czarek"], "winner": "Czarek", "by": 3})
    broken = send("/owner/import", {"replace": "yes", "history": (io.BytesIO(b'{"type": "oops"}\n'), "h.jsonl")})
    assert broken.status_code == 400 and "line 1: unknown type 'oops'" in text(broken)
    assert len(store.recent_games()) == 2
    upload = (io.BytesIO(exported.get_data()), "history.jsonl")
    assert send("/owner/import", {"history": upload}).status_code == 400  # the box was not ticked
    upload = (io.BytesIO(exported.get_data()), "history.jsonl")
    assert send("/owner/import", {"replace": "yes", "history": upload}).status_code == 302
    assert len(store.recent_games()) == 1

    backup = owner.get("/owner/backup")
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(backup.get_data())
    with sqlite3.connect(copy) as db:  # the 8 imported events, and the owner's note that they were imported
        assert db.execute("SELECT count(*) FROM event").fetchone()[0] == 9
    db.close()


def test_each_row_of_the_magnets_page_is_its_own_action(owner: FlaskClient, hidden, store: Store) -> None:
    page = owner.get("/owner/magnets").get_data(as_text=True)
    tokens = re.findall(r'name="once" value="([^"]+)"', page)
    assert len(tokens) == len(set(tokens)) > 5
    rows = re.findall(r'<form method="post" action="/owner/magnets/retire">(.*?)</form>', page, flags=re.S)
    for row in rows[:2]:
        owner.post("/owner/magnets/retire", data=hidden(row))
    assert sum(m.retired for m in store.magnets()) == 2


def test_the_pin_lasts_one_evening(owner: FlaskClient) -> None:
    assert owner.get("/owner/").status_code == 200
    with owner.session_transaction() as session:
        session["owner"] -= 9 * 3600
    assert owner.get("/owner/").status_code == 302
    assert "Void or edit (owner)" not in text(owner.get("/games/1"))


def test_the_edit_form_shows_a_polish_margin_with_a_comma(owner: FlaskClient, send, store: Store) -> None:
    form = {
        "size": "13",
        "a": "Ewa",
        "b": "Gosia",
        "winner": "a",
        "by": "points",
        "points": "7,5",
        "at": "2026-11-03T19:10",
    }
    assert send("/new", form).status_code == 302
    owner.set_cookie("lang", "pl")
    page = owner.get("/owner/games/2").get_data(as_text=True)
    assert re.search(r'name="by" value="points" checked', page) and 'name="points"' in page and 'value="7,5"' in page
