"""vBulletin pages the HTTP side acts on: which version, who is logged in, what kind of page,
the security token, forms and the board's messages. Pure functions of (html, url).

Facts, each from a real page or from vBulletin 3.8's own templates and phrases (see
fixtures/vbulletin/SOURCES.md):

- every vB3/vB4 page sets `var SECURITYTOKEN = "…"` ("guest" for a guest) and, logged in,
  links `login.php?do=logout&logouthash=…`; vB3 greets "Welcome, <a href=member.php?u=N>name</a>",
  vB4 sets `var LOGGEDIN = N > 0` (N the user id) and links the user's profile in its
  `welcomelink`; vB5 sets `pageData` with `"userid"`, `"username"` and `"securitytoken"`;
- a refusal is `STANDARD_ERROR`: a `td.tcat` "vBulletin Message" over a `div.panel` holding the
  message, or the login form there when the page needs a member ("You are not logged in or
  you do not have permission…");
- an accepted form answers with `STANDARD_REDIRECT` (a meta refresh or the header's `Location`);
- a re-displayed posting form lists its errors under "The following errors occurred with
  your submission" (flood control: "This forum requires that you wait 30 seconds between
  posts. Please try again in 12 seconds.").
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import N_, LayoutChanged
from forums.html import query_param, tree_of
from forums.html import redirect_target as shared_redirect_target
from forums.pages import PageKind
from forums.records import User
from forums.structure import text_of
from forums.userprefs import FilledForm, form_as_sent

__all__ = [
    "PageKind",
    "classify",
    "flood_seconds",
    "logged_in_user",
    "message",
    "read_form",
    "security_token",
    "version_of",
]

FLOOD_PHRASES = (
    "wait",  # "This forum requires that you wait 30 seconds between posts"
    "подождать",
    "подождите",
    "ждать",
    "между сообщениями",
)
TOKEN_PHRASES = ("security token", "token has expired", "токен", "ключ безопасности")
LOGIN_FAILED_PHRASES = (
    "invalid username or password",
    "wrong username or password",
    "failed login quota",
    "неверное имя",
    "неправильное имя",
    "неверный пароль",
    "неправильный пароль",
    "попыток входа",
)
NOT_FOUND_PHRASES = (
    "invalid thread",
    "invalid post",
    "invalid message",
    "invalid private",
    "неверно указан",
    "не найден",
)
USERS_NOT_FOUND = ("users were not found", "пользователи не найдены", "не найдены следующие")
_WAIT = re.compile(r"(\d+)\s*(?:more\s+)?(?:seconds?|сек\w*)", re.I)
_GENERATOR = re.compile(r"vBulletin\s*(\d)(?:\.(\d+))?", re.I)
_TOKEN = re.compile(r"SECURITYTOKEN\s*=\s*\"([^\"]*)\"|\"securitytoken\"\s*:\s*\"([^\"]*)\"")
_LOGGEDIN = re.compile(r"var\s+LOGGEDIN\s*=\s*(\d+)\s*>\s*0")
_VB5_USER = re.compile(r"\"userid\"\s*:\s*\"(\d+)\"\s*,\s*\"username\"\s*:\s*\"([^\"]*)\"")
_CAPTCHA = (
    "input[name='humanverify[input]'], input[name='humanverify[hash]'], input[name=imagestamp], "
    ".g-recaptcha, .h-captcha, input[name='humanverify[recaptcha_challenge_field]']"
)


def version_of(html: str, tree: LexborHTMLParser | None = None) -> int | None:
    """3, 4 or 5: from the generator meta, else from the page's marks; None if no vBulletin."""
    tree = tree or tree_of(html)
    meta = tree.css_first("meta[name=generator]")
    found = _GENERATOR.search(meta.attributes.get("content") or "") if meta is not None else None
    if found is not None and found.group(1) in "345":
        return int(found.group(1))
    if tree.css_first("li.b-post[data-node-id]") is not None or (
        "pageData" in html and "vBulletin" in html
    ):
        return 5
    if tree.css_first("li[id^='post_'] div[id^='post_message_'], #vbulletin_html") is not None:
        return 4
    if tree.css_first("table[id^='post'] div[id^='post_message_']") is not None:
        return 3
    if "SECURITYTOKEN" in html:
        return 4 if "LOGGEDIN" in html else 3
    return None


_MEMBER_ID = re.compile(
    r"member\.php\?(?:[^\"'#]*&(?:amp;)?)?u=(\d+)|member\.php/(\d+)|/member/(\d+)"
)


def user_from_link(link: LexborNode | None) -> User | None:
    """A profile link → User: `member.php?u=N` (vB3), `member.php/N-name` (vB4 friendly
    URLs), `/member/N-name` (vB5)."""
    if link is None:
        return None
    found = _MEMBER_ID.search(link.attributes.get("href") or "")
    name = text_of(link)
    if found is None or not name:
        return None
    return User(id=next(g for g in found.groups() if g), name=name)


_WRITTEN_CLASSES = ("postcontent", "js-post__content-text", "signature", "signaturecontainer")


def _written(node: LexborNode) -> bool:
    """Whether `node` is inside what a member wrote (a post's message or a signature): a
    player's `[url]` to `do=logout` or bold "Welcome, name" there is not the board's header."""
    current: LexborNode | None = node
    while current is not None:
        if (current.attributes.get("id") or "").startswith("post_message_"):
            return True
        classes = (current.attributes.get("class") or "").split()
        if any(c in _WRITTEN_CLASSES for c in classes):
            return True
        current = current.parent
    return False


def _scripts(tree: LexborHTMLParser) -> str:
    """The text of the page's scripts, where vBulletin states whom it serves (`LOGGEDIN`,
    vB5's `pageData`): a post may quote those words, and must not make the GM a guest."""
    return "\n".join(script.text(deep=True) or "" for script in tree.css("script"))


def logged_in_user(html: str | LexborHTMLParser) -> User | None:
    """Whom the page was served to; None for a guest (or a page without the header)."""
    tree = tree_of(html)
    raw = _scripts(tree)
    vb5 = _VB5_USER.search(raw)
    if vb5 is not None:
        return User(vb5.group(1), vb5.group(2)) if vb5.group(1) != "0" else None
    if not any(not _written(a) for a in tree.css("a[href*='do=logout']")):
        return None
    loggedin = _LOGGEDIN.search(raw)
    for holder in tree.css("li.welcomelink, div.welcomelink, td.alt2 strong, strong, span.welcome"):
        if _written(holder):
            continue
        said = text_of(holder)
        if not said.casefold().startswith(
            ("welcome", "здравствуйте", "добро пожаловать", "привет")
        ):
            continue
        user = user_from_link(holder.css_first("a[href*='member']"))
        if user is not None:
            return user
    if loggedin is not None and loggedin.group(1) != "0":
        link = tree.css_first(
            f"a[href*='member.php?u={loggedin.group(1)}'], a[href*='member.php/{loggedin.group(1)}-']"
        )
        if link is not None:
            return User(loggedin.group(1), text_of(link))
    return None


def security_token(html: str) -> str | None:
    """The page's `SECURITYTOKEN` ("guest" when served to a guest)."""
    found = _TOKEN.search(html)
    if found is None:
        return None
    return found.group(1) if found.group(1) is not None else found.group(2)


def charset_of(html: str, default: str = "utf-8") -> str:
    """The charset the page declares (vBulletin 3 boards often serve ISO-8859-1 or windows-1251)."""
    found = re.search(r"charset\s*=\s*[\"']?([A-Za-z0-9_-]+)", html[:4000])
    return found.group(1).lower() if found else default


def read_form(html: str | LexborHTMLParser, url: str, action: str) -> FilledForm:
    """The form whose action has `action` in it (e.g. "do=postreply") and a message box."""
    tree = tree_of(html)
    for node in tree.css("form"):
        posts_to = (node.attributes.get("action") or "").replace("&amp;", "&")
        if action in posts_to and node.css_first("textarea[name=message]") is not None:
            return form_as_sent(node, url)
    raise LayoutChanged(
        url,
        N_("no form posting to {action!r} with a message box on the page").format(action=action),
    )


def login_form(html: str | LexborHTMLParser, url: str) -> FilledForm | None:
    """vBulletin 3/4's login form (`login.php?do=login` with `vb_login_username`)."""
    for node in tree_of(html).css("form"):
        if node.css_first("input[name=vb_login_username]") is not None:
            return form_as_sent(node, url)
    return None


def _panel(tree: LexborHTMLParser) -> LexborNode | None:
    """The message of a STANDARD_ERROR page (vB3 `div.panel`, vB4 `div.standard_error`)."""
    for selector in (
        "div.standard_error div.blockrow",
        "div.standard_error",
        "td.panelsurround div.panel",
    ):
        for node in tree.css(selector):
            # A form's own panel (the quick reply, a posting form, a redirect's) is no message.
            if not _in_form(node):
                return node
    return None


def _in_form(node: LexborNode) -> bool:
    current = node.parent
    while current is not None:
        if current.tag == "form":
            return True
        current = current.parent
    return False


def form_errors(tree: LexborHTMLParser) -> str:
    """The errors listed above a re-displayed posting form."""
    said: list[str] = []
    for table in tree.css("table.tborder, div.blockbody, div.errorblock, ol.errorlist"):
        head = text_of(table.css_first("td.tcat, h2, div.blockhead"))
        if table.tag == "ol" or "error" in head.casefold() or "ошибк" in head.casefold():
            said += [text_of(li) for li in table.css("li")]
    return " ".join(s for s in said if s)


def message(html: str | LexborHTMLParser) -> str:
    """The board's words: a form's errors, else an error or redirect page's message."""
    tree = tree_of(html)
    errors = form_errors(tree)
    if errors:
        return errors
    panel = _panel(tree)
    if panel is not None:
        quoted = panel.css_first(
            "blockquote, div[style*='margin: 10px'], div[style*='margin:10px']"
        )
        return text_of(quoted) or text_of(panel)
    return ""


def _has(text: str, phrases: tuple[str, ...]) -> bool:
    low = text.casefold()
    return any(p in low for p in phrases)


def _posts(tree: LexborHTMLParser) -> bool:
    return (
        tree.css_first("div[id^='post_message_'], li.b-post[data-node-id]") is not None
        or tree.css_first("li.postbitdeleted[id^='post_']") is not None
    )


def classify(html: str | LexborHTMLParser, url: str) -> PageKind:
    """What kind of vBulletin page this is, from its structure first and its words second."""
    tree = tree_of(html)
    path = urlsplit(url).path.rsplit("/", 1)[-1]
    panel = _panel(tree)
    login = None
    for form in tree.css("form"):
        if form.css_first("input[name=vb_login_password]") is not None:
            login = form
            break
    in_panel = login is not None and panel is not None and _inside(login, tree, panel)
    if (
        login is not None
        and tree.css_first(_CAPTCHA) is not None
        and (in_panel or path == "login.php")
    ):
        return PageKind.CAPTCHA
    said = message(tree)
    if in_panel:
        if _has(said, LOGIN_FAILED_PHRASES):
            return PageKind.LOGIN_FAILED
        return PageKind.NOT_LOGGED_IN
    if _posts(tree):
        if path.startswith("private") and query_param(url, "do") == "showpm":
            return PageKind.PM_VIEW
        return PageKind.TOPIC
    if tree.css_first("form textarea[name=message]") is not None:
        # A posting form (its fields sit in a panel too): fresh, or re-displayed with errors.
        if not form_errors(tree):
            return PageKind.POSTING_FORM
        if _has(said, FLOOD_PHRASES) and _WAIT.search(said):
            return PageKind.FLOOD
        return PageKind.FORM_ERROR
    if (
        tree.css_first("form[name=postvarform], meta[http-equiv=Refresh], meta[http-equiv=refresh]")
        is not None
    ):
        return PageKind.POSTED
    if panel is not None:
        if _has(said, LOGIN_FAILED_PHRASES):
            return PageKind.LOGIN_FAILED
        if _has(said, TOKEN_PHRASES):
            return PageKind.FORM_INVALID
        if _has(said, FLOOD_PHRASES) and _WAIT.search(said):
            return PageKind.FLOOD
        if login is None and logged_in_user(tree) is None and "logged in" in said.casefold():
            return PageKind.NOT_LOGGED_IN
        return PageKind.MESSAGE
    if tree.css_first("form[action*='do=managepm'], ol.pmlist, a[href*='do=showpm']") is not None:
        return PageKind.PM_FOLDER
    if path == "login.php" and login is not None:
        return PageKind.LOGIN_FORM
    if tree.css_first("a[href*='forumdisplay.php'], a[href*='/forum/']") is not None:
        return PageKind.INDEX
    return PageKind.UNKNOWN


def _inside(node: LexborNode, tree: LexborHTMLParser, ancestor: LexborNode) -> bool:
    current: LexborNode | None = node
    while current is not None:
        if current.mem_id == ancestor.mem_id:
            return True
        current = current.parent
    return False


def flood_seconds(said: str, default: float) -> float:
    """Seconds to wait: the last number of seconds named ("…wait 30 seconds between posts.
    Please try again in 12 seconds." → 12), else `default`."""
    found = _WAIT.findall(said)
    return float(found[-1]) if found else default


def redirect_target(response_url: str, html: str, location: str | None) -> str | None:
    """Where an accepted submission leads: the `Location` header, else the page's refresh or link."""
    if location:
        return urljoin(response_url, location)
    links = "td.panelsurround a[href], div.standard_error a[href], div.blockrow a[href]"
    return shared_redirect_target(tree_of(html), response_url, links)


_POST_ID = re.compile(r"[?&](?:amp;)?p=(\d+)|#post(\d+)")


def post_id_from(url: str) -> str | None:
    """`showthread.php?p=64#post64` → "64"."""
    found = _POST_ID.search(url)
    if found is None:
        return None
    return found.group(1) or found.group(2)


def page_numbers(tree: LexborHTMLParser) -> tuple[int, int]:
    """(page, pages): "Page 152 of 155" (vB3, vB4; «Страница 2 из 5»), vBulletin 5's pagenav
    buttons (`data-page`); (1, 1) without pagination."""
    for node in tree.css(
        "td.vbmenu_control, a.popupctrl, span.pagination_info, div.pagination span, td.pagenav"
    ):
        found = re.search(r"(?:Page|Страница)\s+(\d+)\s+(?:of|из)\s+(\d+)", text_of(node), re.I)
        if found:
            return int(found.group(1)), max(int(found.group(1)), int(found.group(2)))
    current = tree.css_first("div.js-pagenav a.js-pagenav-current-button")
    if current is not None:
        numbers = [
            int(a.attributes.get("data-page") or 0)
            for a in tree.css("div.js-pagenav a.js-pagenav-button")
        ]
        page = int(current.attributes.get("data-page") or 1)
        return page, max([page, *numbers])
    return 1, 1
