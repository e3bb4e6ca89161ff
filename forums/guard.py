"""Keeping the GM's credentials where they belong; every adapter uses these rules.

- Requests go only to the configured board: its scheme, host and port (`BoardOrigin`).
  A form action or a redirect that points anywhere else (another host, https → http) is
  `ForeignOrigin` (a `BoardUnavailable`) and nothing is sent there: `BoardOrigin.pin`
  installs the check on the adapter's `httpx.AsyncClient`, where it also sees every
  redirect httpx follows.
- `http://` boards only when the host says so (`allow_insecure_http`), with a warning.
- Session ids (phpBB and MyBB `sid=`, XenForo's `_xfToken`) never reach a log line:
  `redact` for the adapter's own lines, a filter on httpx's logger for its request lines.
- Database files that hold sessions or keys are created readable by their owner only.
- A password or API key an adapter holds is a `Secret`: no repr, log line or traceback's
  locals shows it.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

import httpx

from forums.errors import N_, BoardUnavailable

log = logging.getLogger("forums.guard")

_DEFAULT_PORTS = {"http": 80, "https": 443}
_SESSION_IN_TEXT = re.compile(r"(?i)((?:\bsid|_xfToken|my_post_key|logoutkey)=)[^&#\s\"'<>]{6,}")


class ForeignOrigin(BoardUnavailable):
    """A request would have gone somewhere other than the configured board; it was not sent."""


class InsecureBoardUrl(ValueError):
    """An `http://` board without `allow_insecure_http`: the password would travel unencrypted."""


def redact(text: str) -> str:
    """A URL or log line with session ids and form tokens masked."""
    return _SESSION_IN_TEXT.sub(r"\1…", text)


def insecure_url(url: str, allowed: bool) -> str | None:
    """Why an `http://` board URL is refused (None: not http, or the host allowed it)."""
    if not url.lower().startswith("http://") or allowed:
        return None
    return N_(
        "{url}: an http:// board would get the GM's password unencrypted; use https:// or, "
        "if the board has no HTTPS, set allow_insecure_http = true in [board] "
        "(--allow-insecure-http on the command line)"
    ).format(url=url)


@dataclass(frozen=True)
class BoardOrigin:
    """The scheme, host and port of the configured board URL."""

    scheme: str
    host: str
    port: int

    @classmethod
    def parse(cls, base_url: str, *, allow_insecure_http: bool = False) -> BoardOrigin:
        url = httpx.URL(base_url)
        if url.scheme not in _DEFAULT_PORTS or not url.host:
            raise ValueError(f"{base_url!r}: a board URL starts with https:// and names a host")
        if url.scheme == "http":
            refused = insecure_url(base_url, allow_insecure_http)
            if refused:
                raise InsecureBoardUrl(refused)
            log.warning("%s is plain http: the GM's password and session travel unencrypted", url)
        return cls(url.scheme, url.host, url.port or _DEFAULT_PORTS[url.scheme])

    def __str__(self) -> str:
        default = _DEFAULT_PORTS[self.scheme] == self.port
        return f"{self.scheme}://{self.host}" + ("" if default else f":{self.port}")

    def owns(self, url: str | httpx.URL) -> bool:
        target = httpx.URL(url) if isinstance(url, str) else url
        port = target.port or _DEFAULT_PORTS.get(target.scheme)
        return (target.scheme, target.host, port) == (self.scheme, self.host, self.port)

    def check(self, url: str | httpx.URL, what: str = "a request") -> None:
        """Raise `ForeignOrigin` unless `url` is on the board; `what` names it for the host."""
        if not self.owns(url):
            raise ForeignOrigin(
                N_(
                    "{what} points to {url}, not to the configured board {board}: nothing was "
                    "sent there (forumgm sends the GM's password and session only to the board "
                    "in [board] url; change it there if the board has moved)"
                ).format(what=what, url=redact(str(url)), board=self)
            )

    def pin(self, client: httpx.AsyncClient) -> httpx.AsyncClient:
        """Make `client` refuse every request (redirects included) off the board."""

        async def on_request(request: httpx.Request) -> None:
            self.check(request.url, f"{request.method} {redact(str(request.url))}")

        client.event_hooks = {
            **client.event_hooks,
            "request": [*client.event_hooks.get("request", []), on_request],
        }
        redact_http_logs()
        return client


class _Redacting(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


_FILTER = _Redacting()


def redact_http_logs() -> None:
    """Mask session ids in the request lines httpx logs (its INFO "HTTP Request: …"); idempotent."""
    logger = logging.getLogger("httpx")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)


def create_private(path: str | Path) -> None:
    """Create `path` (if it does not exist) readable and writable by its owner only."""
    target = Path(path)
    if target.exists():
        mode = target.stat().st_mode & 0o777
        if mode & 0o077:
            log.warning("%s is readable by others (mode %o): chmod 600 it", target, mode)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o600))


def private_sqlite(database: str | None) -> None:
    """Create a SQLite database file (SQLAlchemy's `url.database`) private to its owner."""
    if database and database != ":memory:" and not database.startswith("file:"):
        create_private(database)
