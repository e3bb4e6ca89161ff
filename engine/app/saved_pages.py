"""`forumgm board check --save-pages DIR`: the pages the check read, made fit to send.

A host whose board forumgm cannot read sends the developers these pages as a bug report.
Each page the check's HTTP client receives is written as it was served, less what must not
leave the host's machine: the GM's name (the page's "logged in as", the PM folders) and
every session id and form token (`sid=`, `PHPSESSID`, `form_token`, `my_post_key`,
`_xfToken`, `data-csrf`, …). `index.txt` lists each file with its (redacted) URL, status and
content type. Nothing is sent anywhere.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote, quote_plus

import httpx

__all__ = ["PageRecorder", "redact_page"]

_SECRET_NAMES = (
    r"sid|s|PHPSESSID|phpbb\d*_[a-z0-9]+_sid|form_token|creation_time|my_post_key|"
    r"_xfToken|_xfRequestUri|csrf|csrf_token|token|securitytoken|hash|logout_hash|post_key|"
    r"sesc|session|session_id|auth|authenticity_token"
)
_QUERY_SECRET = re.compile(rf"(?i)([?&;](?:amp;)?(?:{_SECRET_NAMES})=)[^&#\"'<>\s]+")
_INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
_INPUT_NAME = re.compile(rf"""\bname\s*=\s*["']?(?:{_SECRET_NAMES})["'\s>]""", re.IGNORECASE)
_VALUE = re.compile(r"""(\bvalue\s*=\s*)(["'])[^"']*\2""", re.IGNORECASE)
_ATTRIBUTE_SECRET = re.compile(
    r"""(\bdata-(?:csrf|token|post-key|sid)\s*=\s*)(["'])[^"']*\2""", re.IGNORECASE
)
_SCRIPT_SECRET = re.compile(
    r"""((?:my_post_key|_csrfToken|csrf|form_token|securitytoken|sid|SECURITYTOKEN)"""
    r"""["']?\s*[:=]\s*)(["'])[^"']*\2""",
    re.IGNORECASE,
)
_HEX_SESSION = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")
"""phpBB's and SMF's session ids are 32 hex digits wherever they stand."""
REDACTED = "REDACTED"
GM = "GM-NAME"


def redact_page(text: str, names: Iterable[str], secrets: Iterable[str] = ()) -> str:
    """`text` with each of `names` (as written, HTML-escaped or URL-encoded) replaced by
    "GM-NAME", and every session id and form token by "REDACTED"."""
    for secret in sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    text = _QUERY_SECRET.sub(lambda m: m.group(1) + REDACTED, text)
    text = _ATTRIBUTE_SECRET.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}{m.group(2)}", text)
    text = _SCRIPT_SECRET.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}{m.group(2)}", text)

    def hidden(match: re.Match[str]) -> str:
        tag = match.group(0)
        if not _INPUT_NAME.search(tag):
            return tag
        return _VALUE.sub(lambda v: f"{v.group(1)}{v.group(2)}{REDACTED}{v.group(2)}", tag)

    text = _INPUT.sub(hidden, text)
    text = _HEX_SESSION.sub(REDACTED, text)
    for name in sorted({n for n in names if n.strip()}, key=len, reverse=True):
        for form in {name, html.escape(name), quote(name), quote_plus(name)}:
            text = re.sub(re.escape(form), GM, text, flags=re.IGNORECASE)
    return text


class PageRecorder:
    """Records every response of an httpx client into a folder, redacted."""

    def __init__(self, folder: Path, names: Iterable[str]) -> None:
        self.folder = folder
        self.names = tuple(names)
        self.count = 0
        self._index: list[str] = []

    def attach(self, client: httpx.AsyncClient) -> None:
        hooks = client.event_hooks
        hooks.setdefault("response", []).append(self._on_response)
        client.event_hooks = hooks

    async def _on_response(self, response: httpx.Response) -> None:
        await response.aread()
        cookies = [c for c in response.headers.get_list("set-cookie")]
        secrets = [c.split("=", 1)[1].split(";", 1)[0] for c in cookies if "=" in c]
        self.save(str(response.url), response.status_code, response.headers, response.text, secrets)

    def save(
        self,
        url: str,
        status: int,
        headers: httpx.Headers | dict[str, str],
        text: str,
        secrets: Iterable[str] = (),
    ) -> Path:
        self.count += 1
        self.folder.mkdir(parents=True, exist_ok=True)
        kind = headers.get("content-type", "") or ""
        ext = "json" if "json" in kind else "xml" if "xml" in kind else "html"
        slug = re.sub(r"[^A-Za-z0-9]+", "-", url.split("://", 1)[-1].split("?", 1)[0]).strip("-")
        path = self.folder / f"{self.count:02d}-{slug[-60:] or 'page'}.{ext}"
        secrets = tuple(secrets)
        path.write_text(redact_page(text, self.names, secrets), encoding="utf-8")
        where = redact_page(url, self.names, secrets)
        self._index.append(f"{path.name}\t{status}\t{kind}\t{where}")
        (self.folder / "index.txt").write_text("\n".join(self._index) + "\n", encoding="utf-8")
        return path


def http_clients(board: object, depth: int = 3) -> list[httpx.AsyncClient]:
    """The httpx clients a board holds (its own, its HTTP helper's), however it names them."""
    found: list[httpx.AsyncClient] = []
    seen: set[int] = set()

    def walk(obj: object, level: int) -> None:
        if id(obj) in seen or level > depth:
            return
        seen.add(id(obj))
        if isinstance(obj, httpx.AsyncClient):
            found.append(obj)
            return
        for value in getattr(obj, "__dict__", {}).values():
            if isinstance(value, (str, bytes, int, float, bool)) or value is None:
                continue
            walk(value, level + 1)

    walk(board, 0)
    return found
