"""The panel's four buttons through gpiozero: each press becomes a request to the wall."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from gpiozero import Button
from gpiozero.exc import BadPinFactory

BOUNCE = 0.05  # seconds; the Impression's tactile buttons bounce for a few milliseconds

log = logging.getLogger(__name__)


class Buttons:
    """Buttons A–D on their pins; ``on_press`` gets the button's letter.

    A button whose pin cannot be claimed (the panel's own line, another program, a wrong
    number) is left out with a logged error that names the setting to change; the others
    work. ``reserved`` are the panel's pins (pin → what for), never given to a button.
    """

    def __init__(
        self,
        pins: dict[str, int],
        on_press: Callable[[str], None],
        pin_factory: Any = None,
        reserved: dict[int, str] | None = None,
    ) -> None:
        self.buttons: dict[str, Button] = {}
        self.missing: dict[str, str] = {}  # letter → why it does not work
        for letter, pin in sorted(pins.items()):
            if reserved and pin in reserved:
                self._leave_out(letter, pin, f"GPIO{pin} is the panel's {reserved[pin]} line")
                continue
            try:
                button = Button(pin, pull_up=True, bounce_time=BOUNCE, pin_factory=pin_factory)
            except BadPinFactory:
                raise  # no GPIO at all (a desktop): the caller runs the wall without buttons
            except Exception as error:  # GPIOPinInUse, lgpio's "GPIO busy", a pin this Pi lacks
                self._leave_out(letter, pin, f"GPIO{pin} cannot be used ({error})")
                continue
            button.when_pressed = lambda letter=letter: on_press(letter)
            self.buttons[letter] = button

    def _leave_out(self, letter: str, pin: int, why: str) -> None:
        self.missing[letter] = why
        log.error(
            "button %s does not work: %s; the other buttons and the wall carry on. Give it a free pin "
            "under [display] in semedori.toml (pins = { %s = N }), then restart the wall",
            letter,
            why,
            letter,
        )

    def close(self) -> None:
        """Release the pins."""
        for button in self.buttons.values():
            button.close()
