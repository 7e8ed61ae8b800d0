"""Where the picture goes: an Inky e-ink panel (through the ``inky`` drivers) or a PNG file."""

from __future__ import annotations

import functools
import inspect
import logging
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from display.profiles import INK_RGB, Profile, profile
from kiosk.files import replace_atomically

log = logging.getLogger(__name__)

# The drivers' own colour numbers for each ink. The 7-colour (ACeP) drivers take a palette
# image's indices as they are; Spectra 6 drivers match a six-colour palette to their pure
# colours; the black-and-red drivers read white 0, black 1, red 2.
ACEP = {"black": 0, "white": 1, "green": 2, "blue": 3, "red": 4, "yellow": 5, "orange": 6}
SPECTRA = {"black": 0, "white": 1, "yellow": 2, "red": 3, "blue": 4, "green": 5}
SPECTRA_RGB = [(0, 0, 0), (255, 255, 255), (255, 255, 0), (255, 0, 0), (0, 0, 255), (0, 255, 0)]
TWO_INK = {"white": 0, "black": 1, "red": 2}
# An ink a panel lacks is drawn in its nearest ink (orange is only on the 7-colour panels).
NEAREST = {"orange": "red"}
FAMILIES = {
    "inky.inky_ac073tc1a": "acep",
    "inky.inky_uc8159": "acep",
    "inky.inky_e673": "spectra",
    "inky.inky_el133uf1": "spectra",
    "inky.inky_e640": "spectra",
    "inky.inky": "two-ink",
    "inky.what": "two-ink",
    "inky.inky_ssd1683": "two-ink",
}
PROFILE_BY_RESOLUTION = {
    (800, 480): "impression-7.3",
    (1600, 1200): "impression-13.3",
    (600, 448): "impression-5.7",
    (640, 400): "impression-4",
    (400, 300): "what",
}
# Drivers by the name used in the configuration's ``driver`` setting.
DRIVERS = {
    "e673": ("inky.inky_e673", "Inky"),
    "ac073tc1a": ("inky.inky_ac073tc1a", "Inky"),
    "el133uf1": ("inky.inky_el133uf1", "Inky"),
    "uc8159": ("inky.inky_uc8159", "Inky"),
    "what": ("inky.what", "InkyWHAT"),
    "ssd1683": ("inky.inky_ssd1683", "Inky"),
}
# The driver a panel profile gets when the configuration names no driver.
DEFAULT_DRIVER = {
    "impression-7.3": "e673",
    "impression-13.3": "el133uf1",
    "impression-5.7": "uc8159",
    "impression-4": "uc8159",
    "what": "ssd1683",
}


class PanelError(RuntimeError):
    """The panel could not show the picture (wiring, driver, SPI); the loop retries."""


class PanelTimeoutError(PanelError, TimeoutError):
    """The panel's BUSY line never cleared: the refresh did not finish."""


class NoPanelError(PanelError):
    """No Inky panel answered (its EEPROM could not be read): the wall waits for one, looking again now and then."""


class PanelPinsError(PanelError):
    """A GPIO line the panel needs is claimed already (gpiodevice ends the process for it; we do not)."""


# What to do when the panel's pins are taken, said in every such message. The usual cause is
# the Pi's SPI driver holding chip select GPIO8 because config.txt lacks the overlay.
PINS_FIX = (
    "add the line dtoverlay=spi0-0cs at the end of /boot/firmware/config.txt (under [all]) and reboot; "
    "no other program or button may use the panel's pins"
)

# A driver's wait this long or longer is the wait for the refresh itself (20–45 s); the
# shorter ones (0.2–1 s) only let the controller settle after a command.
REFRESH_WAIT = 5.0
# A wait that lasted this share of its timeout ran out: BUSY never said "done".
RAN_OUT = 0.98
# The drivers' methods that wait on BUSY (the 13.3" has a second one for the refresh).
WAITS = ("_busy_wait", "_refresh_wait")


@dataclass
class Wait:
    """One of the driver's waits on BUSY during a show: how long it may take, how long it took."""

    method: str
    timeout: float
    took: float = 0.0
    raised: bool = False

    @property
    def ran_out(self) -> bool:
        """True when the driver gave up waiting (or raised), whatever it printed."""
        return self.raised or self.took >= self.timeout * RAN_OUT


class Panel(Protocol):
    """Anything that shows a picture: an e-ink panel or a file."""

    @property
    def profile(self) -> Profile:
        """The panel's size and inks (read-only: an awaited panel learns it once the panel answers)."""
        ...

    def show(self, image: Image.Image) -> None:
        """Show the picture (blocks until the panel has finished)."""
        ...


class PngPanel:
    """Writes the picture to a PNG file, atomically: for development and the web preview."""

    def __init__(self, path: Path, panel_profile: Profile | None = None) -> None:
        self.path = Path(path)
        self.profile = panel_profile or profile("png")

    def show(self, image: Image.Image) -> None:
        """Write the file whole or not at all (a reader never sees half a picture)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # Not synced, as before: a picture for development and the preview, drawn again on the next refresh.
            replace_atomically(self.path, lambda into: image.save(into, format="PNG", optimize=False), sync=False)
        except OSError as error:
            raise PanelError(f"cannot write {self.path}: {error}") from error


def family(driver: Any) -> str:
    """How a driver takes a palette image: "acep", "spectra" or "two-ink"."""
    return FAMILIES.get(type(driver).__module__, "spectra")


def to_palette(image: Image.Image, panel_profile: Profile) -> Image.Image:
    """A picture in the profile's palette; other pictures are matched colour by colour, never dithered."""
    if image.mode == "P":
        # A palette picture's colours are its palette indices (Pillow types a pixel of any mode).
        used = [index for _, index in image.getcolors(256) or [] if isinstance(index, int)]
        same_inks = (image.getpalette() or [])[: 3 * len(panel_profile.inks)] == panel_profile.palette()
        if same_inks and used and max(used) < len(panel_profile.inks):
            return image
        # A picture drawn in known inks for another panel (orange for a 7-colour one, say):
        # each ink by name, a missing one as its nearest ink, rather than by a colour distance.
        known = {rgb: ink for ink, rgb in INK_RGB.items()}
        flat = image.getpalette() or []
        entries = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
        if used and all(index < len(entries) and entries[index] in known for index in used):
            table = bytes(_ink_index(panel_profile, known[rgb]) if rgb in known else 0 for rgb in entries)
            table += bytes(256 - len(table))
            result = Image.frombytes("P", image.size, image.tobytes().translate(table))
            result.putpalette(panel_profile.palette())
            return result
    palette = Image.new("P", (1, 1))
    palette.putpalette(panel_profile.palette() + [0, 0, 0] * (256 - len(panel_profile.inks)))
    return image.convert("RGB").quantize(len(panel_profile.inks), palette=palette, dither=Image.Dither.NONE)


def native(image: Image.Image, panel_profile: Profile, kind: str) -> Image.Image:
    """The picture with the driver's own colour numbers, so the driver copies it as it is."""
    image = to_palette(image, panel_profile)
    codes = {"acep": ACEP, "spectra": SPECTRA, "two-ink": TWO_INK}[kind]
    table = bytes(_code(codes, ink) for ink in panel_profile.inks) + bytes(256 - len(panel_profile.inks))
    result = Image.frombytes("P", image.size, image.tobytes().translate(table))
    if kind == "spectra":
        # Exactly six colours: the driver then maps them without dithering.
        result.putpalette([c for rgb in SPECTRA_RGB for c in rgb])
    elif kind == "acep":
        result.putpalette([c for ink in ACEP for c in INK_RGB[ink]])  # seven colours, orange last
    else:
        result.putpalette([c for ink in TWO_INK for c in INK_RGB[ink]])
    return result


def _code(codes: dict[str, int], ink: str) -> int:
    """A driver's number for an ink, or for the nearest ink it has, or black."""
    return codes.get(ink, codes.get(NEAREST.get(ink, "black"), codes["black"]))


def _ink_index(panel_profile: Profile, ink: str) -> int:
    """The palette index of an ink on a panel, or of its nearest ink there."""
    return panel_profile.ink(ink if ink in panel_profile.inks else NEAREST.get(ink, "black"))


def with_orange(panel_profile: Profile) -> Profile:
    """The profile with the 7-colour panels' orange added last (the other inks keep their numbers)."""
    if "orange" in panel_profile.inks:
        return panel_profile
    return replace(panel_profile, inks=(*panel_profile.inks, "orange"))


# A Spectra 6 driver's own numbers for its six colours (4 is not a colour on these panels).
SPECTRA_CODES = (0, 1, 2, 3, 5, 6)


class InkyPanel:
    """An Inky panel through its ``inky`` driver; BUSY timeouts become ``PanelTimeoutError``."""

    def __init__(
        self,
        driver: Any,
        panel_profile: Profile | None = None,
        upside_down: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.driver = driver
        self.kind = family(driver)
        chosen = panel_profile or profile(
            PROFILE_BY_RESOLUTION.get((driver.width, driver.height), "png"), driver.width, driver.height
        )
        # The 7-colour panels (ACeP) have a seventh ink, orange; the renderer may draw with it.
        self.profile = with_orange(chosen) if self.kind == "acep" else chosen
        self.upside_down = upside_down  # mounted turned by 180° (e.g. with the buttons at the top)
        self.clock = clock
        self.waits: list[Wait] = []  # the driver's waits on BUSY during the last show
        for method in WAITS:
            if callable(getattr(driver, method, None)):
                setattr(driver, method, self._timed(method, getattr(driver, method)))

    def lines(self) -> dict[int, str]:
        """The GPIO pins (BCM) the panel's driver uses, and what for: no button may take them."""
        roles = {
            "cs_pin": "chip select",
            "cs_pin_0": "chip select",
            "cs_pin_1": "chip select 1",
            "dc_pin": "data/command",
            "reset_pin": "reset",
            "busy_pin": "busy",
        }
        found: dict[int, str] = {}
        for attribute, role in roles.items():
            pin = getattr(self.driver, attribute, None)
            if isinstance(pin, int) and not isinstance(pin, bool):
                found[pin] = role
        found.update({10: "SPI MOSI", 11: "SPI clock"})
        return found

    def _timed(self, method: str, wait: Callable[..., Any]) -> Callable[..., Any]:
        """The driver's wait, timed: whether BUSY cleared is judged by the clock, not by the driver's words.

        The drivers give up differently: the Spectra 7.3" sleeps its whole timeout in silence when
        BUSY stays high (an unplugged panel), the 7-colour ones warn "Held high" or "Timed out",
        the two-ink ones raise. All of them take their full timeout when the panel never answers.
        """
        signature = inspect.signature(wait)

        @functools.wraps(wait)
        def timed(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            record = Wait(method, float(bound.arguments.get("timeout", 0.0)))
            self.waits.append(record)
            start = self.clock()
            try:
                return wait(*args, **kwargs)
            except RuntimeError:
                record.raised = True
                raise
            finally:
                record.took = self.clock() - start

        return timed

    @classmethod
    def detect(cls, i2c_bus: Any = None, upside_down: bool = False) -> InkyPanel:
        """The panel named by the board's EEPROM (``inky.auto``)."""
        from inky.auto import auto

        try:
            return cls(auto(i2c_bus=i2c_bus), upside_down=upside_down)
        except (RuntimeError, OSError) as error:
            raise NoPanelError(f"no Inky panel found ({error}); set [display] panel and driver") from error

    @classmethod
    def of_type(cls, panel: str, driver: str | None = None, upside_down: bool = False, **seams: Any) -> InkyPanel:
        """A panel by profile name (and driver name); ``seams`` go to the driver (spi_bus, gpio, ...)."""
        import importlib

        name = driver or DEFAULT_DRIVER.get(panel)
        if name not in DRIVERS:
            raise PanelError(f"no driver {name!r}; choose one of {', '.join(DRIVERS)}")
        module, class_name = DRIVERS[name]
        driver_class = getattr(importlib.import_module(module), class_name)
        panel_profile = profile(panel)
        if name == "what":
            return cls(driver_class("red"), panel_profile, upside_down)
        arguments: dict[str, Any] = {"resolution": (panel_profile.width, panel_profile.height), **seams}
        if name == "ssd1683":
            arguments["colour"] = "red"
        return cls(driver_class(**arguments), panel_profile, upside_down)

    def show(self, image: Image.Image) -> None:
        """Send the picture to the panel and wait for the refresh to finish."""
        picture = to_palette(image, self.profile)
        if picture.size != (self.driver.width, self.driver.height):
            picture = picture.rotate(90, expand=True)  # a portrait picture on a landscape panel
        if self.upside_down:
            picture = picture.transpose(Image.Transpose.ROTATE_180)  # exact: palette indices, no resampling
        self.waits = []
        started = self.clock()
        with warnings.catch_warnings(record=True) as caught:
            # The drivers warn about BUSY and carry on; what counts is how long the waits took (below).
            warnings.simplefilter("always")
            try:
                self._load(picture)
                self._send()
            except RuntimeError as error:
                if any(wait.raised for wait in self.waits):
                    raise PanelTimeoutError(f"the panel did not finish its refresh: {error}") from error
                raise PanelError(f"the panel driver failed: {error}") from error
            except OSError as error:
                raise PanelError(f"the panel cannot be reached: {error}") from error
            except SystemExit as error:
                # gpiodevice "exits" when a line is claimed ("Woah there, some pins we need are in use!
                # … Chip Select: (line 8, GPIO8) currently claimed by spi0 CS0"); the wall must live on.
                found = " ".join(str(error.code).split())
                raise PanelPinsError(f"the panel's GPIO pins are in use ({found}); {PINS_FIX}") from None
        for warning in caught:
            log.debug("the panel driver says: %s", warning.message)
        refresh = [wait for wait in self.waits if wait.timeout >= REFRESH_WAIT]
        stuck = [wait for wait in refresh if wait.ran_out]
        if stuck:
            raise PanelTimeoutError(
                f"the panel's BUSY line did not clear within {stuck[0].timeout:.0f} s, so the refresh did not "
                "happen; check that the panel sits on all 40 pins"
            )
        # A short settle wait that ran out ("Busy Wait: Held high" on the 5.7" and 4") is harmless:
        # the refresh itself reported its end in time.
        short = [wait for wait in self.waits if wait.timeout < REFRESH_WAIT and wait.ran_out]
        if short:
            log.debug("%d short BUSY waits ran out (harmless: the refresh finished)", len(short))
        # In the journal: how long a refresh takes on this panel, and how close to the driver's limit.
        log.info(
            "the panel refreshed in %.1f s (its refresh wait: %s)",
            self.clock() - started,
            ", ".join(f"{wait.took:.1f} of {wait.timeout:.0f} s" for wait in refresh) or "none",
        )

    def _send(self) -> None:
        """Send the driver's buffer: the 13.3"'s through ``send_halves``, every other panel by its own ``show``."""
        if type(self.driver).__module__ == "inky.inky_el133uf1" and callable(getattr(self.driver, "_update", None)):
            send_halves(self.driver)
        else:
            self.driver.show()

    def _load(self, picture: Image.Image) -> None:
        """Put the picture in the driver's buffer."""
        if self.kind != "spectra":
            # A palette picture in the driver's own numbers: copied as it is, never dithered.
            self.driver.set_image(native(picture, self.profile, self.kind))
            return
        import numpy

        # The Spectra drivers' set_image goes through RGB and an int64 copy of the picture
        # (about 40 MB at 1600×1200, too much beside the web app on a Pi Zero 2 W). Our
        # picture's palette indices map straight to the panel's colour numbers, so they fill
        # the driver's buffer (the one its set_pixel writes) directly.
        # The layout (rows × columns, one uint8 colour number a pixel) is pinned against the
        # driver's own set_image for the inky releases pyproject allows (tests/display/test_panels.py);
        # a driver whose buffer looks different gets its own set_image.
        buffer = getattr(self.driver, "buf", None)
        if not isinstance(buffer, numpy.ndarray) or buffer.shape != (picture.height, picture.width):
            self.driver.set_image(native(picture, self.profile, self.kind))
            return
        codes = numpy.array([SPECTRA_CODES[_code(SPECTRA, ink)] for ink in self.profile.inks], dtype=numpy.uint8)
        self.driver.buf = codes[numpy.asarray(picture, dtype=numpy.uint8)]


def send_halves(driver: Any) -> None:
    """The 13.3" Spectra driver's ``show``, its halves packed as bytes rather than lists of ints.

    The driver's own ``show`` hands SPI two Python lists of 480,000 ints (7.7 MB at once, the peak of the
    display process); the same bytes as two ``bytes`` objects are 1 MB. The wire is the same
    byte for byte (tests/display/test_panels.py compares it with the driver's own show, for the inky
    releases pyproject allows).
    """
    import numpy

    region = driver.buf
    if driver.v_flip:
        region = numpy.fliplr(region)
    if driver.h_flip:
        region = numpy.flipud(region)
    if driver.rotation:
        region = numpy.rot90(region, driver.rotation // 90)
    region = numpy.rot90(region, -1)
    middle = region.shape[1] // 2  # each controller drives half the panel
    halves = []
    for half in (region[:, :middle], region[:, middle:]):
        flat = half.flatten()
        halves.append((((flat[::2] << 4) & 0xF0) | (flat[1::2] & 0x0F)).astype("uint8").tobytes())
        del flat
    driver._update(*halves)


# How often a wall without its panel looks for it again: an EEPROM read over I2C, a few milliseconds.
LOOK_AGAIN = 60.0


class AwaitedPanel:
    """``panel = "auto"``: the panel the board's EEPROM names, looked for until one answers.

    A panel missing, badly seated or with its EEPROM unread must not stop the wall's service
    (systemd would restart it five times and give up, and the installer would fail): the wall
    stays up, says so once (journal, ``systemctl status``, ``wall-status.json`` for the owner
    page) and looks again before every refresh it tries (``look()``), which the loop tries every
    ``LOOK_AGAIN`` seconds; a panel found later just works. Until then it draws for ``fallback``.
    """

    def __init__(
        self,
        find: Callable[[], InkyPanel],
        folder: Path | None = None,
        fallback: Profile | None = None,
        on_found: Callable[[InkyPanel], None] | None = None,
        utc_now: Callable[[], Any] | None = None,
    ) -> None:
        self.find = find
        self.folder = folder
        self.fallback = fallback or profile("impression-7.3")
        self.on_found = on_found
        self.utc_now = utc_now
        self.found: InkyPanel | None = None
        self.missing = False  # said so already (journal, status) since the last panel

    @property
    def profile(self) -> Profile:
        """The found panel's profile, or the fallback's while none answers."""
        return self.found.profile if self.found is not None else self.fallback

    def look(self) -> InkyPanel | None:
        """Look for the panel once (if not found yet); said once when it is missing and when it comes."""
        from kiosk import wallstatus

        if self.found is not None:
            return self.found
        try:
            self.found = self.find()
        except NoPanelError as error:
            if not self.missing:
                self.missing = True
                log.warning("%s (%s); looking again every %.0f s", wallstatus.NO_PANEL, error, LOOK_AGAIN)
                from display import sdnotify

                sdnotify.status(wallstatus.NO_PANEL)
                if self.folder is not None:
                    self._write_missing(str(error))
            return None
        chosen = self.found.profile
        log.info("the panel was found: %s, %dx%d", chosen.name, chosen.width, chosen.height)
        if self.missing:
            from display import sdnotify

            sdnotify.status("the panel was found")
        if self.folder is not None:  # also an old file of a run that stopped without a panel
            wallstatus.panel_found(self.folder)
        self.missing = False
        if self.on_found is not None:
            self.on_found(self.found)
        return self.found

    def _write_missing(self, detail: str) -> None:
        from datetime import UTC, datetime

        from kiosk import wallstatus

        assert self.folder is not None
        since = self.utc_now() if self.utc_now is not None else datetime.now(UTC)
        try:
            wallstatus.panel_missing(self.folder, since, detail)
        except OSError as error:  # a full card: the journal still has it
            log.warning("cannot write %s: %s", wallstatus.NAME, error)

    def lines(self) -> dict[int, str]:
        """The found panel's GPIO lines (none while no panel answers)."""
        return self.found.lines() if self.found is not None else {}

    def show(self, image: Image.Image) -> None:
        """Show the picture on the found panel; ``NoPanelError`` while none answers.

        The loop calls ``look()`` before it draws, so the picture fits the panel found.
        """
        if self.found is None:
            raise NoPanelError("no Inky panel answers")
        self.found.show(image)
