# inky 2.6 (no py.typed): the names display/ uses.
from typing import Any

def auto(
    i2c_bus: Any = None, ask_user: bool = False, verbose: bool = False
) -> Any: ...  # whichever driver the EEPROM names
