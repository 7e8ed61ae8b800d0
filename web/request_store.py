"""The store of a request: opened per request (like the Flask tutorial's ``get_db``), or kept per thread.

Under ``semedori serve`` each waitress thread keeps its own store (STORE_PER_THREAD):
opening SQLite and closing it again costs more than recording a game, and closing the
last connection checkpoints the WAL with an extra fsync. The configuration file is read
again when the owner changed it from another thread.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from flask import Flask, current_app, g

from kiosk.config import CONFIG_NAME
from kiosk.errors import ConfigError, StoreError
from kiosk.store import Store

log = logging.getLogger(__name__)
_threads = threading.local()
# A phone waits at most this long for another writer (a replay of a long history), then
# hears "busy, try again" (503, Retry-After) instead of waiting half a minute.
BUSY_SECONDS = 10


def get_store() -> Store:
    """The store of this request, opened on first use."""
    if "store" not in g:
        if current_app.config.get("DAMAGED") is not None:  # never open (or create in) a damaged file
            raise StoreError("store-damaged")
        folder = Path(current_app.config["SEMEDORI_HOME"])
        if current_app.config.get("STORE_PER_THREAD"):
            g.store = _thread_store(folder)
        else:
            g.store = Store.open(folder, busy_seconds=BUSY_SECONDS)
    store: Store = g.store  # flask.g holds anything; this name holds only a Store
    return store


def _thread_store(folder: Path) -> Store:
    """This thread's store of the folder, with the configuration as the file says now."""
    stores: dict[Path, tuple[Store, tuple[int, int]]] = _threads.__dict__.setdefault("stores", {})
    config_file = folder / CONFIG_NAME
    stat = config_file.stat() if config_file.exists() else None
    changed = (stat.st_mtime_ns, stat.st_size) if stat else (0, 0)
    if folder not in stores:
        stores[folder] = (Store.open(folder, busy_seconds=BUSY_SECONDS), changed)
    store, seen = stores[folder]
    if seen != changed:
        stores[folder] = (store, changed)  # tried once per change of the file, logged once
        try:
            store.reload_config()
        except ConfigError as error:
            # A half-edited settings file: keep serving with the settings that worked.
            log.error("%s; still using the settings read before", error)
    return store


def close_store(_error: BaseException | None = None) -> None:
    """Close the request's store, unless the thread keeps it."""
    store = g.pop("store", None)
    if store is not None and not current_app.config.get("STORE_PER_THREAD"):
        store.close()


def init_app(app: Flask) -> None:
    """Close the store at the end of every request."""
    app.teardown_appcontext(close_store)
