"""vBulletin 5 (and 6, its continuation) as the HTTP side sees it: its pages' `pageData`, the
login form's answer, and the JSON of its AJAX calls. Pure functions.

Facts, from vBulletin's own source as public repositories hold it (5.0 of
`ducvu1987vn/vBulletin`, 5.3.4 of `without1481/Forum`, 6.0.6 of `Codefollows/vb666`; see
docs/research/vbulletin5.md), and the thread page of a real 5.5.2 board
(fixtures/unsupported/vbulletin/vBulletin5.html):

- every page sets `var pageData = {…}` with `"userid"` ("0" for a guest), `"username"` and
  `"securitytoken"` ("guest" for a guest);
- `POST /auth/ajax-login` (`username`, `password`; 5.3 and later) answers `{"success":
  true, "newtoken": …}` and sets the session's cookies, or `{"errors": [[phrase, …]]}`
  (`badlogin_strikes…`, `strikes`, `badmfa`); the older `POST /auth/login` (5.0–5.2, gone
  in 6) answers the `login_redirect` page (`html#idLoginRedirectHtml`), or the `login_form`
  page again (`form#idLoginForm`) with each error in a `div.error` ("You have entered an
  invalid username or password…", "…You have used up your failed login quota!…");
- an API call (`POST /ajax/api/{controller}/{method}`, its arguments by name, with the
  session's `securitytoken`) answers JSON: the method's return, or `{"errors": [[phrase id,
  argument…], …]}` — flood control is `["postfloodcheck", 30, 12]` (a PM's
  `["pmfloodcheck", …]`): 30 seconds between posts, 12 more to wait;
- a reply (`POST /create-content/text`) answers `{"nodeId": N}` (with `"moderateNode": true`
  when it waits for a moderator) or the API's errors;
- a security token the board refuses (stale, or a session gone) is an exception page, HTTP
  500, not JSON;
- text goes in as the WYSIWYG editor sends it (HTML turned into BBCode by the board):
  what the GM wrote is escaped (`&`, `<`, `>`) and sent with `nl2br=1`, so that its line
  breaks stay and nothing in it is read as markup.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from forums.errors import N_
from forums.html import tree_of
from forums.pages import PageKind
from forums.structure import text_of

__all__ = [
    "ApiError",
    "answer_user",
    "api_errors",
    "classify",
    "editor_text",
    "flood_wait",
    "login_errors",
    "login_refusal",
    "page_data",
    "unescape",
]

_PAGE_DATA = re.compile(r"\bpageData\s*=\s*\{")
_PAIR = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"\s*:\s*"((?:[^"\\]|\\.)*)"')

FLOOD_PHRASES = frozenset({"postfloodcheck", "pmfloodcheck"})
TOKEN_PHRASES = frozenset(
    {
        "security_token_missing",
        "security_token_guest",
        "security_token_timeout",
        "security_token_invalid",
    }
)
LOGGED_OUT_PHRASES = frozenset(
    {"not_logged_no_permission", "session_timed_out_login", "logged_out_while_editing_post"}
)
"""What the board says to a guest (a session gone) where a member may act."""
GUEST_REFUSALS = LOGGED_OUT_PHRASES | {"no_create_permissions", "no_permission"}
"""Refusals that mean a lost session when the answer names user 0 (vBulletin's own script
asks for a login on these)."""
MISSING_PHRASES = frozenset({"invalid_node_id", "invalid_page", "no_permission"})


def login_refusal(phrases: Sequence[str]) -> str:
    """What a login's refusal says, by its first phrase (`vB_Api_User::login2`:
    `badlogin_strikes_logintype…` with the strikes so far, `strikes` once the name is locked
    out), with the phrases the board gave; only those when the first is not known."""
    given = ", ".join(phrases)
    first = phrases[0] if phrases else ""
    if first.startswith("badlogin"):
        return N_("wrong user name or password ({phrases})").format(phrases=given)
    if first == "strikes":
        return N_(
            "too many failed logins: vBulletin locks the name out for 15 minutes ({phrases})"
        ).format(phrases=given)
    return given


def _object_at(text: str, start: int) -> str:
    """The text of the JavaScript object whose `{` is at `start`, up to its `}` (strings
    skipped, so a brace in a value does not end it; one line or many)."""
    depth, quoted, escaped = 0, False, False
    for i in range(start, len(text)):
        c = text[i]
        if quoted:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                quoted = False
            continue
        if c == '"':
            quoted = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    return text[start + 1 :]


def page_data(html: str) -> dict[str, str]:
    """The page's `pageData` strings ({} on a page without it)."""
    found = _PAGE_DATA.search(html)
    if found is None:
        return {}
    data: dict[str, str] = {}
    for key, raw in _PAIR.findall(_object_at(html, found.end() - 1)):
        try:
            data[key] = json.loads(f'"{raw}"')
        except ValueError:
            data[key] = raw
    return data


def unescape(text: str) -> str:
    """A name or title as vBulletin stores it (HTML-escaped) → as shown."""
    return htmllib.unescape(text)


def login_errors(html: str) -> list[str]:
    """The errors the login form was served again with."""
    tree = tree_of(html)
    return [text_of(node) for node in tree.css("div.error") if text_of(node)]


def classify(html: str) -> PageKind:
    """What kind of vBulletin 5 page this is: the login form (with errors: a failed login),
    the login's redirect page, a thread page, another page of the board, or unknown."""
    tree = tree_of(html)
    if tree.css_first("form#idLoginForm") is not None:
        return PageKind.LOGIN_FAILED if login_errors(html) else PageKind.LOGIN_FORM
    if tree.css_first("html#idLoginRedirectHtml") is not None:
        return PageKind.POSTED
    if tree.css_first("li.b-post[data-node-id]") is not None:
        return PageKind.TOPIC
    if page_data(html):
        return PageKind.INDEX
    return PageKind.UNKNOWN


def editor_text(bbcode: str) -> str:
    """`bbcode` as the editor would send what was typed: `&`, `<` and `>` escaped (sent with
    `nl2br=1` for the line breaks)."""
    return bbcode.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class ApiError:
    """One error of an API answer: the phrase id and its arguments."""

    phrase: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.phrase} ({', '.join(self.args)})" if self.args else self.phrase


def api_errors(answer: Any) -> list[ApiError]:
    """The errors of a JSON answer (`errors`: lists of a phrase id and its arguments, or
    bare ids; `error`: one id, a list of them, or a phrase's text); [] when none."""
    if not isinstance(answer, Mapping):
        return []
    raw = answer.get("errors") or answer.get("error") or []
    if isinstance(raw, str):
        raw = [raw]
    found: list[ApiError] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, list) and item:
            phrase, *args = item
            if phrase == "exception_trace":
                continue
            found.append(ApiError(str(phrase), tuple(str(a) for a in args)))
        elif isinstance(item, str | int):
            found.append(ApiError(str(item)))
    return found


def flood_wait(errors: list[ApiError]) -> float | None:
    """Seconds flood control asks to wait (its second argument, else its first); None when
    the answer is not flood control."""
    for error in errors:
        if error.phrase in FLOOD_PHRASES:
            for arg in reversed(error.args):
                if arg.isdigit():
                    return float(arg)
            return 0.0
    return None


def answer_user(answer: Any) -> str | None:
    """The user id an API error answer names (the API adds the session's), if any."""
    if isinstance(answer, Mapping) and "userid" in answer:
        return str(answer["userid"])
    return None
