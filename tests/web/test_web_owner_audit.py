"""The owner's audit log: privacy changes are in it, a merge names the players by their
nicknames (not as typed), in Polish too; a quick correction lands on the player's page, not the Rename list."""

from __future__ import annotations

import re
import time

import pytest
from flask.testing import FlaskClient

from kiosk.store import Store
from web.pin import hash_pin


@pytest.fixture
def owner(client: FlaskClient, store: Store) -> FlaskClient:
    store.save_config(store.config.with_changes(owner_pin_hash=hash_pin("2468")))
    with client.session_transaction() as session:
        session["owner"] = time.time() - 60
    return client


def audit(client: FlaskClient) -> list[str]:
    page = client.get("/owner/audit").get_data(as_text=True)
    items = re.findall(r"<li>(.*?)</li>", page.split('<ul class="audit">')[1], flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_privacy_changes_are_in_the_audit_log(owner: FlaskClient, send) -> None:
    send("/owner/privacy/", {"show": "initials", "minors": "initials"}, url="/owner/privacy/club")
    send("/owner/privacy/player?nick=Czarek", {"nick": "Czarek", "show": "club", "hidden": "yes"})
    said = audit(owner)
    assert said[0].startswith("Privacy of Czarek: shown as the club shows everyone; hidden from public pages.")
    assert any(line.startswith("Privacy: players are now shown by initials.") for line in said[1:3])
    owner.set_cookie("lang", "pl")
    said = audit(owner)
    assert said[0].startswith("Prywatność: Czarek – jak cały klub; poza stronami publicznymi.")


def test_a_merge_is_logged_with_the_players_nicknames(owner: FlaskClient, send, store: Store) -> None:
    typed = {"from": "franek", "into": "hania"}  # as typed: lower case
    preview = send("/owner/merge", typed)
    fingerprint = re.search(r'name="confirmed" value="([^"]*)"', preview.get_data(as_text=True))[1]
    assert send("/owner/merge", {**typed, "confirmed": fingerprint.replace("&#39;", "'")}).status_code == 302
    said = audit(owner)
    assert said[0].startswith("Merged Franek into Hania.")
    owner.set_cookie("lang", "pl")
    assert audit(owner)[0].startswith("Scalono: Franek → Hania.")


def test_a_quick_correction_lands_on_the_players_page(owner: FlaskClient, send, store: Store) -> None:
    form = {"nick": "czarek", "size": "9", "strength": "30", "status": "", "with": "Bianka"}
    saved = send("/owner/correction", form)
    assert saved.status_code == 302
    assert saved.headers["Location"].endswith("/players/Czarek")  # the magnet on its new field, not Rename
