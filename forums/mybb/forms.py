"""MyBB pages the HTTP side acts on: who is logged in, what kind of page it is, forms, boxes.

Pure functions of (html, url). MyBB pages carry no machine-readable page type, so a page
is recognised by its structure first (which form, which blocks) and by the board's words
only where the structure is the same (flood control vs. another form error).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser as HTMLParser
from selectolax.lexbor import LexborNode as Node

from forums.errors import N_, LayoutChanged
from forums.html import query_param, tree_of
from forums.html import redirect_target as shared_redirect_target
from forums.mybb.selectors import DEFAULT, MybbSelectors
from forums.pages import MemberList, PageKind
from forums.records import User

__all__ = [
    "Form",
    "PageKind",
    "classify",
    "flood_wait",
    "logged_in_user",
    "message",
    "read_form",
    "redirect_target",
]

# MyBB language strings (English and the Russian pack) for conditions that share a layout.
FLOOD_PHRASES = (
    "too quickly after posting a previous message",
    "too quickly after sending a previous message",
    "you must wait",
    "слишком быстро",
    "подождите",
)
"""`error_postflooding`: "You are trying to post a message too quickly …", and a PM's
`pmdata_pm_flooding`: "You are trying to send a message too quickly after sending a previous
message. Please wait 42 more seconds." (MyBB's `pmfloodsecs`, 60 s by default)."""
POST_KEY_PHRASES = (
    "authorization code mismatch",
    "код авторизации",
    "ошибка авторизации",
)
"""`invalid_post_code`: the `my_post_key` sent is not the session's."""

_WAIT = re.compile(r"(\d+)\s*(?:more\s+)?(?:seconds?|секунд\w*)", re.IGNORECASE)
_TWO_STEP = (
    "form.my2fa__verification, .my2fa__verification-methods, "
    "form input[name=otp], form input[name=tfa_code], form input[name=twofactor_code]"
)
"""A one-time code asked after the password: MyBB has no two-step verification of its own;
the My2FA plugin (its `my2fa__verification` form with an `otp` field) and the like add one."""
_CAPTCHA = (
    "input[name=imagestring], input[name=imagehash], .g-recaptcha, .h-captcha, "
    "input[name=question_id], #captcha_trow, .captcha"
)


def text_of(node: Node | None) -> str:
    if node is None:
        return ""
    return " ".join((node.text(deep=True, separator=" ") or "").split())


_SEO_USER = re.compile(r"(?:^|/)user-(\d+)\.html$")


def user_from_link(link: Node | None) -> User | None:
    """A profile link → User(N, its text): `member.php?action=profile&uid=N`, or
    `user-N.html` where the board has search-engine friendly URLs on."""
    if link is None:
        return None
    href = link.attributes.get("href") or ""
    uid = query_param(href, "uid")
    if uid is None:
        found = _SEO_USER.search(urlsplit(href).path)
        uid = found.group(1) if found else None
    name = text_of(link)
    return User(id=uid, name=name) if uid and uid.isdigit() and name else None


@dataclass(frozen=True)
class Form:
    """A form as served: where it posts to and the fields a browser would send back."""

    action: str
    fields: dict[str, str] = field(default_factory=dict)
    """Hidden inputs, checked boxes and radios (an empty value stays empty), text inputs,
    textareas and selected options."""

    @property
    def post_key(self) -> str | None:
        return self.fields.get("my_post_key")

    def data(self, **values: str) -> dict[str, str]:
        return {**self.fields, **values}


def read_form(html: str | HTMLParser, url: str, selector: str) -> Form:
    """The first form matching `selector` (with a message box, if several do)."""
    tree = tree_of(html)
    candidates = tree.css(selector)
    node = next((n for n in candidates if n.css_first("textarea[name=message]")), None)
    node = node or (candidates[0] if candidates else None)
    if node is None:
        raise LayoutChanged(url, N_("no form {selector!r} on the page").format(selector=selector))
    return _form_of(node, url)


def _form_of(node: Node, url: str) -> Form:
    fields: dict[str, str] = {}
    for item in node.css("input, textarea, select"):
        name = item.attributes.get("name")
        if not name:
            continue
        if item.tag == "textarea":
            fields[name] = item.text(deep=True) or ""
            continue
        if item.tag == "select":
            chosen = item.css_first("option[selected]") or item.css_first("option")
            if chosen is not None:
                fields[name] = chosen.attributes.get("value") or text_of(chosen)
            continue
        kind = (item.attributes.get("type") or "text").lower()
        value = item.attributes.get("value") or ""
        if kind in ("checkbox", "radio"):
            if "checked" in item.attributes:
                fields[name] = value if kind == "radio" else (value or "on")
        elif kind in ("hidden", "text"):
            fields[name] = value
    action = urljoin(url, node.attributes.get("action") or url)
    return Form(action=action, fields=fields)


def is_guest(html: str | HTMLParser, selectors: MybbSelectors = DEFAULT) -> bool:
    """The page has the header's welcome block and it greets a guest (no log-out link).

    Pages without the header (print view, redirects) are neither a guest's nor a member's."""
    tree = tree_of(html)
    return tree.css_first(selectors.welcome) is not None and logged_in_user(tree, selectors) is None


def login_form(html: str | HTMLParser, url: str) -> Form:
    """The login page's form (the one with a password field, not the header's popup)."""
    tree = tree_of(html)
    node = _login_form(tree)
    if node is None:
        raise LayoutChanged(url, N_("no login form (a form with a password field) on the page"))
    return _form_of(node, url)


def absolute(url: str, href: str) -> str:
    return urljoin(url, href)


_SEO_THREAD = re.compile(r"thread-(\d+)(?:-page-\d+)?(?:-post-\d+)?\.html$")


def seo_thread_id(path: str) -> str | None:
    """`/thread-12.html`, `/thread-12-page-3.html` (MyBB's search-engine friendly URLs) → "12"."""
    found = _SEO_THREAD.search(path)
    return found.group(1) if found else None


def footer_clock(html: str | HTMLParser, selectors: MybbSelectors = DEFAULT) -> str | None:
    """The footer's "Current time: 11-30-2026, 05:47 AM" without its label."""
    node = tree_of(html).css_first(selectors.current_time)
    if node is None:
        return None
    label = node.css_first("strong")
    text = text_of(node)
    if label is not None:
        text = text.removeprefix(text_of(label)).strip()
    return text or None


def logged_in_user(html: str | HTMLParser, selectors: MybbSelectors = DEFAULT) -> User | None:
    """The user the page was served to ("Welcome back, <a>Name</a>"), or None for a guest."""
    tree = tree_of(html)
    if tree.css_first(selectors.logout_link) is None:
        return None
    welcome = tree.css_first(selectors.welcome)
    if welcome is None:
        # A theme that renames the welcome line: the header panel's own profile link.
        welcome = tree.css_first("#panel")
        if welcome is None:
            return None
    return user_from_link(welcome.css_first(selectors.member_link))


def _login_form(tree: HTMLParser) -> Node | None:
    """The login page's own form (not the header's quick-login popup)."""
    for form in tree.css("form"):
        if form.css_first("input[name=password]") is not None:
            return form
    return None


def _has(text: str, phrases: tuple[str, ...]) -> bool:
    low = text.lower()
    return any(p in low for p in phrases)


def message(html: str | HTMLParser, selectors: MybbSelectors = DEFAULT) -> str:
    """The board's words to the user: a form's inline errors, else an error page's cell."""
    tree = tree_of(html)
    errors = [text_of(n) for n in tree.css(selectors.error_box)]
    if any(errors):
        return " ".join(e for e in errors if e)
    cell = error_cell(tree, selectors)
    if cell is not None:
        return text_of(cell)
    refresh = tree.css_first("td.trow1 p")
    return text_of(refresh)


def error_cell(tree: HTMLParser, selectors: MybbSelectors = DEFAULT) -> Node | None:
    """The message of an error page: a two-row box (board name, message) outside any form."""
    for cell in tree.css(selectors.message_cell):
        row = cell.parent
        table = row.parent if row is not None else None
        if table is not None and table.tag == "tbody":
            table = table.parent
        if table is None or len(table.css("tr")) != 2 or table.css_first("td.thead") is None:
            continue
        parent, inside_form = table.parent, False
        while parent is not None:
            inside_form = inside_form or parent.tag == "form"
            parent = parent.parent
        if not inside_form:
            return cell
    return None


def classify(html: str | HTMLParser, url: str, selectors: MybbSelectors = DEFAULT) -> PageKind:
    """What kind of MyBB page this is, from its structure first and its words second."""
    tree = tree_of(html)
    if tree.css_first(_TWO_STEP) is not None:
        return PageKind.TWO_STEP
    login = _login_form(tree)
    if login is not None:
        if tree.css_first(_CAPTCHA) is not None:
            return PageKind.CAPTCHA
        if tree.css_first(selectors.error_box) is not None:
            return PageKind.LOGIN_FAILED
        return PageKind.LOGIN_FORM
    # A PM view has a quick-reply form too: posts first.
    posts = tree.css(f"{selectors.posts} {selectors.post}") or [
        # A theme without `div.post`: MyBB's own post anchors (`id="post_12"`; a PM's
        # is `id="post_"`).
        n
        for n in tree.css("[id^='post_']")
        if (n.attributes.get("id") or "")[5:].isdigit() or n.attributes.get("id") == "post_"
    ]
    if posts:
        pm_view = (
            tree.css_first(
                "a.postbit_reply_pm, form input[name=pmid], "
                "a[href*='private.php?action=send'][href*='pmid=']"
            )
            is not None
        )
        return PageKind.PM_VIEW if pm_view else PageKind.TOPIC
    form = tree.css_first(selectors.reply_form)
    if form is not None and form.css_first("textarea[name=message]") is not None:
        said = " ".join(text_of(n) for n in tree.css(selectors.error_box))
        if not said:
            return PageKind.POSTING_FORM
        if _has(said, FLOOD_PHRASES):
            return PageKind.FLOOD
        return PageKind.FORM_ERROR
    if tree.css_first(selectors.pm_folder_form) is not None:
        return PageKind.PM_FOLDER
    if tree.css_first("form input[name=action][value=do_options]") is not None:
        return PageKind.PREFERENCES  # the user CP's options: the date and time format
    if (
        tree.css_first("meta[http-equiv=refresh]") is not None
        and tree.css_first("#container") is None
    ):
        return PageKind.POSTED
    cell = error_cell(tree, selectors)
    if cell is not None:
        if _has(text_of(cell), POST_KEY_PHRASES):
            return PageKind.FORM_INVALID
        if logged_in_user(tree, selectors) is None:
            return PageKind.NOT_LOGGED_IN
        return PageKind.MESSAGE
    if tree.css_first("form[action*='memberlist.php']") is not None:
        return PageKind.MEMBERLIST
    forums_listed = tree.css_first("#content a[href*='forumdisplay.php?fid=']") is not None
    if forums_listed and re.search(r"/(?:index\.php)?$", urlsplit(url).path):
        return PageKind.INDEX
    return PageKind.UNKNOWN


def capital_letters_note(name: str, said: str) -> str:
    """What the board `said` of a refused login, and what to add when MyBB cannot find
    `name`: MyBB looks users up with `LOWER(username) = <the name in lower case>`, and on
    SQLite `LOWER()` folds only A–Z, so a name with a capital letter outside A–Z (Ведущий,
    Ölaf) is never found there; `said` alone for a name without one."""
    capitals = [c for c in name if c.isupper() and not c.isascii()]
    if not capitals:
        return said
    return N_(
        "{said} (if this MyBB runs on SQLite it cannot find {name!r} at all: SQLite's LOWER() "
        "folds only A-Z, and MyBB compares LOWER(username) with the name in lower case, so "
        "a capital {capital!r} never matches; the password may well be right. Such a "
        "board needs an account whose name has no capital letters outside A-Z)"
    ).format(said=said, name=name, capital=capitals[0])


def flood_wait(said: str, default: float) -> float:
    """Seconds to wait from "Please wait 61 more seconds.", else `default`."""
    found = _WAIT.search(said)
    return float(found.group(1)) if found else default


def redirect_target(html: str | HTMLParser, url: str) -> str | None:
    """Where a "friendly redirect" page sends the browser (its meta refresh, else its link)."""
    return shared_redirect_target(tree_of(html), url, "td.trow2 a[href]")


def post_id_from(url: str) -> str | None:
    """`showthread.php?tid=1&pid=64#pid64` → "64"."""
    pid = query_param(url, "pid")
    if pid and pid.isdigit():
        return pid
    fragment = urlsplit(url).fragment
    if fragment.startswith("pid") and fragment[3:].isdigit():
        return fragment[3:]
    return None


def parse_memberlist(
    html: str | HTMLParser, url: str, selectors: MybbSelectors = DEFAULT
) -> MemberList:
    """Users (id, name) on one member-list page, and where the page is in the list."""
    tree = tree_of(html)
    if classify(tree, url, selectors) is not PageKind.MEMBERLIST:
        raise LayoutChanged(url, N_("not a member list page"))
    users: dict[str, User] = {}
    for row in tree.css("#content table.tborder tr"):
        cells = row.css("td")
        if len(cells) < 2:
            continue
        user = user_from_link(cells[1].css_first(selectors.member_link))
        if user is not None:
            users.setdefault(user.id, user)
    page, pages = pagination(tree, selectors)
    return MemberList(tuple(users.values()), page, pages)


_PAGES = re.compile(r"\((\d+)\)")


def pagination(tree: HTMLParser, selectors: MybbSelectors = DEFAULT) -> tuple[int, int]:
    """(page, pages) from MyBB's "Pages (7): … [4] …"; (1, 1) without pagination."""
    shown = tree.css_first(selectors.pagination_pages)
    if shown is None:
        return _pagination_by_links(tree)
    found = _PAGES.search(text_of(shown))
    current = text_of(tree.css_first(selectors.pagination_current))
    pages = int(found.group(1)) if found else 1
    page = int(current) if current.isdigit() else 1
    return page, max(page, pages)


_PAGE_LINK = re.compile(r"[?&](?:amp;)?page=(\d+)|-page-(\d+)\.html")


def _pagination_by_links(tree: HTMLParser) -> tuple[int, int]:
    """A theme without `div.pagination`: the numbered page links and the block that holds
    them side by side; the current page is the number of that run printed without a link.
    Only the page links' own parents are looked at (no walk of every block's subtree)."""
    blocks: dict[int, tuple[Node, set[int]]] = {}
    for a in tree.css("a[href]"):
        href = a.attributes.get("href") or ""
        label = text_of(a)
        if not label.isdigit():
            continue
        match = _PAGE_LINK.search(href)
        if match and int(label) == int(match.group(1) or match.group(2)):
            number = int(label)
        elif label == "1" and ("tid=" in href or "thread-" in href):
            number = 1  # the first page's link carries no page number
        else:
            continue
        parent = a.parent
        if parent is not None:
            blocks.setdefault(parent.mem_id, (parent, set()))[1].add(number)
    best: tuple[int, int, int] | None = None  # (size of the block's text, page, pages)
    for block, links in blocks.values():
        if len(links) < 2:
            continue
        text = text_of(block)
        numbers = [int(w) for w in re.findall(r"(?<![\d(])\d+(?![\d)])", text)]
        unlinked = [n for n in numbers if n not in links and (n - 1 in links or n + 1 in links)]
        if unlinked and (best is None or len(text) < best[0]):
            best = (len(text), unlinked[0], max(unlinked[0], *links))
    return (best[1], best[2]) if best is not None else (1, 1)
