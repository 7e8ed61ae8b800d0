"""What the command line says when it refuses: one clear line, in the club's language, and no traceback."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from kiosk.catalogue import language_of
from kiosk.config import CONFIG_NAME, load
from kiosk.errors import ConfigError


def language(folder: Path) -> str:
    """The language the commands speak: the club's (``language`` in semedori.toml), else the terminal's (LANG)."""
    try:
        if (folder / CONFIG_NAME).exists():
            return load(folder).language
    except (ConfigError, OSError):
        pass
    return language_of()


def fail(error: Exception, language: str = "en") -> NoReturn:
    """Say ``error`` on stderr (``semedori: …``) in ``language`` and exit with status 1."""
    message = getattr(error, "message", None)
    text = message(language) if callable(message) else str(error)
    click.echo(f"semedori: {text}", err=True)
    sys.exit(1)
