# Flask-Babel 4 (no py.typed): the names web/ uses.
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any

from babel import Locale
from flask import Flask

# A str wherever one is read: speaklater's LazyString forwards every str method and operator to the
# text translated at that moment. As a str subclass here, WTForms' labels (typed str) take it, as
# Flask-Babel's docs intend (lazy_gettext for labels made at import time).
class LazyString(str):
    def __html__(self) -> str: ...

class Babel:
    def __init__(
        self,
        app: Flask | None = None,
        date_formats: dict[str, str] | None = None,
        configure_jinja: bool = True,
        *args: Any,
        locale_selector: Callable[[], str | None] | None = None,
        timezone_selector: Callable[[], str | None] | None = None,
        default_locale: str = "en",
        default_domain: str = "messages",
        default_translation_directories: str = "translations",
        default_timezone: str = "UTC",
        **kwargs: Any,
    ) -> None: ...

def get_locale() -> Locale | None: ...
def force_locale(locale: str) -> AbstractContextManager[None]: ...  # web/event_choices.py: a certificate's language
def gettext(string: str, **variables: Any) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str: ...
def lazy_gettext(string: str, **variables: Any) -> LazyString: ...
def format_timedelta(
    datetime_or_timedelta: datetime | timedelta,
    granularity: str = "second",
    add_direction: bool = False,
    threshold: float = 0.85,
) -> str: ...
