"""Which `Host` headers the dashboard answers: the names it was started for, nothing else.

A page on another site cannot read the dashboard's answers, unless its name comes to point
at the dashboard's address (DNS rebinding): then the browser sends that name in `Host`, and
the page could reach the login form as if it were ours. So a request whose `Host` is no name
the dashboard was started for is answered 400 before any handler: the address it listens on
(any address of the machine when it listens on all of them), the loopback names and
addresses (`localhost`, 127.0.0.0/8, ::1), and each `--host-name` the host gives (the name a
proxy or the browser uses). An address is no name a rebinding page can use (the browser
sends the name it looked up), so with a wildcard bind every address is accepted.
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOCAL_NAMES = frozenset({"localhost"})
WILDCARDS = frozenset({"0.0.0.0", "::"})


class BadHostName(ValueError):
    """A `--host-name` that is not a host name or address (a scheme, a port, a path)."""


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def header_host(value: str) -> str:
    """The host part of a `Host` header ("name:port", "[::1]:8765"), lower-case, without a
    final dot; "" when it is no host."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        rest = value[end + 1 :] if end > 0 else ":"
        if end < 0 or (rest and not (rest.startswith(":") and rest[1:].isdecimal())):
            return ""
        return value[1:end]
    name, colon, port = value.partition(":")
    if colon and not port.isdecimal():
        return ""
    return name.removesuffix(".")


def host_name(text: str) -> str:
    """A `--host-name` as the header check keeps it; `BadHostName` for anything else."""
    name = text.strip().lower().removesuffix(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if _address(name) is not None:
        return name
    if not name.isascii():  # the browser sends an international name in its ASCII form
        with contextlib.suppress(UnicodeError):  # else refused below
            name = name.encode("idna").decode("ascii")
    labels = name.split(".")
    if not name or len(name) > 253 or not all(_label(label) for label in labels):
        raise BadHostName(
            f"--host-name {text!r} is not a host name: give the name alone, as in "
            "--host-name mafia.example.org (no https://, no port, no path)"
        )
    return name


def _label(label: str) -> bool:
    return (
        0 < len(label) <= 63
        and label.replace("-", "").replace("_", "").isascii()
        and label.replace("-", "").replace("_", "").isalnum()
        and not label.startswith("-")
        and not label.endswith("-")
    )


@dataclass(frozen=True)
class HostNames:
    """The `Host` headers a dashboard answers."""

    names: frozenset[str] = LOCAL_NAMES
    addresses: frozenset[ipaddress.IPv4Address | ipaddress.IPv6Address] = frozenset()
    any_address: bool = False

    @classmethod
    def started_for(cls, bind: str, extra: Iterable[str] = ()) -> HostNames:
        """What `forumgm dashboard --host BIND --host-name EXTRA…` answers."""
        names, addresses = set(LOCAL_NAMES), set()
        for name in (bind, *extra):
            name = host_name(name)
            found = _address(name)
            if found is None:
                names.add(name)
            else:
                addresses.add(found)
        return cls(frozenset(names), frozenset(addresses), bind.strip() in WILDCARDS)

    def allows(self, header: str | None) -> bool:
        host = header_host(header or "")
        if not host:
            return False
        if host in self.names:
            return True
        address = _address(host)
        if address is None:
            return False
        return self.any_address or address.is_loopback or address in self.addresses


class HostCheck:
    """ASGI middleware: a request for a host name the dashboard was not started for gets 400,
    before any handler or session is looked at."""

    def __init__(self, app: ASGIApp, names: HostNames) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            header = Headers(scope=scope).get("host")
            if not self.names.allows(header):
                refused = PlainTextResponse(
                    "Refused: this dashboard does not answer to that host name "
                    "(forumgm dashboard --host-name NAME adds one)",
                    status_code=400,
                )
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)
