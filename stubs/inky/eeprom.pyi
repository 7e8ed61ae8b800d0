# inky 2.6 (no py.typed): the names display/ uses.
from typing import Any

class EPDType:
    width: int
    height: int
    color: int
    pcb_variant: int
    display_variant: int
    def get_variant(self) -> str | None: ...
    def get_color(self) -> str | None: ...

def read_eeprom(i2c_bus: Any = None) -> EPDType | None: ...
