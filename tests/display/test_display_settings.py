"""The [display] table: defaults, the 13.3" pin of button C, quiet hours over midnight, bad values."""

from __future__ import annotations

from datetime import time

import pytest

from display.settings import DisplaySettings, parse
from kiosk.errors import ConfigError


def test_defaults_suit_an_impression_panel() -> None:
    settings = parse({})
    assert settings.panel == "auto"
    assert settings.pins == {"A": 5, "B": 6, "C": 16, "D": 24}


def test_button_c_is_on_pin_25_on_the_13_3_panel() -> None:
    assert parse({"panel": "impression-13.3"}).pins["C"] == 25
    assert parse({"panel": "impression-13.3", "pins": {"C": 26}}).pins["C"] == 26


def test_quiet_hours_run_over_midnight() -> None:
    settings = parse({"quiet_from": "22:00", "quiet_until": "06:30"})
    assert settings.quiet(time(23, 15)) and settings.quiet(time(3, 0))
    assert not settings.quiet(time(6, 30)) and not settings.quiet(time(19, 0))
    assert not parse({"quiet_from": ""}).quiet(time(3, 0))


@pytest.mark.parametrize(
    ("table", "setting"),
    [
        ({"panel": "kindle"}, "display.panel"),
        ({"orientation": "sideways"}, "display.orientation"),
        ({"pins": {"E": 7}}, "display.pins.E"),
        ({"quiet_from": "late"}, "display.quiet_from"),
        ({"debounce": -1}, "display.debounce"),
        ({"refresh": 5}, "display.refresh"),
    ],
)
def test_a_bad_value_names_its_setting(table: dict[str, object], setting: str) -> None:
    with pytest.raises(ConfigError, match=setting.replace(".", r"\.")):
        parse(table)


def test_parsed_settings_equal_the_defaults_when_nothing_is_set() -> None:
    assert parse({}) == DisplaySettings()


def test_with_auto_the_panel_found_decides_button_c() -> None:
    settings = parse({})  # panel = "auto": the 13.3" is known only once its EEPROM is read
    assert settings.pins_for("impression-13.3") == {"A": 5, "B": 6, "C": 25, "D": 24}
    assert settings.pins_for("impression-7.3") == {"A": 5, "B": 6, "C": 16, "D": 24}
    chosen = parse({"pins": {"C": 26}})  # a pin the organiser named wins on every panel
    assert chosen.pins_for("impression-13.3")["C"] == 26 and chosen.pins_for("impression-4")["C"] == 26


def test_pins_that_are_not_a_table_are_a_clear_error() -> None:
    with pytest.raises(ConfigError, match=r"display\.pins"):
        parse({"pins": 5})
