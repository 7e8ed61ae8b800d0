"""The real ``inky`` driver classes, driven with fake SPI and GPIO: bytes, colours, timeouts."""

from __future__ import annotations

import tomllib
import warnings
from importlib.metadata import version
from pathlib import Path

import numpy
import pytest
from gpiod.line import Value
from inky.eeprom import EPDType
from inky.inky_ac073tc1a import Inky as InkyAC073TC1A
from inky.inky_e673 import Inky as InkyE673
from inky.inky_el133uf1 import Inky as InkyEL133UF1
from inky.inky_ssd1683 import Inky as InkyWHATSSD1683
from inky.inky_uc8159 import Inky as InkyUC8159
from inky_fakes import Eeprom, FakeChip, FakeGpio, FakeSpi, FakeTime, NoEeprom, Wire
from packaging.requirements import Requirement
from PIL import Image, ImageDraw
from wall_clubs import demo_data

from display.panels import InkyPanel, PanelError, PanelPinsError, PanelTimeoutError, PngPanel, native
from display.profiles import Profile, profile
from display.render import render
from display.wall import View
from kiosk.errors import ConfigError

BOARD = demo_data()


def board(panel: str) -> Image.Image:
    """The demo club's 13x13 board for a panel."""
    return render(BOARD, View("board", 13), profile(panel))


def driver(
    cls: type,
    wire: Wire,
    busy: str,
    clock: FakeTime | None = None,
    stuck_value: Value = Value.INACTIVE,
    **extra: object,
) -> object:
    """A real driver class with fakes in its SPI, GPIO and I2C seams."""
    instance = cls(spi_bus=FakeSpi(wire), i2c_bus=NoEeprom(), gpio=None, **extra)
    cs_pins = (
        getattr(instance, "cs_pin", None),
        getattr(instance, "cs_pin_0", None),
        getattr(instance, "cs_pin_1", None),
    )
    present = tuple(p for p in cs_pins if p is not None)
    instance._gpio = FakeGpio(wire, instance.dc_pin, present, instance.busy_pin, busy, stuck_value, clock)
    if cls is InkyEL133UF1:
        # The driver names its two chip-select lines only when it requests them itself.
        instance.cs0_pin, instance.cs1_pin = instance.cs_pin_0, instance.cs_pin_1
    return instance


def nibbles(data: bytes) -> list[int]:
    """Two pixels per byte, as the 7-colour and Spectra panels take them."""
    return [v for byte in data for v in (byte >> 4, byte & 0x0F)]


def test_spectra_7_3_gets_one_nibble_per_pixel_in_its_own_colour_numbers() -> None:
    wire = Wire()
    panel = InkyPanel(driver(InkyE673, wire, "toggle"), profile("impression-7.3"))
    image = board("impression-7.3")
    panel.show(image)
    payload = dict(wire.commands())[0x10]  # DTM1: the picture
    assert len(payload) == 800 * 480 // 2
    pixels = nibbles(payload)
    assert set(pixels) <= {0, 1, 2, 3, 5, 6}  # the panel's six colours; 4 is not a colour
    assert pixels.count(1) > len(pixels) // 2  # mostly white paper
    # The 40-49 column's header is red on the picture and red (3) on the wire.
    red = profile("impression-7.3").ink("red")
    x, y = next((x, y) for y in range(480) for x in range(800) if image.getpixel((x, y)) == red)
    assert pixels[y * 800 + x] == 3


def test_acep_7_3_takes_the_palette_picture_that_pillow_13_would_refuse_as_rgb() -> None:
    wire = Wire()
    panel = InkyPanel(driver(InkyAC073TC1A, wire, "edge"), profile("impression-7.3"))
    picture = board("impression-7.3")
    panel.show(picture.convert("RGB"))  # a PNG read back from disk: our palette path, not the driver's
    payload = dict(wire.commands())[0x10]
    assert len(payload) == 800 * 480 // 2
    assert set(nibbles(payload)) <= {0, 1, 2, 3, 4, 5}
    black = profile("impression-7.3").ink("black")
    x, y = next((x, y) for y in range(480) for x in range(800) if picture.getpixel((x, y)) == black)
    assert nibbles(payload)[y * 800 + x] == 0


def test_the_driver_alone_cannot_take_an_rgb_picture_on_this_pillow() -> None:
    """Why the panel converts first: inky's RGB path fails on Pillow 13 ("empty palette")."""
    instance = InkyAC073TC1A(i2c_bus=NoEeprom())
    try:
        instance.set_image(Image.new("RGB", (800, 480), "white"))
    except ValueError as error:
        assert "palette" in str(error)
    panel = InkyPanel(instance, profile("impression-7.3"))
    instance.set_image(native(Image.new("RGB", (800, 480), "white"), panel.profile, panel.kind))
    assert (instance.buf == 1).all()  # white, whatever Pillow does with RGB


def test_spectra_13_3_splits_the_picture_between_its_two_controllers() -> None:
    wire = Wire()
    panel = InkyPanel(driver(InkyEL133UF1, wire, "toggle"), profile("impression-13.3"))
    panel.show(board("impression-13.3"))
    pictures = [data for command, data in wire.commands() if command == 0x10]
    assert [len(p) for p in pictures] == [1600 * 1200 // 4, 1600 * 1200 // 4]
    assert set(nibbles(pictures[0] + pictures[1])) <= {0, 1, 2, 3, 5, 6}


def test_what_gets_a_black_plane_and_a_red_plane() -> None:
    wire = Wire()
    panel = InkyPanel(driver(InkyWHATSSD1683, wire, "edge", colour="red"), profile("what"))
    image = board("what")
    panel.show(image)
    commands = dict(wire.commands())
    black_plane, red_plane = commands[0x24], commands[0x26]
    assert len(black_plane) == len(red_plane) == 400 * 300 // 8
    ink = image.tobytes()
    black_bits = sum(bin(255 - b).count("1") for b in black_plane)  # 0 bits are black
    red_bits = sum(bin(b).count("1") for b in red_plane)
    assert black_bits == ink.count(profile("what").ink("black"))
    assert red_bits == ink.count(profile("what").ink("red")) > 0


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """The drivers sleep through BUSY waits with ``time.sleep`` and offer no clock seam: make it pass at once."""
    import inky.inky_ac073tc1a
    import inky.inky_e673
    import inky.inky_el133uf1
    import inky.inky_ssd1683
    import inky.inky_uc8159

    clock = FakeTime()
    for module in (inky.inky_e673, inky.inky_el133uf1, inky.inky_uc8159, inky.inky_ac073tc1a, inky.inky_ssd1683):
        monkeypatch.setattr(module, "time", clock)
    return clock


UNPLUGGED = [  # BUSY only pulled high by the Pi: every driver's way of giving up
    (InkyE673, "impression-7.3", {}),  # sleeps its 32 s in silence, then carried on as a success
    (InkyEL133UF1, "impression-13.3", {}),  # waits 65 s for BUSY to fall, warns
    (InkyAC073TC1A, "impression-7.3", {}),  # "Held high", sleeps 45 s
    (InkyUC8159, "impression-5.7", {"resolution": (600, 448)}),
    (InkyWHATSSD1683, "what", {"colour": "red"}),  # raises after 30 s
]


@pytest.mark.parametrize(("cls", "name", "extra"), UNPLUGGED, ids=[u[1] + "-" + u[0].__module__ for u in UNPLUGGED])
def test_an_unplugged_panel_is_a_failure_not_a_silent_success(
    fake_time: FakeTime, cls: type, name: str, extra: dict[str, object]
) -> None:
    wire = Wire()
    instance = driver(cls, wire, "stuck", fake_time, stuck_value=Value.ACTIVE, **extra)
    panel = InkyPanel(instance, profile(name), clock=fake_time.monotonic)
    started = fake_time.now
    with pytest.raises(PanelTimeoutError, match=r"BUSY|refresh"):
        panel.show(board(name))
    assert fake_time.now - started >= 30  # the driver did wait out its refresh timeout: that is the sign


@pytest.mark.parametrize(("cls", "extra"), [(InkyAC073TC1A, {}), (InkyWHATSSD1683, {"colour": "red"})])
def test_a_refresh_that_never_ends_is_a_clear_timeout(fake_time: FakeTime, cls: type, extra: dict[str, object]) -> None:
    """BUSY stuck at "busy": the wait for the end of the refresh runs out."""
    wire = Wire()
    busy = Value.ACTIVE if cls is InkyWHATSSD1683 else Value.INACTIVE  # the wHAT holds BUSY high while busy
    panel = InkyPanel(driver(cls, wire, "stuck", fake_time, stuck_value=busy, **extra), clock=fake_time.monotonic)
    with pytest.raises(PanelTimeoutError, match=r"(?i)busy|refresh"):
        panel.show(board(panel.profile.name))


@pytest.mark.parametrize(("name", "resolution"), [("impression-5.7", (600, 448)), ("impression-4", (640, 400))])
def test_the_harmless_held_high_of_the_5_7_and_4_is_a_success_sent_once(
    fake_time: FakeTime, name: str, resolution: tuple[int, int]
) -> None:
    """BUSY high while the controller settles makes the driver warn "Held high"; the refresh itself ends in time."""
    wire = Wire()
    instance = driver(InkyUC8159, wire, "held-high", fake_time, resolution=resolution)
    panel = InkyPanel(instance, profile(name), clock=fake_time.monotonic)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        panel.show(board(name))  # no PanelTimeoutError
    assert not seen  # the driver's words stay inside the panel (pytest would turn them into errors)
    assert any(w.method == "_busy_wait" and w.ran_out and w.timeout < 5 for w in panel.waits)  # it did hold high
    assert [c for c, _ in wire.commands()].count(0x12) == 1  # one refresh, not a resend


def test_the_detection_is_by_timing_not_by_the_drivers_words(fake_time: FakeTime) -> None:
    """The unplugged Spectra 7.3" says nothing at all; a warning alone does not fail a refresh that ended in time."""
    instance = driver(InkyE673, Wire(), "stuck", fake_time, stuck_value=Value.ACTIVE)
    panel = InkyPanel(instance, profile("impression-7.3"), clock=fake_time.monotonic)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(PanelTimeoutError, match="within 32 s"):
            panel.show(board("impression-7.3"))
    assert not seen


def test_the_panel_is_found_from_the_boards_eeprom() -> None:
    spectra = EPDType(800, 480, color="spectra6", pcb_variant=12, display_variant=22).encode()
    panel = InkyPanel.detect(i2c_bus=Eeprom(spectra))
    assert isinstance(panel.driver, InkyE673)
    assert panel.profile.name == "impression-7.3"
    assert panel.kind == "spectra"


def test_a_board_without_eeprom_says_how_to_configure_the_panel() -> None:
    with pytest.raises(PanelError, match="panel"):
        InkyPanel.detect(i2c_bus=NoEeprom())


def test_the_panel_type_can_come_from_the_configuration() -> None:
    panel = InkyPanel.of_type("impression-13.3", i2c_bus=NoEeprom(), spi_bus=FakeSpi(Wire()))
    assert isinstance(panel.driver, InkyEL133UF1)
    assert (panel.driver.width, panel.driver.height) == (1600, 1200)


def test_a_png_panel_replaces_the_file_whole(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "wall" / "board.png"
    panel = PngPanel(path)
    panel.show(board("png"))
    first = path.read_bytes()
    panel.show(render(BOARD, View("board", 9), profile("png")))
    assert path.read_bytes() != first
    assert [p.name for p in path.parent.iterdir()] == ["board.png"]  # no temporary left behind
    with Image.open(path) as saved:
        assert saved.size == (800, 480)


@pytest.mark.parametrize(("name", "resolution"), [("impression-5.7", (600, 448)), ("impression-4", (640, 400))])
def test_the_older_7_colour_impressions_get_one_nibble_per_pixel(name: str, resolution: tuple[int, int]) -> None:
    wire = Wire()
    panel = InkyPanel(driver(InkyUC8159, wire, "edge", resolution=resolution), profile(name))
    panel.show(board(name))
    picture = dict(wire.commands())[0x10]
    assert len(picture) == resolution[0] * resolution[1] // 2
    assert set(nibbles(picture)) <= {0, 1, 2, 3, 4, 5}


def every_ink(panel_profile: Profile) -> Image.Image:
    """The board with a band of each ink across it, so every colour number is in the buffer."""
    image = board(panel_profile.name).copy()
    band = image.width // len(panel_profile.inks)
    for index, ink in enumerate(panel_profile.inks):
        ImageDraw.Draw(image).rectangle((index * band, 0, (index + 1) * band - 1, 40), fill=panel_profile.ink(ink))
    return image


@pytest.mark.parametrize(("cls", "name"), [(InkyE673, "impression-7.3"), (InkyEL133UF1, "impression-13.3")])
def test_the_spectra_buffer_we_fill_is_the_one_the_drivers_own_set_image_makes(cls: type, name: str) -> None:
    """We skip set_image (40 MB at 13.3"); this pins its layout for the inky releases pyproject allows."""
    picture = every_ink(profile(name))
    ours_wire, theirs_wire = Wire(), Wire()
    ours = InkyPanel(driver(cls, ours_wire, "toggle"), profile(name))
    ours.show(picture)
    theirs = driver(cls, theirs_wire, "toggle")
    theirs.set_image(native(picture, profile(name), "spectra"))  # the driver's own path, undithered
    assert ours.driver.buf.shape == theirs.buf.shape == (picture.height, picture.width)
    assert numpy.array_equal(ours.driver.buf, theirs.buf)
    assert set(numpy.unique(ours.driver.buf)) == {0, 1, 2, 3, 5, 6}  # all six colours took part
    theirs.show()
    assert ours_wire.commands() == theirs_wire.commands()  # the same bytes reach the panel


def test_the_installed_inky_is_a_release_the_buffer_layout_is_pinned_for() -> None:
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    wanted = next(Requirement(d) for d in project["project"]["dependencies"] if d.startswith("inky"))
    assert wanted.specifier.contains(version("inky"))
    assert not wanted.specifier.contains("2.5.0")  # earlier 2.x cut the 13.3"'s power mid-refresh
    assert not wanted.specifier.contains("2.7.0")  # a later release's buffer is unproven until tested here


def test_a_pin_in_use_is_a_clear_error_that_names_the_overlay_and_does_not_end_the_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without dtoverlay=spi0-0cs the SPI driver holds GPIO8; gpiodevice then raises SystemExit."""
    import gpiodevice

    monkeypatch.setattr(gpiodevice, "find_chip_by_platform", lambda: FakeChip({8: "spi0 CS0"}))
    instance = InkyE673(spi_bus=FakeSpi(Wire()), i2c_bus=NoEeprom())  # its GPIO from gpiodevice, as on a Pi
    panel = InkyPanel(instance, profile("impression-7.3"))
    with pytest.raises(PanelPinsError) as raised:
        panel.show(board("impression-7.3"))
    message = str(raised.value)
    assert "dtoverlay=spi0-0cs" in message
    assert "GPIO8" in message and "spi0 CS0" in message  # what inky saw, on one line
    assert isinstance(raised.value, PanelError)  # the loop's retry, not the end of the process


def test_the_panel_names_its_own_pins_so_no_button_takes_them() -> None:
    panel = InkyPanel.of_type("impression-13.3", i2c_bus=NoEeprom(), spi_bus=FakeSpi(Wire()))
    lines = panel.lines()
    assert lines[16] == "chip select 1"  # where the other Impressions have button C
    assert {26, 16, 22, 27, 17, 10, 11} <= set(lines)
    assert 25 not in lines and 5 not in lines


def test_the_7_colour_panels_offer_orange_and_it_reaches_the_wire_as_colour_6() -> None:
    for cls, name, extra in [
        (InkyAC073TC1A, "impression-7.3", {}),
        (InkyUC8159, "impression-5.7", {"resolution": (600, 448)}),
    ]:
        wire = Wire()
        panel = InkyPanel(driver(cls, wire, "edge", **extra), profile(name))
        assert panel.profile.inks[-1] == "orange"
        assert panel.profile.inks[:6] == profile(name).inks  # the other inks keep their numbers
        picture = render(BOARD, View("board", 13), panel.profile)  # the renderer takes the seven-ink profile
        ImageDraw.Draw(picture).rectangle((0, 0, 99, 9), fill=panel.profile.ink("orange"))
        panel.show(picture)
        pixels = nibbles(dict(wire.commands())[0x10])
        width = panel.driver.width
        assert {pixels[y * width + x] for y in range(10) for x in range(100)} == {6}, cls
        assert pixels.count(6) == 1000  # orange nowhere else


def test_orange_on_a_panel_without_it_is_drawn_red_not_black() -> None:
    seven = InkyPanel(driver(InkyAC073TC1A, Wire(), "edge"), profile("impression-7.3")).profile
    picture = render(BOARD, View("board", 13), seven)  # drawn for the 7-colour 7.3"…
    ImageDraw.Draw(picture).rectangle((0, 0, 99, 9), fill=seven.ink("orange"))
    wire = Wire()
    spectra = InkyPanel(driver(InkyE673, wire, "toggle"), profile("impression-7.3"))  # …shown on a Spectra
    assert "orange" not in spectra.profile.inks
    spectra.show(picture)
    pixels = nibbles(dict(wire.commands())[0x10])
    assert pixels[0] == pixels[99] == pixels[9 * 800] == 3  # Spectra's red
    wire = Wire()
    InkyPanel(driver(InkyWHATSSD1683, wire, "edge", colour="red"), profile("what")).show(picture.resize((400, 300)))
    red_plane = dict(wire.commands())[0x26]
    assert red_plane[0] == 0xFF  # the wHAT's red too, not black


@pytest.mark.parametrize(
    ("cls", "name", "orientation"),
    [
        (InkyE673, "impression-7.3", "landscape"),
        (InkyE673, "impression-7.3", "portrait"),
        (InkyAC073TC1A, "impression-7.3", "landscape"),
        (InkyWHATSSD1683, "what", "landscape"),
    ],
)
def test_a_panel_mounted_upside_down_gets_the_picture_turned_by_180(cls: type, name: str, orientation: str) -> None:
    extra = {"colour": "red"} if cls is InkyWHATSSD1683 else {}
    picture = render(BOARD, View("board", 13), profile(name), orientation)
    upright, turned = Wire(), Wire()
    InkyPanel(driver(cls, upright, "toggle", **extra), profile(name)).show(picture)
    InkyPanel(driver(cls, turned, "toggle", **extra), profile(name), upside_down=True).show(picture)
    command = 0x24 if cls is InkyWHATSSD1683 else 0x10
    straight, flipped = dict(upright.commands())[command], dict(turned.commands())[command]
    if cls is InkyWHATSSD1683:  # one bit a pixel, most significant first
        bits = [(byte >> (7 - i)) & 1 for byte in straight for i in range(8)]
        assert [(byte >> (7 - i)) & 1 for byte in flipped for i in range(8)] == bits[::-1]
    else:
        assert nibbles(flipped) == nibbles(straight)[::-1]  # the last pixel first: turned, not mirrored
    assert straight != flipped


def test_upside_down_is_a_setting_that_reaches_the_panel() -> None:
    from display.cli import open_panel
    from display.settings import parse

    settings = parse({"panel": "impression-7.3", "upside_down": True})
    with pytest.raises(ConfigError, match=r"display\.upside_down"):
        parse({"upside_down": "yes"})
    panel = open_panel(settings, Path("."))
    assert isinstance(panel, InkyPanel) and panel.upside_down
