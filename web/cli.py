"""``semedori serve`` and ``semedori set-pin``: click commands that kiosk.cli registers."""

from __future__ import annotations

import logging
import sqlite3
import sys

import click

from kiosk import terminal
from kiosk.backup import Damage, newest_good_backup, quick_check
from kiosk.catalogue import N_, translate
from kiosk.config import data_folder
from kiosk.errors import SemedoriError
from kiosk.services.settings import set_owner_pin
from kiosk.store import Store
from kiosk.terminal import fail
from web import lockout, sessions
from web.pin import hash_pin, valid_pin


@click.command(name="serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (0.0.0.0: the club Wi-Fi).")
@click.option(
    "--port", "ports", type=click.IntRange(1, 65535), multiple=True, help="Port to listen on; repeat for more [8080]."
)
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64), help="Requests served at once.")
@click.option(
    "--writes-per-minute",
    default=60,
    show_default=True,
    type=click.IntRange(0, 100_000),
    help="Games and other writes one phone or API client may send a minute, after a burst of 20 (0: no limit).",
)
def serve_command(host: str, ports: tuple[int, ...], threads: int, writes_per_minute: int) -> None:
    """Serve the phone web app with waitress, on the data folder ($SEMEDORI_HOME)."""
    from web import create_app
    from web.serving import serve

    folder = data_folder()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    # A damaged database (a dying SD card) is served as one clear "restore a backup" page
    # that writes nothing, rather than a crash at start or 500s on some pages.
    damage = quick_check(folder)
    pin_missing = False
    if damage is None:
        try:
            with Store.open(folder) as store:  # create or migrate now: a broken folder should stop the start
                pin_missing = not store.config.owner_pin_hash
        except (SemedoriError, OSError) as error:
            fail(error, terminal.language(folder))
        except sqlite3.DatabaseError as error:
            damage = Damage(str(error), newest_good_backup(folder))
    if damage is not None:
        backup = f"semedori restore {damage.backup}" if damage.backup else "no good backup found in DATA/backups"
        logging.getLogger("semedori").error(
            "the database in %s is damaged (%s); nothing will be saved. Stop the kiosk and restore a backup: %s",
            folder,
            damage.detail,
            backup,
        )
    language = terminal.language(folder)
    if pin_missing:
        no_pin = translate(
            language, "no owner PIN yet: the owner pages accept nothing until it is set with `semedori set-pin`"
        )
        click.echo(f"semedori: {no_pin}", err=True)
    listen = " ".join(f"{'[' + host + ']' if ':' in host else host}:{port}" for port in ports or (8080,))
    click.echo(translate(language, "serving {folder} on {listen}", folder=folder, listen=listen))
    limits = {"WRITE_LIMITS": writes_per_minute > 0, "WRITES_PER_MINUTE": writes_per_minute}
    damaged = {"DAMAGED": {"backup": damage.backup.name if damage.backup else None}} if damage else {}
    app = create_app({"SEMEDORI_HOME": str(folder), "STORE_PER_THREAD": True, **limits, **damaged})
    serve(app, listen=listen, threads=threads)


@click.command(name="unlock")
def unlock_command() -> None:
    """Lift the owner PIN lockout: at the kiosk itself, every phone may try the PIN again."""
    lockout.forgive(data_folder())
    said = N_("the owner PIN lockout is lifted: every phone may try the PIN again")
    click.echo(translate(terminal.language(data_folder()), said))


@click.command(name="set-pin")
@click.option(
    "--pin",
    prompt="Owner PIN (4 to 12 digits)",
    hide_input=True,
    confirmation_prompt=True,
    help="The new PIN; asked for (twice, hidden) when not given.",
)
def set_pin_command(pin: str) -> None:
    """Set or change the owner PIN (stored only as a salted hash)."""
    language = terminal.language(data_folder())
    if not valid_pin(pin):
        refused = translate(language, "the PIN must be 4 to 12 digits")
        click.echo(f"semedori: {refused}", err=True)
        sys.exit(1)
    try:
        with Store.open(data_folder()) as store:
            set_owner_pin(store, hash_pin(pin))
        lockout.forgive(data_folder())  # the owner is at the kiosk itself: no phone stays locked out
        sessions.end_all(data_folder())  # a new PIN ends every owner session (a phone left logged in, a copied cookie)
    except (SemedoriError, OSError) as error:
        fail(error, language)
    click.echo(translate(language, "owner PIN set"))
