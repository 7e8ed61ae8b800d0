"""Reading a served form the way a phone's browser would (shared by the web and reliability tests)."""

from __future__ import annotations

import html
import re


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of a page's form: the CSRF token and the one-time token."""
    fields = {}
    for tag in re.findall(r"<input[^>]*type=\"hidden\"[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return fields
