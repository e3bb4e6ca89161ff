"""GM passwords: from an environment variable or the system keyring, never from files or the store."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from engine.i18n import L_
from forums.secret import Secret

__all__ = ["CredentialsError", "CredentialsRef", "Secret", "resolve_password"]


class CredentialsError(Exception):
    """The password could not be found; the message says where it was looked for (a `Said`
    line: English in the log, shown in the host's language by `said_of`)."""


@dataclass(frozen=True)
class CredentialsRef:
    """Where a board's GM password lives: `env:VAR` or `keyring:SERVICE` (user = the GM name)."""

    kind: str
    name: str

    @classmethod
    def parse(cls, text: str) -> CredentialsRef:
        kind, sep, name = text.partition(":")
        if not sep or kind not in ("env", "keyring") or not name.strip():
            raise CredentialsError(
                f"credentials reference {text!r}: write env:VARIABLE or keyring:SERVICE"
            )
        return cls(kind, name.strip())

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"


def resolve_password(
    ref: CredentialsRef, user: str, environ: Mapping[str, str] | None = None
) -> Secret:
    """The GM password the reference points to; a clear error if it is not there."""
    if ref.kind == "env":
        env = os.environ if environ is None else environ
        value = env.get(ref.name)
        if not value:
            raise CredentialsError(
                L_(
                    "the environment variable {name} with the GM password of {user!r} is not set",
                    name=ref.name,
                    user=user,
                )
            )
        return Secret(value)
    try:
        import keyring  # optional: desktop machines have one, headless servers usually not
    except ImportError:
        raise CredentialsError(
            L_(
                "keyring:{name} needs the 'keyring' package; on a server use env:VARIABLE",
                name=ref.name,
            )
        ) from None
    try:
        value = keyring.get_password(ref.name, user)
    except Exception as exc:  # keyring backends raise their own types
        raise CredentialsError(
            L_("the system keyring could not be read ({kind})", kind=type(exc).__name__)
        ) from None
    if not value:
        raise CredentialsError(
            L_(
                "no password for {user!r} under {name!r} in the system keyring",
                user=user,
                name=ref.name,
            )
        )
    return Secret(value)
