"""One gettext catalogue per language for every word a person reads: the web, the wall, the core's errors, the CLI.

The catalogue is ``kiosk/translations/<language>/LC_MESSAGES/messages.po`` (compiled to
``messages.mo``); a message's id is its English text. The web reads it through Flask-Babel;
the core, the wall and the command line through the standard library's ``gettext``, so the
core needs no Flask. How to add a message: docs/design.md, "Words". For the extraction (babel.cfg) a message is
marked by ``_``/``_l`` (the web), ``N_`` (a table kept for later), ``translate(language, "...")``
or ``translate_plural(language, "...", "...", n)``.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).parent / "translations"
LANGUAGES = ("en", "pl")


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue where it is kept for later (a table of messages); it stays English."""
    return message


@lru_cache(maxsize=len(LANGUAGES) + 1)
def _translations(language: str) -> gettext.NullTranslations:
    # English is the ids themselves: no catalogue to read, and none for an unknown language either.
    return gettext.translation("messages", FOLDER, [language], fallback=True)


def translate(language: str, message: str, /, **values: object) -> str:
    """``message`` in ``language`` (English when it has no translation), its ``{name}`` fields filled in when given."""
    text = _translations(language).gettext(message)
    return text.format(**values) if values else text


def translate_plural(language: str, singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of a message for the number ``n`` in ``language`` (Polish has three), its fields filled in."""
    return _translations(language).ngettext(singular, plural, n).format(n=n, **values)


def language_of(environ: Mapping[str, str] = os.environ) -> str:
    """The language a terminal asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) if ours, else English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else "en"
    return "en"
