"""`semedori wall-check`: each step the organiser can fix, with inky's real EEPROM reader on a fake I2C bus."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inky.eeprom import EPDType
from inky_fakes import Eeprom, NoEeprom

from display import wallcheck

SPECTRA_7_3 = EPDType(800, 480, color="spectra6", pcb_variant=12, display_variant=22).encode()


@pytest.fixture
def pi(tmp_path: Path) -> tuple[Path, tuple[Path]]:
    """A /dev with the panel's nodes and a config.txt with the installer's lines."""
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("i2c-1", "spidev0.0", "gpiochip0"):
        (dev / name).touch()
    config = tmp_path / "config.txt"
    config.write_text("dtparam=audio=on\n[all]\ndtparam=spi=on\ndtparam=i2c_arm=on\ndtoverlay=spi0-0cs\n")
    return dev, (config,)


def test_a_seated_panel_is_named_by_its_eeprom(
    pi: tuple[Path, tuple[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    dev, config = pi
    assert wallcheck.run(Eeprom(SPECTRA_7_3), dev, config)
    out = capsys.readouterr().out
    assert "FIX" not in out
    assert "Spectra 6 7.3 800x480" in out.replace('"', "") or "800x480" in out
    assert "within a minute" in out


def test_an_unanswering_eeprom_says_to_reseat_the_panel(
    pi: tuple[Path, tuple[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    dev, config = pi
    assert not wallcheck.run(NoEeprom(), dev, config)
    out = capsys.readouterr().out
    assert "FIX  the panel's EEPROM does not answer: power off, seat the panel on all 40 pins" in out
    assert 'panel = "impression-7.3"' in out


def test_spi_off_and_config_txt_without_the_lines_say_what_to_do(
    pi: tuple[Path, tuple[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    dev, (config,) = pi
    (dev / "spidev0.0").unlink()
    config.write_text("dtparam=audio=on\n#dtparam=spi=on\n")
    assert not wallcheck.run(NoEeprom(), dev, (config,))
    out = capsys.readouterr().out
    assert "spidev0.0 is missing: SPI (the picture) is off; run the installer, then restart the Pi" in out
    assert "lacks dtparam=spi=on, dtparam=i2c_arm=on, dtoverlay=spi0-0cs" in out


def test_the_command_exits_1_without_a_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    real = wallcheck.eeprom
    monkeypatch.setattr(wallcheck, "eeprom", lambda i2c_bus=None: real(NoEeprom()))  # this machine has no I2C
    result = CliRunner().invoke(wallcheck.wall_check_command)
    assert result.exit_code == 1
    assert "No panel answers yet" in result.output
    assert "Traceback" not in result.output
