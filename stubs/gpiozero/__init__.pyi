# gpiozero 2 (no py.typed): the names display/ uses.
from collections.abc import Callable
from typing import Any

class Device:
    pin_factory: Any
    def close(self) -> None: ...

class Button(Device):
    when_pressed: Callable[[], object] | None
    def __init__(
        self,
        pin: int | str | None = None,
        *,
        pull_up: bool | None = True,
        active_state: bool | None = None,
        bounce_time: float | None = None,
        hold_time: float = 1,
        hold_repeat: bool = False,
        pin_factory: Any = None,
    ) -> None: ...
