"""One store per request, like the Flask tutorial's ``get_db``."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, g

from kiosk.store import Store


def get_store() -> Store:
    """The store of this request, opened on first use."""
    if "store" not in g:
        g.store = Store.open(Path(current_app.config["SEMEDORI_HOME"]))
    return g.store


def close_store(_error: BaseException | None = None) -> None:
    """Close the request's store, if it was opened."""
    store = g.pop("store", None)
    if store is not None:
        store.close()


def init_app(app: Flask) -> None:
    """Close the store at the end of every request."""
    app.teardown_appcontext(close_store)
