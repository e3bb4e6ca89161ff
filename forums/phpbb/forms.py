"""phpBB pages the HTTP side acts on: forms and their hidden fields, page kinds, message boxes.

Pure functions of (html, url): no client. The topic and PM pages themselves are parsed in
`forums.phpbb.topic` / `forums.phpbb.pms`; this module only recognises them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser as HTMLParser
from selectolax.lexbor import LexborNode as Node

from forums.errors import N_, LayoutChanged
from forums.html import page_tree
from forums.pages import MemberList, PageKind
from forums.records import User


class Selectors:
    """CSS selectors in one place, so a board with a quirky style overrides one line."""

    login_form = "form#login"
    post_form = "form#postform"
    pm_folder_form = "form#viewfolder"
    message_panel = "div#message"
    error_box = "#page-body .error"
    logged_in_user = "#username_logged_in .username, #username_logged_in .username-coloured"
    topic_post = "div.post[id^=p], div.postbody"
    memberlist_link = "#memberlist a.username, #memberlist a.username-coloured"
    date_format_field = "form input[name=dateformat]"
    """The UCP's board preferences (ucp.php?i=ucp_prefs&mode=personal): the date format."""
    captcha = (
        "input[name=confirm_code], input[name=qa_answer], .g-recaptcha, .h-captcha, "
        "input[name=recaptcha_token], input[name=turnstile_response], #captcha"
    )


# The board's own words for the conditions that look alike in the markup (phpBB language
# packs: FLOOD_ERROR, FORM_INVALID, LOGIN_ERROR_ATTEMPTS). Lower-case fragments.
FLOOD_PHRASES = (
    "so soon after your last",
    "сразу после предыдущего",
    "so schnell",
    "si rapidement",
)
FORM_INVALID_PHRASES = (
    "submitted form was invalid",
    "ошибка отправки формы",
    "formular war ungültig",
)
NEW_POSTS_PHRASES = (
    "new post has been made",
    "new posts have been made",
    "появилось новое сообщение",
    "появились новые сообщения",
)


@dataclass(frozen=True)
class Form:
    """A form as the board served it: where it posts to and the fields to send back."""

    action: str
    method: str
    hidden: dict[str, str] = field(default_factory=dict)
    checked: dict[str, str] = field(default_factory=dict)
    """Checked checkboxes and radio buttons, sent back as they are (e.g. attach_sig)."""
    texts: dict[str, str] = field(default_factory=dict)
    """Visible text fields as served (e.g. a reply's "Re: …" subject); not sent unless asked."""

    @property
    def form_token(self) -> str | None:
        return self.hidden.get("form_token")

    @property
    def creation_time(self) -> int | None:
        value = self.hidden.get("creation_time", "")
        return int(value) if value.isdigit() else None

    @property
    def lastclick(self) -> int | None:
        value = self.hidden.get("lastclick", "")
        return int(value) if value.isdigit() else None

    @property
    def sid(self) -> str | None:
        return self.hidden.get("sid") or sid_from_url(self.action)

    def data(self, **fields: str) -> dict[str, str]:
        """Everything to POST: the hidden and checked fields, then `fields` on top."""
        return {**self.checked, **self.hidden, **fields}


def _tree(html: str | HTMLParser) -> HTMLParser:
    return html if isinstance(html, HTMLParser) else page_tree(html)


def parse_form(html: str | HTMLParser, url: str, selector: str) -> Form:
    """The form matching `selector`, its action made absolute against `url`.

    Duplicate names keep the last value, as PHP reads them (phpBB's login form has two
    `redirect` fields)."""
    node = _tree(html).css_first(selector)
    if node is None:
        raise LayoutChanged(url, N_("no form {selector!r} on the page").format(selector=selector))
    action = urljoin(url, node.attributes.get("action") or url)
    method = (node.attributes.get("method") or "get").lower()
    hidden: dict[str, str] = {}
    checked: dict[str, str] = {}
    texts: dict[str, str] = {}
    for field_node in node.css("input"):
        name = field_node.attributes.get("name")
        if not name:
            continue
        kind = (field_node.attributes.get("type") or "text").lower()
        value = field_node.attributes.get("value") or ""
        if kind == "hidden":
            hidden[name] = value
        elif kind in ("checkbox", "radio") and "checked" in field_node.attributes:
            checked[name] = value or "on"
        elif kind == "text":
            texts[name] = value
    return Form(action=action, method=method, hidden=hidden, checked=checked, texts=texts)


_SID = re.compile(r"[?&](?:amp;)?sid=([0-9a-f]{32})\b")


def sid_from_url(url: str) -> str | None:
    values = parse_qs(urlsplit(url).query).get("sid")
    return values[0] if values else None


def links_carry_sid(html: str | HTMLParser) -> bool:
    """Whether the page's own links carry `sid=` (the board is not using our cookies).

    The logout link always carries it (as a CSRF check), so it does not count."""
    for a in _tree(html).css("a[href]"):
        href = a.attributes.get("href") or ""
        if "sid=" in href and "mode=logout" not in href and _SID.search(href):
            return True
    return False


def sid_from_html(html: str | HTMLParser) -> str | None:
    """The session id the page was rendered for: a hidden `sid` field, else a link's."""
    tree = _tree(html)
    node = tree.css_first("input[name=sid]")
    if node is not None and node.attributes.get("value"):
        return node.attributes["value"]
    for a in tree.css("a[href]"):
        found = _SID.search(a.attributes.get("href") or "")
        if found:
            return found.group(1)
    return None


def _text(node: Node | None) -> str:
    if node is None:
        return ""
    return " ".join(node.text(separator=" ").split())


def message_box(html: str | HTMLParser) -> str:
    """The board's message to the user: an error inside the page, or the info panel."""
    tree = _tree(html)
    texts = [_text(n) for n in tree.css(Selectors.error_box)]
    texts = [t for t in texts if t]
    if texts:
        return " ".join(texts)
    panel = tree.css_first(Selectors.message_panel)
    if panel is not None:
        body = panel.css_first("p") or panel
        return _text(body)
    return ""


def logged_in_as(html: str | HTMLParser) -> str | None:
    """The user name in the header, or None for a guest."""
    tree = _tree(html)
    node = tree.css_first(Selectors.logged_in_user)
    if node is None:
        # A style without prosilver's classes: the header item phpBB's own id marks.
        header = tree.css_first("#username_logged_in")
        node = header.css_first("a") if header is not None else None
    name = _text(node)
    return name or None


def logged_in_user_id(html: str | HTMLParser, url: str) -> str | None:
    """The logged-in user's id, from the profile link in the header menu."""
    for a in _tree(html).css("#username_logged_in a[href]"):
        href = urljoin(url, a.attributes.get("href") or "")
        query = parse_qs(urlsplit(href).query)
        if query.get("mode") == ["viewprofile"] and query.get("u"):
            return query["u"][0]
    return None


def _has(text: str, phrases: tuple[str, ...]) -> bool:
    low = text.lower()
    return any(p in low for p in phrases)


def _section(tree: HTMLParser) -> str:
    body = tree.css_first("body")
    classes = (body.attributes.get("class") or "") if body is not None else ""
    found = re.search(r"\bsection-([a-z_]+)", classes)
    return found.group(1) if found else ""


def classify(html: str, url: str) -> PageKind:
    """What kind of page this is, from its structure first and the board's words second."""
    tree = _tree(html)
    login = tree.css_first(Selectors.login_form)
    if login is not None:
        if tree.css_first(Selectors.captcha) is not None:
            return PageKind.CAPTCHA
        if login.css_first(".error") is not None:
            return PageKind.LOGIN_FAILED
        query = parse_qs(urlsplit(url).query)
        if query.get("mode") == ["login"] and "i" not in query:
            return PageKind.LOGIN_FORM
        return PageKind.SESSION_EXPIRED if links_carry_sid(tree) else PageKind.NOT_LOGGED_IN
    postform = tree.css_first(Selectors.post_form)
    if postform is not None:
        error = " ".join(_text(n) for n in postform.css(".error"))
        if not error:
            return PageKind.POSTING_FORM
        if _has(error, FLOOD_PHRASES):
            return PageKind.FLOOD
        if _has(error, FORM_INVALID_PHRASES):
            return PageKind.FORM_INVALID
        if _has(error, NEW_POSTS_PHRASES):
            return PageKind.NEW_POSTS
        return PageKind.FORM_ERROR
    folder = tree.css_first(Selectors.pm_folder_form)
    if folder is not None:
        action = folder.attributes.get("action") or ""
        if "view_message" in action:
            return PageKind.PM_VIEW
        return PageKind.PM_FOLDER
    if tree.css_first(Selectors.topic_post) is not None or _post_anchors(tree):
        return PageKind.TOPIC
    panel = tree.css_first(Selectors.message_panel)
    if panel is not None:
        refresh = tree.css_first("meta[http-equiv=refresh]")
        return PageKind.POSTED if refresh is not None else PageKind.MESSAGE
    if tree.css_first(Selectors.date_format_field) is not None:
        return PageKind.PREFERENCES
    section = _section(tree)
    if section == "memberlist" and tree.css_first("#memberlist") is not None:
        return PageKind.MEMBERLIST
    if section == "index":
        return PageKind.INDEX
    return PageKind.UNKNOWN


_POST_ANCHOR = re.compile(r"p\d+")


def _post_anchors(tree: HTMLParser) -> bool:
    """A topic page in a style without prosilver's classes: phpBB's own post anchors
    (`id="p123"`), on a page that is no search result list."""
    if _section(tree) in ("search", "ucp", "mcp", "memberlist", "index", "viewforum", "posting"):
        return False
    return any(_POST_ANCHOR.fullmatch(n.attributes.get("id") or "") for n in tree.css("[id^=p]"))


_VIEW_PM = re.compile(r"[?&](?:amp;)?p=(\d+)")


def pm_id_from_confirmation(html: str, url: str) -> str:
    """The new PM's id from "This message has been sent successfully" (its view link)."""
    tree = _tree(html)
    candidates = [n.attributes.get("content") or "" for n in tree.css("meta[http-equiv=refresh]")]
    candidates += [a.attributes.get("href") or "" for a in tree.css("div#message a[href]")]
    for link in candidates:
        if "mode=view" in link:
            found = _VIEW_PM.search(link)
            if found:
                return found.group(1)
    raise LayoutChanged(url, N_("no link to the sent private message in the confirmation"))


def post_id_from_location(location: str) -> str | None:
    """`viewtopic.php?p=66#p66` (the reply's 302) → "66"."""
    parts = urlsplit(location)
    values = parse_qs(parts.query).get("p")
    if values and values[0].isdigit():
        return values[0]
    if parts.fragment.startswith("p") and parts.fragment[1:].isdigit():
        return parts.fragment[1:]
    return None


def parse_memberlist(html: str, url: str) -> MemberList:
    """Users (id, name) on one memberlist page, and where the page is in the list."""
    tree = _tree(html)
    if tree.css_first("#memberlist") is None:
        raise LayoutChanged(url, N_("no member table (#memberlist)"))
    users: list[User] = []
    for a in tree.css(Selectors.memberlist_link):
        href = a.attributes.get("href") or ""
        values = parse_qs(urlsplit(urljoin(url, href)).query).get("u")
        name = _text(a)
        if values and name:
            users.append(User(id=values[0], name=name))
    page, pages = 1, 1
    pagination = tree.css_first(".pagination")
    if pagination is not None:
        strong = [_text(n) for n in pagination.css("strong")]
        numbers = [int(s) for s in strong if s.isdigit()]
        if len(numbers) >= 2:
            page, pages = numbers[0], numbers[1]
    return MemberList(tuple(users), page, pages)
