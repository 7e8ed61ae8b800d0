"""The QR code's address: a fixed one as configured, or the Pi's own address filled in."""

from __future__ import annotations

import ipaddress

from display.address import form_address, own_address


def test_a_configured_address_is_kept() -> None:
    assert form_address("http://semedori.local") == "http://semedori.local"


def test_ip_is_filled_in_with_the_given_or_own_address() -> None:
    assert form_address("http://{ip}:8080/", "10.0.0.7") == "http://10.0.0.7:8080/"
    filled = form_address("http://{ip}:8080/")
    assert "{ip}" not in filled
    found = own_address()
    if found is not None:  # a machine with a network: a real IPv4 address, no packet sent
        ipaddress.IPv4Address(found)
        assert found in filled
