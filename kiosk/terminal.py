"""What the command line says when it refuses: one clear line, in the club's language, and no traceback."""

from __future__ import annotations

import sys
from typing import NoReturn

import click


def fail(error: Exception, language: str = "en") -> NoReturn:
    """Say ``error`` on stderr (``semedori: …``) in ``language`` and exit with status 1."""
    message = getattr(error, "message", None)
    text = message(language) if callable(message) else str(error)
    click.echo(f"semedori: {text}", err=True)
    sys.exit(1)
