# inky 2.6 (no py.typed): the project reaches the drivers by name (display/panels.py) and these two functions.
