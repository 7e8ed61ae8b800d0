"""The settings service (kiosk/services/settings.py) on a real store: what a settings change becomes,
tonight's list and its refusals, the privacy settings. Nothing is saved when a setting is refused."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from histories import player

from kiosk import config as configuration
from kiosk.errors import ConfigError
from kiosk.privacy import INITIALS, PlayerPrivacy
from kiosk.services import settings
from kiosk.store import Store

MONDAY = date(2026, 11, 2)
AT = datetime(2026, 11, 2, 19, 30, 12)
FORM = {
    "club_name": "Semedori",
    "timezone": "Europe/Warsaw",
    "language": "en",
    "guest_losses": "2",
    "form_url": "http://semedori.local",
}


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path) as store:
        for nick, strength in [("Ala", 20), ("Łucja", 22), ("Bartuś", 10)]:
            store.record(player(nick, 13, "member", strength))
        yield store


def notes(store: Store) -> list[str]:
    return [e.line["note"] for e in store.entries(types=["note"])]


def test_a_plain_setting_is_written_to_the_file_and_noted_in_the_audit_log(club: Store, tmp_path: Path) -> None:
    changed = settings.change_settings(club, {**FORM, "club_name": "Klub Go", "sleeper_weeks": "20"}, AT, key="k")
    assert changed == {"club_name": "Klub Go", "sleeper_weeks": 20}
    assert configuration.load(tmp_path).club_name == "Klub Go"  # semedori.toml, read afresh
    assert club.config.sleeper_weeks == 20
    assert notes(club) == ["settings: club_name=Klub Go, sleeper_weeks=20"]
    assert club.rule_changes() == []  # no rule changed: no rule change in the history
    # The same form sent again (a double tap) notes nothing twice.
    settings.change_settings(club, {**FORM, "club_name": "Klub Go", "sleeper_weeks": "20"}, AT, key="k")
    assert len(notes(club)) == 1


def test_the_guest_losses_are_a_rule_change_dated_now_not_a_rewrite_of_the_past(club: Store, tmp_path: Path) -> None:
    settings.change_settings(club, {**FORM, "guest_losses": "3"}, AT, key="k")
    [change] = club.rule_changes()
    assert change.at == AT.replace(microsecond=0) and change.guest_losses == 3
    assert club.config.guest_losses == 3
    assert configuration.load(tmp_path).guest_losses == 2  # the rule from the beginning stays in the file
    assert club.check() == []


@pytest.mark.parametrize("weeks", ["-1", "many", "521", "1.5"])
def test_sleeper_weeks_that_are_not_a_whole_number_to_520_are_refused_by_the_config_check(
    club: Store, tmp_path: Path, weeks: str
) -> None:
    before = (tmp_path / configuration.CONFIG_NAME).read_bytes()
    with pytest.raises(ConfigError) as refused:
        settings.change_settings(club, {**FORM, "club_name": "Other", "sleeper_weeks": weeks}, AT)
    assert refused.value.setting == "sleeper_weeks" and refused.value.code == "bad-sleeper-weeks"
    assert "0 (wyłączone) do 520" in refused.value.message("pl")
    assert (tmp_path / configuration.CONFIG_NAME).read_bytes() == before  # nothing saved, not even the name
    assert club.config.club_name != "Other" and notes(club) == []


def test_a_bad_guest_losses_saves_nothing(club: Store) -> None:
    with pytest.raises(ConfigError):
        settings.change_settings(club, {**FORM, "club_name": "Other", "guest_losses": "x"}, AT)
    assert club.config.club_name != "Other" and club.rule_changes() == [] and notes(club) == []


def test_the_owner_pin_is_kept_as_its_hash_and_noted_when_asked(club: Store) -> None:
    settings.set_owner_pin(club, "salted$hash", AT, key="k", note="owner PIN set on the web (first start)")
    assert club.config.owner_pin_hash == "salted$hash"
    assert notes(club) == ["owner PIN set on the web (first start)"]
    settings.set_owner_pin(club, "other$hash")  # the CLI: no note
    assert club.config.owner_pin_hash == "other$hash" and len(notes(club)) == 1


def test_check_in_check_out_and_a_refusal_only_between_two_on_the_list(club: Store) -> None:
    assert settings.check_in(club, MONDAY, "Ala", origin="phone:x") is True
    assert settings.check_in(club, MONDAY, "Ala") is False  # already here
    assert settings.refuse(club, MONDAY, "Ala", "Łucja") is False  # Łucja is not here: nothing saved
    assert club.refusals(MONDAY) == set()
    settings.check_in(club, MONDAY, "Łucja")
    assert settings.refuse(club, MONDAY, "ala", "ŁUCJA") is True
    assert club.refusals(MONDAY) == {frozenset({"ala", "łucja"})}
    assert settings.refuse(club, MONDAY, "Ala", "ala") is False  # one player is no pair
    assert settings.unrefuse(club, MONDAY, "Łucja", "Ala") is True
    assert settings.unrefuse(club, MONDAY, "Łucja", "Ala") is False
    assert settings.check_out(club, MONDAY, "Ala") is True
    assert club.checked_in(MONDAY) == ["Łucja"]


def test_privacy_changes_are_kept_and_a_bad_mode_is_refused(club: Store) -> None:
    settings.set_club_privacy(club, INITIALS)
    settings.set_player_privacy(club, "Bartuś", PlayerPrivacy(hidden=True, minor=True))
    privacy = club.privacy()
    assert privacy.club_show == INITIALS and privacy.hidden("bartuś")
    with pytest.raises(ValueError):
        settings.set_club_privacy(club, "everything")
    assert club.privacy().club_show == INITIALS


def test_a_rule_change_is_previewed_first_and_saved_only_as_previewed(club: Store) -> None:
    from kiosk.errors import HistoryError
    from kiosk.events import RuleChange

    typed = RuleChange(AT.replace(second=0), guest_losses=3)
    preview = settings.change_rules(club, typed, AT, key="k")
    assert preview is not None and club.rule_changes() == []  # nothing saved yet
    assert settings.change_rules(club, typed, AT, confirmed="another form", key="k") is not None
    assert club.rule_changes() == []
    assert settings.change_rules(club, typed, AT, confirmed=preview.fingerprint, key="k") is None
    [saved] = club.rule_changes()
    assert saved.guest_losses == 3 and club.config.guest_losses == 3
    with pytest.raises(HistoryError):  # not before the last rule change
        settings.change_rules(club, RuleChange(datetime(2026, 10, 1, 19, 0), guest_losses=2), AT)
