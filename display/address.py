"""The Pi's own address on the club's network, for a QR code that says ``http://{ip}:8080``."""

from __future__ import annotations

import socket

# A documentation-only address (RFC 5737): connecting a UDP socket sends nothing, it only
# makes the system pick the interface (and so the address) it would route through.
PROBE = ("192.0.2.1", 9)


def own_address() -> str | None:
    """This machine's address on its default route; None without a network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("0.") else address


def form_address(form_url: str, address: str | None = None) -> str:
    """The web form's address with ``{ip}`` filled in (the name when the Pi has no address)."""
    if "{ip}" not in form_url:
        return form_url
    found = address or own_address() or socket.gethostname() + ".local"
    return form_url.replace("{ip}", found)
