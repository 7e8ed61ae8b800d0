"""The club's configuration: defaults in code, one TOML file (docs/design.md)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from kiosk.catalogue import translate
from kiosk.config import CONFIG_NAME, Config, data_folder, load, save
from kiosk.errors import CONFIG_MESSAGES, ConfigError, HistoryError
from kiosk.handicap import SizeRules
from kiosk.scale import quarters


def test_the_club_defaults_of_the_rules() -> None:
    config = Config()
    assert {size: r.points_per_strength for size, r in config.size_rules.items()} == {9: 2, 13: 5, 19: 13}
    assert {size: r.clear_margin for size, r in config.size_rules.items()} == {9: 15, 13: 30, 19: 60}
    assert {size: r.training_moves for size, r in config.size_rules.items()} == {9: 4, 13: 6, 19: 8}
    assert config.guest_losses == 2
    assert config.top == quarters(56)
    assert config.timezone == "Europe/Warsaw"
    assert config.language == "en"


def test_a_missing_file_means_all_defaults(tmp_path: Path) -> None:
    assert load(tmp_path) == Config()


def test_the_toml_file_round_trips(tmp_path: Path) -> None:
    config = Config(
        club_name="Klub Go Semedori",
        timezone="Europe/London",
        language="pl",
        guest_losses=3,
        top=quarters(50.5),
        size_rules={**Config().size_rules, 9: SizeRules(9, Fraction(5, 2), Fraction(31, 2), 5)},
        owner_pin_hash="scrypt$abc",
        extra={"display": {"panel": "inky-impression-7"}},
    )
    save(tmp_path, config)
    assert load(tmp_path) == config
    assert not list(tmp_path.glob("*.tmp"))


def test_sections_of_the_other_processes_are_kept(tmp_path: Path) -> None:
    (tmp_path / CONFIG_NAME).write_text('[club]\nname = "Go"\n\n[web]\nport = 8080\n', encoding="utf-8")
    config = load(tmp_path)
    assert config.club_name == "Go" and config.extra == {"web": {"port": 8080}}
    save(tmp_path, config.with_changes(language="pl"))
    assert load(tmp_path).extra == {"web": {"port": 8080}}


def test_a_file_may_change_one_handicap_setting(tmp_path: Path) -> None:
    (tmp_path / CONFIG_NAME).write_text("[handicap.13]\nclear_margin = 25\n", encoding="utf-8")
    rules = load(tmp_path).size_rules
    assert rules[13] == SizeRules(13, Fraction(5), Fraction(25), 6)
    assert rules[9] == Config().size_rules[9]


@pytest.mark.parametrize(
    ("toml", "setting"),
    [
        ('[club]\ntimezone = "Mars/Olympus"\n', "timezone"),
        ('[club]\nlanguage = "de"\n', "language"),
        ("[club]\nguest_losses = 4\n", "guest_losses"),
        ('[club]\nguest_losses = "two"\n', "guest_losses"),
        ("[club]\nguest_losses = 2.5\n", "guest_losses"),
        ("[club]\ntop = 29.5\n", "top"),
        ("[club]\ntop = 30\n", "top"),
        ('[club]\nname = ""\n', "club_name"),
        ("[handicap.13]\npoints_per_strength = 0\n", "handicap.13"),
        ('[handicap.13]\nclear_margin = "lots"\n', "handicap.13.clear_margin"),
        ('[handicap.19]\ntraining_moves = "eight"\n', "handicap.19.training_moves"),
        ("[handicap.19]\ntraining_moves = 7.5\n", "handicap.19.training_moves"),
        ("[handicap.15]\nclear_margin = 20\n", "handicap.15"),
        ('club = "Semedori"\n', "club"),
        ("handicap = 5\n", "handicap"),
        ('owner = "1234"\n', "owner"),
        ("[club]\nsame_game_minutes = -1\n", "same_game_minutes"),
        ("[club]\nsame_game_minutes = 1441\n", "same_game_minutes"),
        ('[club]\nsame_game_minutes = "half an hour"\n', "same_game_minutes"),
    ],
)
def test_a_bad_setting_is_an_error_naming_it(tmp_path: Path, toml: str, setting: str) -> None:
    (tmp_path / CONFIG_NAME).write_text(toml, encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load(tmp_path)
    assert error.value.setting.endswith(setting)
    assert setting in str(error.value)


def test_a_file_that_is_not_toml_is_an_error_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / CONFIG_NAME).write_text("[club\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=CONFIG_NAME):
        load(tmp_path)


def test_changes_are_validated() -> None:
    with pytest.raises(ConfigError) as error:
        Config().with_changes(guest_losses=1)
    assert error.value.setting == "guest_losses"
    assert Config().with_changes(guest_losses=3).guest_losses == 3


def test_a_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_the_data_folder_comes_from_semedori_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SEMEDORI_HOME", str(tmp_path))
    assert data_folder() == tmp_path
    monkeypatch.delenv("SEMEDORI_HOME")
    assert data_folder().name == "semedori"


ROOT = Path(__file__).resolve().parent.parent.parent


def raised_codes() -> set[str]:
    """Every code a ``ConfigError(setting, code, ...)`` in the code base is raised with."""
    found = set()
    for package in ("kiosk", "display", "web"):
        for source in (ROOT / package).rglob("*.py"):
            found |= set(re.findall(r'ConfigError\(\s*[^,()]+(?:\([^()]*\))?,\s*"([\w-]+)"', source.read_text()))
    return found


def test_every_config_error_code_has_its_message_in_english_and_polish() -> None:
    raised = raised_codes()
    assert {"unknown-zone", "bad-guest-losses", "history-refuses", "bad-pin"} <= raised  # the scan sees them
    assert raised == set(CONFIG_MESSAGES), raised ^ set(CONFIG_MESSAGES)  # none without a message, none unused
    for code, english in CONFIG_MESSAGES.items():
        fields = {name: "x" for name in re.findall(r"\{(\w+)", english)}
        polish = ConfigError("guest_losses", code, **fields).message("pl")
        assert polish.startswith("konfiguracja guest_losses: "), code
        assert translate("pl", english) != english, f"{code}: no Polish for {english!r}"
        assert ConfigError("guest_losses", code, **fields).message("en").startswith("configuration guest_losses: ")


def test_a_config_error_speaks_the_language_asked_for() -> None:
    with pytest.raises(ConfigError) as error:
        Config().with_changes(timezone="Europe/Warszawa")
    assert error.value.message("pl") == (
        "konfiguracja timezone: nieznana strefa czasowa 'Europe/Warszawa'; wpisz nazwę taką jak Europe/Warsaw"
    )
    assert str(error.value) == (
        "configuration timezone: unknown time zone 'Europe/Warszawa'; use a name like Europe/Warsaw"
    )
    with pytest.raises(ConfigError) as error:
        Config().with_changes(guest_losses=5)
    assert error.value.message("pl") == "konfiguracja guest_losses: musi wynosić 2 albo 3"
    # Why the history refuses the settings is said in the same language.
    refused = ConfigError(CONFIG_NAME, "history-refuses", detail=HistoryError("unknown-player", nick="Ala"))
    assert (
        refused.message("pl") == "konfiguracja semedori.toml: nie da się z nią odtworzyć historii: nieznany gracz 'Ala'"
    )
    assert refused.message("en").endswith("the history cannot be replayed with it: unknown player 'Ala'")


def test_the_same_game_window_is_a_club_setting_of_30_minutes_kept_in_the_file(tmp_path: Path) -> None:
    assert Config().same_game_minutes == 30
    save(tmp_path, Config().with_changes(same_game_minutes=0))
    assert load(tmp_path).same_game_minutes == 0
    assert "same_game_minutes = 0" in (tmp_path / CONFIG_NAME).read_text(encoding="utf-8")
