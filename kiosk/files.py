"""Files written whole or not at all: a power cut or a crash leaves the old file or the new one.

An SD card losing power is the kiosk's common fault, and a half-written semedori.toml, key
or PIN file would stop it. Every file the kiosk rewrites goes through ``write_atomically``
(or ``replace_atomically`` when something else, SQLite or Pillow, writes the new file):
the new content goes into a temporary file beside the old one, is synced to the card when
asked, and is then renamed over it in one step.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def write_atomically(
    path: Path, data: bytes | str, *, sync: bool = True, mode: int = 0o666, temporary: Path | None = None
) -> None:
    """Replace ``path`` with ``data`` (text as UTF-8).

    ``sync``: on the card before the rename (a file that must survive a power cut); without
    it, a file that is only a cache of the moment (the clock's state). ``mode``: the new
    file's permissions before the umask (0o600: a secret only the kiosk reads).
    ``temporary``: the name to write first (else one of its own, so two writers never share it).
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data

    def write(into: Path) -> None:
        descriptor = os.open(into, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(descriptor, "wb") as file:
            file.write(payload)
            if sync:
                file.flush()
                os.fsync(file.fileno())

    replace_atomically(path, write, sync=False, temporary=temporary)


def replace_atomically(
    path: Path, make: Callable[[Path], None], *, sync: bool = True, temporary: Path | None = None
) -> None:
    """Replace ``path`` with the file ``make(temporary)`` writes; the temporary is removed if anything fails.

    ``sync``: the new file is synced to the card before the rename.
    """
    path = Path(path)
    # os.urandom, not secrets: semedori.toml is written by kiosk.config, which every command imports,
    # and secrets would bring hashlib and random into each one's start-up.
    into = temporary or path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        make(into)
        if sync:
            with open(into, "rb+") as handle:
                os.fsync(handle.fileno())
        os.replace(into, path)
    except BaseException:
        into.unlink(missing_ok=True)
        raise
