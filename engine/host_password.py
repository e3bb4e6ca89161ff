"""Host passwords for the dashboard: hashed with scrypt (stdlib), checked in constant time.

The stored form is ``scrypt$N$r$p$salt$hash`` (hex), so the cost can be raised later and old
hashes still check. The password itself is never stored, logged or put in an error.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from engine.i18n import ngettext

COST = (2**15, 8, 1)
"""scrypt's N, r, p: about 32 MiB and a tenth of a second per check on this kind of machine."""
MIN_LENGTH = 8


class PasswordError(ValueError):
    """A password the host may not set (too short, empty)."""


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32, maxmem=2 * 128 * n * r
    )


def hash_password(password: str, cost: tuple[int, int, int] = COST) -> str:
    if len(password) < MIN_LENGTH:
        raise PasswordError(
            ngettext(
                "a host password needs at least {n} character",
                "a host password needs at least {n} characters",
                MIN_LENGTH,
            ).format(n=MIN_LENGTH)
        )
    return hash_secret(password, cost)


def hash_secret(password: str, cost: tuple[int, int, int] = COST) -> str:
    """The stored form of any password (no length rule): also what a refused GM login
    keeps, to tell a changed password from the same one (`check_password`)."""
    n, r, p = cost
    salt = os.urandom(16)
    return f"scrypt${n}${r}${p}${salt.hex()}${_scrypt(password, salt, n, r, p).hex()}"


def check_password(password: str, stored: str) -> bool:
    """Whether `password` is the one `stored` was made from (False for a malformed hash)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        actual = _scrypt(password, bytes.fromhex(salt), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(actual, bytes.fromhex(digest))
