"""The panel's four buttons through gpiozero: each press becomes a request to the wall."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpiozero import Button

BOUNCE = 0.05  # seconds; the Impression's tactile buttons bounce for a few milliseconds


class Buttons:
    """Buttons A–D on their pins; ``on_press`` gets the button's letter."""

    def __init__(self, pins: dict[str, int], on_press: Callable[[str], None], pin_factory: Any = None) -> None:
        self.buttons: dict[str, Button] = {}
        for letter, pin in sorted(pins.items()):
            button = Button(pin, pull_up=True, bounce_time=BOUNCE, pin_factory=pin_factory)
            button.when_pressed = lambda letter=letter: on_press(letter)
            self.buttons[letter] = button

    def close(self) -> None:
        """Release the pins."""
        for button in self.buttons.values():
            button.close()
