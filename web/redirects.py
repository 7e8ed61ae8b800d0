"""Where a ``next`` parameter may send a phone: only a plain path on this kiosk."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit


def same_site(target: str | None, default: str, prefix: str = "/") -> str:
    """``target`` when it is a path here starting with ``prefix``, else ``default``.

    Browsers drop tabs and newlines from an address (``/<TAB>/evil.com`` is ``//evil.com``,
    another site) and read a backslash as a slash, and a newline in a header is an error:
    any whitespace, control character or backslash makes the target unusable.
    """
    if not target or "\\" in target:
        return default
    if any(ch.isspace() or unicodedata.category(ch).startswith(("C", "Z")) for ch in target):
        return default
    if not target.startswith(prefix) or target.startswith("//"):
        return default
    parts = urlsplit(target)
    return default if parts.scheme or parts.netloc else target
