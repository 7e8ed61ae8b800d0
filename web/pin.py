"""The owner PIN, stored only as a salted scrypt hash in semedori.toml."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# scrypt's cost: about 50 ms on a Raspberry Pi 4, which makes guessing 6 digits slow.
N, R, P = 2**14, 8, 1


def valid_pin(pin: str) -> bool:
    """A PIN is 4 to 12 digits: typed on a phone keypad."""
    return pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12


def hash_pin(pin: str) -> str:
    """The stored form: ``scrypt$N$r$p$salt$hash`` (hex)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=N, r=R, p=P, dklen=32)
    return f"scrypt${N}${R}${P}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, stored: str) -> bool:
    """True when ``pin`` matches the stored hash."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        candidate = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32)
    except ValueError:
        return False
    return hmac.compare_digest(candidate.hex(), digest)
