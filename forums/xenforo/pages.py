"""What a XenForo page is and who it was served to: pure functions of (html, url).

XenForo 2 names the template of every page in `<html data-template="…">` and says whether
the visitor is logged in (`data-logged-in`); XenForo 1 names it in `<div id="content"
class="…">` and marks the `<html>` with `LoggedIn`. The CSRF token is `data-csrf` (2.x) or
`_csrfToken` / the `_xfToken` fields (1.x, where it starts with the visitor's user id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import N_, LayoutChanged
from forums.html import tree_of

__all__ = [
    "FLOOD_PHRASES",
    "Form",
    "PageKind",
    "Visitor",
    "board_message",
    "classify",
    "csrf_token",
    "flood_seconds",
    "member_id",
    "parse_form",
    "tree_of",
    "version",
    "visitor",
]


class PageKind(Enum):
    LOGIN = "login form"
    TWO_STEP = "two-step verification"
    THREAD = "thread"
    CONVERSATION_LIST = "conversation list"
    CONVERSATION_VIEW = "conversation"
    CONVERSATION_ADD = "new conversation form"
    ERROR = "error message"
    NO_PERMISSION = "no permission"
    MEMBER = "member profile"
    OTHER = "other page"


_TEMPLATES = {
    "login": PageKind.LOGIN,
    "login_two_step": PageKind.TWO_STEP,
    "thread_view": PageKind.THREAD,
    "conversation_list": PageKind.CONVERSATION_LIST,
    "conversation_view": PageKind.CONVERSATION_VIEW,
    "conversation_add": PageKind.CONVERSATION_ADD,
    "error": PageKind.ERROR,
    "login_required": PageKind.NO_PERMISSION,
    "no_permission": PageKind.NO_PERMISSION,
    "member_view": PageKind.MEMBER,
}

FLOOD_PHRASES = (
    "you must wait at least",
    "before performing this action",
    "вы должны подождать",
    "необходимо подождать",
    "подождите",
)
_SECONDS = re.compile(r"(\d+)\s*(?:seconds?|секунд\w*|сек\b)", re.IGNORECASE)
_MEMBER = re.compile(r"members/(?:[^/?#]*\.)?(\d+)/?")


def _text(node: LexborNode | None) -> str:
    if node is None:
        return ""
    return " ".join(node.text(deep=True, separator=" ").split())


def version(html: str | LexborHTMLParser) -> int | None:
    """2 or 1 when the page is a XenForo page of that major version, else None."""
    root = tree_of(html).css_first("html")
    if root is None:
        return None
    ident = root.attributes.get("id") or ""
    if ident == "XF" or root.attributes.get("data-app") is not None:
        return 2
    if ident == "XenForo":
        return 1
    return None


def template(html: str | LexborHTMLParser) -> str:
    tree = tree_of(html)
    root = tree.css_first("html")
    name = (root.attributes.get("data-template") or "") if root is not None else ""
    if not name:
        content = tree.css_first("div#content")
        classes = (content.attributes.get("class") or "").split() if content else []
        name = classes[0] if classes else ""
    return name


def classify(html: str | LexborHTMLParser) -> PageKind:
    tree = tree_of(html)
    kind = _TEMPLATES.get(template(tree))
    if kind is not None:
        return kind
    # Pages without a template name (a JSON-less error, an overlay): by structure.
    if tree.css_first("form[action*='two-step']") is not None:
        return PageKind.TWO_STEP
    if tree.css_first("form[action*='login/login'] input[name='password']") is not None:
        return PageKind.LOGIN
    return PageKind.OTHER


@dataclass(frozen=True)
class Visitor:
    name: str
    id: str | None


def visitor(html: str | LexborHTMLParser) -> Visitor | None:
    """The logged-in user the page was served to, or None for a guest."""
    tree = tree_of(html)
    root = tree.css_first("html")
    if root is None:
        return None
    if version(tree) == 2:
        if (root.attributes.get("data-logged-in") or "") != "true":
            return None
        link = tree.css_first(".p-navgroup-link--user")
        name = _text(tree.css_first(".p-navgroup-link--user .p-navgroup-linkText"))
        avatar = tree.css_first(".p-navgroup-link--user [data-user-id]")
        user_id = avatar.attributes.get("data-user-id") if avatar is not None else None
        if not name and link is not None:
            name = (link.attributes.get("title") or "").strip()
        return Visitor(name, user_id or None) if name else None
    classes = (root.attributes.get("class") or "").split()
    if "LoggedIn" not in classes:
        return None
    name = _text(tree.css_first(".accountUsername"))
    if not name:
        return None
    profile = tree.css_first("#AccountMenu .menuHeader a[href*='members/']")
    user_id = member_id(profile.attributes.get("href")) if profile is not None else None
    if user_id is None:
        token = csrf_token(tree) or ""
        head = token.split(",", 1)[0]
        user_id = head if head.isdigit() and head != "0" else None
    return Visitor(name, user_id)


def member_id(href: str | None) -> str | None:
    """`/members/name.123/` → "123"."""
    match = _MEMBER.search(href or "")
    return match.group(1) if match else None


_CSRF_SCRIPT = re.compile(r"""_csrfToken\s*:\s*["']([^"']+)["']""")


def csrf_token(html: str | LexborHTMLParser) -> str | None:
    """The page's CSRF token (`_xfToken`)."""
    tree = tree_of(html)
    root = tree.css_first("html")
    token = (root.attributes.get("data-csrf") or "") if root is not None else ""
    if token:
        return token
    field = tree.css_first("input[name='_xfToken']")
    if field is not None and field.attributes.get("value"):
        return field.attributes.get("value")
    for script in tree.css("script"):
        match = _CSRF_SCRIPT.search(script.text(deep=True))
        if match:
            return match.group(1)
    return None


def board_message(html: str | LexborHTMLParser) -> str:
    """The board's message to the visitor: an error block, or the page's main notice."""
    tree = tree_of(html)
    for selector in (
        ".blockMessage--error",
        ".block-body .blockMessage",
        "div.errorOverlay",
        "div.errors",
        ".errorPanel",
        "div.blockMessage",
        ".messageContent label.OverlayCloser",
    ):
        texts = [_text(n) for n in tree.css(selector)]
        texts = [t for t in texts if t]
        if texts:
            return " ".join(texts)
    return ""


def flood_seconds(text: str) -> float | None:
    """The wait XenForo names in its flood message, when `text` is one."""
    low = text.lower()
    if not any(p in low for p in FLOOD_PHRASES):
        return None
    match = _SECONDS.search(text)
    return float(match.group(1)) if match else 0.0


@dataclass(frozen=True)
class Form:
    action: str
    fields: dict[str, str]
    """Hidden fields and checked boxes, sent back as served."""
    names: frozenset[str]
    """Every field name the form has (to tell `message_html` from `message`)."""

    def data(self, **values: str) -> dict[str, str]:
        return {**self.fields, **values}


def parse_form(html: str | LexborHTMLParser, url: str, selector: str) -> Form:
    """The first form matching `selector`, its action absolute against the page."""
    tree = tree_of(html)
    node = tree.css_first(selector)
    if node is None:
        raise LayoutChanged(url, N_("no form {selector!r} on the page").format(selector=selector))
    base = tree.css_first("base[href]")
    page = urljoin(url, base.attributes.get("href") or "") if base is not None else url
    action = urljoin(page, node.attributes.get("action") or page)
    fields: dict[str, str] = {}
    names: set[str] = set()
    for field in node.css("input, textarea, select"):
        name = field.attributes.get("name")
        if not name:
            continue
        names.add(name)
        kind = (field.attributes.get("type") or "text").lower()
        if field.tag == "input" and kind == "hidden":
            fields[name] = field.attributes.get("value") or ""
        elif kind in ("checkbox", "radio") and "checked" in field.attributes:
            fields[name] = field.attributes.get("value") or "1"
    return Form(action=action, fields=fields, names=frozenset(names))
