"""Recording a game at the table: handicap preview, confirmation with moves, errors, undo."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlparse

import pytest
from flask.testing import FlaskClient

from kiosk.store import Store


def text(response) -> str:
    """The page as a person reads it: tags dropped, entities decoded, spaces folded."""
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    page = re.sub(r"</?(a|span|b)\b[^>]*>", "", page)  # inline tags do not split words
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def games_of(store: Store) -> list:
    """Every game the board counts now."""
    return store.recent_games(limit=100)


def test_new_game_shows_the_handicap_as_soon_as_both_players_are_known(client: FlaskClient) -> None:
    page = text(client.get("/new?size=9&a=Bianka&b=Czarek"))
    assert "Bianka takes White, Czarek takes Black." in page
    assert "2 starting moves, 0 prisoners" in page


def test_the_handicap_fragment_follows_typing(client: FlaskClient) -> None:
    page = text(client.get("/new/handicap?size=9&a=bianka&b=CZAREK"))
    assert "2 starting moves, 0 prisoners" in page
    unknown = text(client.get("/new/handicap?size=9&a=Bianka&b=Zosia"))
    assert "Zosia is not on the board yet." in unknown
    assert "Add Zosia as a new guest" in unknown


def test_an_even_game_says_nigiri_and_offers_no_draw(client: FlaskClient) -> None:
    response = client.get("/new?size=13&a=Ewa&b=Gosia")
    assert "Even game: nigiri, komi 6.5" in text(response)
    assert re.search(r'<label class="choice draw" hidden', response.get_data(as_text=True))


def test_a_training_game_is_announced(client: FlaskClient) -> None:
    page = text(client.get("/new?size=13&a=Ewa&b=Franek"))
    assert "Training game: Ewa (White) does not move." in page


def test_without_javascript_the_preview_button_shows_the_handicap_and_saves_nothing(
    send, game: dict[str, str], store: Store
) -> None:
    response = send("/new", {**game, "action": "preview"})
    assert response.status_code == 200
    assert "2 starting moves, 0 prisoners" in text(response)
    assert len(games_of(store)) == 1


def test_recording_the_rules_example_shows_both_moves_and_why(send, game: dict[str, str], client: FlaskClient) -> None:
    response = send("/new", game)
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "Saved!" in page
    assert "Czarek: clear win, 2 arrows up: 25 → 27" in page
    assert "Bianka: clear loss, 2 arrows down: 34.5 → 33.5" in page
    assert "Czarek won by 21 points" in page
    assert "Undo this game" in page


def test_the_first_loss_of_the_week_keeps_the_magnet_where_it_was(send, game: dict[str, str], client) -> None:
    response = send("/new", {**game, "at": "2026-11-10T19:10"})
    page = text(client.get(response.headers["Location"]))
    assert "Bianka: first loss this week: stays at 34.5" in page
    assert "Czarek: clear win, 2 arrows up: 25 → 27" in page


def test_a_member_against_a_guest_and_a_milestone(send, client: FlaskClient) -> None:
    form = {"size": "13", "a": "Ewa", "b": "Hania", "winner": "a", "by": "resignation", "at": "2026-11-03T19:00"}
    page = text(client.get(send("/new", form).headers["Location"]))
    assert "Ewa: vs guest: a member does not move against a guest, stays at 30" in page
    assert "Hania: first loss this week: stays at 28" in page
    # Hania's second rated loss makes her a member (the free one counts too).
    page = text(client.get(send("/new", {**form, "at": "2026-11-04T19:00"}).headers["Location"]))
    assert "Hania is now a member of the club board!" in page


def test_a_double_tap_records_one_game(hidden, client: FlaskClient, game: dict[str, str], store: Store) -> None:

    fields = hidden(client.get("/new").get_data(as_text=True))
    first = client.post("/new", data={**fields, **game})
    second = client.post("/new", data={**fields, **game})
    assert first.headers["Location"] == second.headers["Location"]
    assert len(games_of(store)) == 2  # Monday's game and this one


def test_a_new_form_records_a_new_game(send, game: dict[str, str], store: Store) -> None:
    send("/new", game)
    send("/new", {**game, "at": "2026-11-03T20:10"})
    assert len(games_of(store)) == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"b": "Zosia"}, "Player 2: Zosia is not on the board yet. Tap the right name below, or add a new player."),
        ({"b": "bianka"}, "Player 2: Player 1 and player 2 are both Bianka. Pick two different players."),
        ({"b": ""}, "Player 2: type a nickname (1 to 30 letters)."),  # the field is named
        ({"winner": ""}, "Who won: tap one of the two players, or Draw."),
        ({"points": "-5"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": "500"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": "lots"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": "nan"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": "inf"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": "1e999"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": "2,25"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": "1_0"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),  # float() says 10
        ({"points": "1e1"}, "Points: Type the points as a number from 0.5 to 81, like 7 or 7.5."),
        ({"points": ""}, "Points: type the points, like 7 or 7.5."),
        ({"at": "2099-01-01T10:00"}, "Played at: The game's time is in the future. Pick when the game was played."),
        ({"at": "yesterday"}, "Played at: The date of the game is not clear. Pick it again from the calendar."),
        ({"size": "10"}, "Board size: Pick the board: 9×9, 13×13 or 19×19."),
    ],
)
def test_bad_input_is_explained_on_the_same_form_and_changes_nothing(
    send, game: dict[str, str], store: Store, change: dict[str, str], message: str
) -> None:
    response = send("/new", {**game, **change})
    assert response.status_code == 400
    page = text(response)
    assert message in page
    assert len(games_of(store)) == 1
    typed = response.get_data(as_text=True)
    assert 'value="Bianka"' in typed  # what was typed is kept
    assert 'value="2026-11-03T19:10"' in typed or "at" in change


def test_a_draw_in_an_even_game_is_refused(send, store: Store) -> None:
    form = {"size": "13", "a": "Ewa", "b": "Gosia", "winner": "draw", "at": "2026-11-03T19:00"}
    response = send("/new", form)
    assert response.status_code == 400
    assert "An even game cannot end in a draw (komi is 6.5). Tap who won." in text(response)
    assert len(games_of(store)) == 1


def test_a_draw_in_a_handicap_game_is_recorded(send, game: dict[str, str], client) -> None:
    page = text(client.get(send("/new", {**game, "winner": "draw"}).headers["Location"]))
    assert "Draw" in page
    assert "Czarek: draw: stays at 25" in page


def test_a_form_without_its_csrf_token_saves_nothing(client: FlaskClient, game: dict[str, str], store: Store) -> None:
    response = client.post("/new", data=game)
    assert response.status_code == 400
    assert "This form is too old or was not sent from this site; nothing was saved." in text(response)
    assert 'value="Bianka"' in response.get_data(as_text=True)
    assert len(games_of(store)) == 1


def test_html_in_a_nickname_is_shown_escaped(send, game: dict[str, str]) -> None:
    response = send("/new", {**game, "b": "<script>alert(1)</script>"})
    body = response.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_the_recording_phone_can_undo_for_ten_minutes(send, game: dict[str, str], client, store: Store) -> None:
    location = send("/new", game).headers["Location"]
    response = send(location, {}, url=location.split("?")[0] + "/undo")
    assert response.status_code == 302
    assert "The game was undone" in text(client.get(response.headers["Location"]))
    assert len(games_of(store)) == 1
    assert client.get(location).status_code == 404
    board = {m.nick: m.strength for m in store.magnets()}
    assert board["Bianka"] == 34.5 * 4 and board["Czarek"] == 25 * 4


def test_another_phone_cannot_undo(send, game: dict[str, str], app, store: Store) -> None:
    location = send("/new", game).headers["Location"]
    other = app.test_client()
    assert "Undo this game" not in text(other.get(location))
    response = send("/new", {}, url=location.split("?")[0] + "/undo", phone=other)
    assert response.status_code == 302
    assert "Only the phone that recorded a game can undo it" in text(other.get(response.headers["Location"]))
    assert len(games_of(store)) == 2


def test_undo_ends_after_ten_minutes(send, game: dict[str, str], client, store: Store) -> None:
    location = send("/new", game).headers["Location"]
    store.db.execute("UPDATE event SET entered = '2026-01-01T00:00:00+00:00' WHERE type = 'game'")
    assert "Undo this game" not in text(client.get(location))
    send(location.replace("?saved=1", ""), {}, url=location.split("?")[0] + "/undo")
    assert len(games_of(store)) == 2


def test_two_players_who_now_play_even_for_the_first_time(send, client: FlaskClient) -> None:
    form = {"size": "9", "a": "Dawid", "b": "Czarek", "winner": "a", "by": "resignation", "at": "2026-11-03T18:00"}
    page = text(client.get(send("/new", form).headers["Location"]))
    assert "Dawid: clear win, 2 arrows up: 22 → 24" in page
    assert "Dawid and Czarek will now play even for the first time!" in page


def test_a_form_sent_again_after_its_game_was_undone_records_nothing(hidden, client, game, store: Store) -> None:
    fields = hidden(client.get("/new").get_data(as_text=True))
    location = client.post("/new", data={**fields, **game}).headers["Location"]
    undo = hidden(client.get(location).get_data(as_text=True))
    client.post(location.split("?")[0] + "/undo", data=undo)
    again = client.post("/new", data={**fields, **game})  # the back button, and Save once more
    assert again.status_code == 302 and again.headers["Location"].startswith("/new?size=9")
    assert "That game was undone." in text(client.get(again.headers["Location"]))
    assert len(games_of(store)) == 1


def test_an_undo_without_its_csrf_token_undoes_nothing(send, game: dict[str, str], client, store: Store) -> None:
    location = send("/new", game).headers["Location"]
    assert client.post(location.split("?")[0] + "/undo").status_code == 400
    assert len(games_of(store)) == 2


def test_a_guests_loss_at_zero_says_it_stays_and_still_counts_towards_membership(send, client: FlaskClient) -> None:
    # docs/rules.md §2, §4: Franek (guest, 0) loses twice; nothing to forgive at 0, both losses count.
    form = {"size": "13", "a": "Gosia", "b": "Franek", "winner": "a", "by": "resignation", "at": "2026-11-03T19:00"}
    first = text(client.get(send("/new", form).headers["Location"]))
    wording = (
        "Franek: loss: stays at 0 (no arrow below zero; this week's free loss is kept, a guest's loss still counts)"
    )
    assert wording in first
    assert "Franek is now a member" not in first
    second = text(client.get(send("/new", {**form, "at": "2026-11-03T19:30"}).headers["Location"]))
    assert wording in second
    assert "Franek is now a member of the club board!" in second


# --- the size follows the players ------------------------------------------------------------


def checked_size(response) -> str:
    """The board size ticked on the form."""
    found = re.search(
        r'<input[^>]*name="size"[^>]*value="(\d+)"[^>]*checked|'
        r'<input[^>]*checked[^>]*name="size"[^>]*value="(\d+)"',
        response.get_data(as_text=True),
    )
    assert found, "no size is ticked"
    return found.group(1) or found.group(2)


def test_two_nine_by_nine_players_get_nine_by_nine(client: FlaskClient) -> None:
    assert checked_size(client.get("/new")) == "13"  # nobody chosen yet: the usual size
    assert checked_size(client.get("/new?a=Bianka&b=Czarek")) == "9"
    answer = client.get("/new/handicap?size=13&a=Bianka&b=czarek&follow=1").get_data(as_text=True)
    assert 'data-size="9"' in answer
    assert "2 starting moves, 0 prisoners" in text_of(answer)
    # A size tapped by hand (no follow) is kept, with the warning that nothing would move.
    kept = client.get("/new/handicap?size=19&a=Bianka&b=Czarek")
    assert 'data-size="19"' in kept.get_data(as_text=True)
    assert "Neither Bianka nor Czarek has a magnet on 19×19, so no magnet would move." in text(kept)


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_without_javascript_the_preview_picks_the_shared_size(send, game: dict[str, str]) -> None:
    response = send("/new", {**game, "size": "13", "action": "preview"})
    assert checked_size(response) == "9"
    assert "2 starting moves, 0 prisoners" in text(response)


def test_a_size_neither_player_has_needs_a_tick(send, game: dict[str, str], client, store: Store) -> None:
    response = send("/new", {**game, "size": "13"})
    assert response.status_code == 400
    assert "Neither Bianka nor Czarek has a magnet on 13×13, so no magnet would move." in text(response)
    assert "Record it on 13×13 anyway" in text(response)
    assert len(games_of(store)) == 1
    # A tick for another size does not count.
    assert send("/new", {**game, "size": "13", "anyway": "19"}).status_code == 400
    saved = send("/new", {**game, "size": "13", "anyway": "13"})
    assert saved.status_code == 302
    page = text(client.get(saved.headers["Location"]))
    assert "Bianka: no magnet on 13×13, so nothing moved." in page
    assert "Czarek: no magnet on 13×13, so nothing moved." in page


def test_an_occasional_player_is_told_why_their_magnet_stayed(send, client) -> None:
    form = {"size": "13", "a": "Bianka", "b": "Ewa", "winner": "a", "by": "resignation", "at": "2026-11-03T19:10"}
    shown = text(client.get("/new?size=13&a=Bianka&b=Ewa"))
    assert "the handicap uses their main magnet, and it will not move" in shown
    saved = send("/new", form)
    assert saved.status_code == 302
    page = text(client.get(saved.headers["Location"]))
    assert "Bianka: no magnet on 13×13, so nothing moved." in page
    assert "Ewa: first loss this week: stays at 30" in page


def test_the_phone_remembers_the_last_size(send, game: dict[str, str], client) -> None:
    assert send("/new", game).status_code == 302
    assert checked_size(client.get("/new")) == "9"
    assert checked_size(client.get("/new?a=Ewa&b=Gosia")) == "13"  # the players still win


# --- names by tap ----------------------------------------------------------------------------


def value_of(response, name: str) -> str:
    """The value a text field of the form comes back with."""
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', response.get_data(as_text=True))
    return html.unescape(found.group(1)) if found else ""


def test_names_are_found_without_polish_letters_or_case(send, client, store: Store) -> None:
    from datetime import datetime

    from kiosk.recording import new_guest

    store.record(new_guest("Łucja", 9, datetime(2026, 11, 1, 11), store.magnets()))
    page = client.get("/new?a=lucja&b=CZAREK")
    assert value_of(page, "a") == "Łucja" and value_of(page, "b") == "Czarek"
    assert "Czarek takes White, Łucja takes Black." in text(page)
    form = {"a": "Lucja", "b": "czarek", "winner": "a", "by": "resignation", "at": "2026-11-03T19:10", "size": "9"}
    saved = send("/new", form)
    assert saved.status_code == 302
    assert store.recent_games(limit=1)[0].players == ("Łucja", "Czarek")


def test_a_typo_gets_a_one_tap_did_you_mean(send, game: dict[str, str], store: Store) -> None:
    response = send("/new", {**game, "b": "Czark"})
    assert response.status_code == 400
    assert "Czark is not on the board yet. Did you mean: Czarek" in text(response)
    assert 'name="fix" value="b:Czarek"' in response.get_data(as_text=True)
    assert len(games_of(store)) == 1
    fixed = send("/new", {**game, "b": "Czark", "fix": "b:Czarek"})  # the tap, without JavaScript
    assert fixed.status_code == 200 and value_of(fixed, "b") == "Czarek"
    assert value_of(fixed, "points") == "21"  # the rest stays as filled in
    assert len(games_of(store)) == 1


def test_i_am_is_remembered_and_recent_opponents_are_chips(send, game: dict[str, str], client) -> None:
    assert value_of(client.get("/new"), "a") == ""
    assert send("/new", {**game, "me": "y"}).status_code == 302  # Bianka ticked "That's me"
    page = client.get("/new")
    assert value_of(page, "a") == "Bianka"
    chips = re.findall(r'name="pick" value="([^"]+)"', page.get_data(as_text=True))
    assert chips[:2] == ["Czarek", "Dawid"]  # her opponents, the latest first
    picked = send("/new", {"a": "Bianka", "pick": "Dawid"})  # a chip tapped without JavaScript fills player 2
    assert value_of(picked, "a") == "Bianka" and value_of(picked, "b") == "Dawid"
    assert "Bianka takes White" in text(picked)


def test_untick_that_is_me_forgets_the_name(send, game: dict[str, str], client) -> None:
    send("/new", {**game, "me": "y"})
    other = {**game, "at": "2026-11-03T19:30"}
    assert send("/new", other).status_code == 302  # the box came ticked; unticked now
    assert value_of(client.get("/new"), "a") == ""


def test_a_new_guest_is_added_from_the_game_form_and_the_form_comes_back(send, client, store: Store) -> None:
    form = {"size": "9", "a": "Bianka", "b": "Tymek", "winner": "b", "by": "resignation", "at": "2026-11-03T19:10"}
    away = send("/new", {**form, "action": "guest-b"})
    assert away.status_code == 302
    add_page = client.get(away.headers["Location"])
    assert value_of(add_page, "nick") == "Tymek"
    assert "After saving, you go back to your game." in text(add_page)
    target = away.headers["Location"]
    checked = send(target, {"nick": "Tymek", "size": "9", "start": "zero"}, url="/players/new")
    assert "Tymek starts as a guest at 0 on 9x9." in text(checked)
    saved = client.post(
        "/players/new", data={**hidden(checked.get_data(as_text=True)), "size": "9", "start": "zero", "nick": "Tymek"}
    )
    assert saved.status_code == 302
    back = client.get(saved.headers["Location"])
    assert value_of(back, "a") == "Bianka" and value_of(back, "b") == "Tymek"
    assert re.search(r'value="b"[^>]*checked|checked[^>]*value="b"', back.get_data(as_text=True))
    assert "Bianka takes White, Tymek takes Black." in text(back)


def test_a_guest_added_from_the_form_keeps_a_typed_time_but_the_shown_time_becomes_the_time_of_coming_back(
    send, client
) -> None:
    # The form showed 19:10 and the player took a minute to add the guest: the game is played now, not
    # before the guest joined ("was not on the board yet at that time" would puzzle a child).
    form = {"size": "9", "a": "Bianka", "b": "Tymek", "winner": "b", "by": "resignation"}
    shown = send("/new", {**form, "at": "2026-11-03T19:10", "shown_at": "2026-11-03T19:10", "action": "guest-b"})
    back = parse_qs(urlparse(shown.headers["Location"]).query)["back"][0]
    assert "at=" not in back and "b=Tymek" in back
    typed = send("/new", {**form, "at": "2026-11-02T18:00", "shown_at": "2026-11-03T19:10", "action": "guest-b"})
    assert "at=2026-11-02T18%3A00" in parse_qs(urlparse(typed.headers["Location"]).query)["back"][0]


def hidden(page: str) -> dict[str, str]:
    from form_fields import hidden_fields

    return hidden_fields(page)


def test_how_has_no_default_and_forgetting_it_is_explained(send, game: dict[str, str], client, store) -> None:
    page = client.get("/new").get_data(as_text=True)
    assert not re.search(r'name="by"[^>]*checked|checked[^>]*name="by"', page)
    response = send("/new", {**game, "by": ""})
    assert response.status_code == 400
    assert "How the game ended: tap By points, By resignation, or On time / other." in text(response)
    assert len(games_of(store)) == 1


def test_a_whole_number_margin_in_an_even_game_is_refused_kindly(send, client, store: Store) -> None:
    even = {"size": "13", "a": "Ewa", "b": "Gosia", "winner": "a", "by": "points", "at": "2026-11-03T19:10"}
    assert "Even game" in text(client.get("/new?size=13&a=Ewa&b=Gosia"))
    response = send("/new", {**even, "points": "7"})
    assert response.status_code == 400
    assert "In an even game the points always end in .5 (komi is 6.5). Did you mean 6.5 or 7.5?" in text(response)
    assert len(games_of(store)) == 1
    assert send("/new", {**even, "points": "7,5"}).status_code == 302  # a decimal comma is fine


def test_messages_for_players_have_no_quotes_no_line_numbers_and_are_polish_too(send, game, client) -> None:
    client.set_cookie("lang", "pl")
    page = text(send("/new", {**game, "b": "bianka"}))
    assert "Gracz 1 i gracz 2 to ta sama osoba: Bianka. Wybierz dwie różne osoby." in page
    backdated = text(send("/new", {**game, "at": "2026-10-01T19:00"}))  # before Bianka joined the board
    assert (
        "Bianka — tego nicku nie było jeszcze wtedy na tablicy. Sprawdź datę albo najpierw dodaj tę osobę." in backdated
    )
    assert "wiersz" not in backdated and "'" not in backdated.split("Nowa partia", 2)[-1].split("Gracz 1")[0]
    even = {"size": "13", "a": "Ewa", "b": "Gosia", "winner": "a", "by": "points", "at": "2026-11-03T19:10"}
    kind = text(send("/new", {**even, "points": "7"}))
    assert "W równej partii punkty zawsze kończą się na ,5 (komi to 6,5). Chodzi o 6,5 czy 7,5?" in kind


def test_a_polish_phone_reads_margins_with_a_decimal_comma(send, client) -> None:
    client.set_cookie("lang", "pl")
    even = {"size": "13", "a": "Ewa", "b": "Gosia", "winner": "a", "by": "points", "points": "7,5"}
    saved = send("/new", {**even, "at": "2026-11-03T19:10"})
    page = text(client.get(saved.headers["Location"]))
    assert "7,5" in page and "7.5" not in page
    assert 'placeholder="21,5"' in client.get("/new").get_data(as_text=True)


def test_tonights_players_are_chips_on_every_phone(send, app, client) -> None:
    tonight = {"size": "9", "a": "Bianka", "b": "Czarek", "winner": "a", "by": "resignation", "at": ""}
    assert send("/new", tonight).status_code == 302  # played now
    other_phone = app.test_client()
    page = other_phone.get("/new").get_data(as_text=True)
    assert re.findall(r'name="pick" value="([^"]+)"', page) == ["Bianka", "Czarek"]
    assert value_of(other_phone.get("/new"), "a") == ""  # nobody said "that's me" on this phone
