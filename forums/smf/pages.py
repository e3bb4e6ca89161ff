"""SMF 2.1 pages → records. Pure: no client; tested on pages saved from a real board.

- `classify(html, url)`: what a served page is (`forums.pages.PageKind`).
- `parse_topic_page`: a thread page (`index.php?topic=T.START`) → `TopicPage`.
- `parse_pm_folder` / `pm_messages`: a PM folder page → its rows, and the messages it shows
  in full (SMF's "all at once" view shows every message of the page under the list; "one at
  a time" shows one, the conversation view one conversation).
- `read_form`: a form's fields as the browser would send them.

SMF prints times in the reader's own zone and format (`%b %d, %Y, %I:%M %p` by default,
"Today at 05:11 PM" for today's) and names no zone: the zone is the reader's profile's
(`profile_zone`), and `forums.dates.parse_board_time` reads the format, in English and in
Russian («Сегодня в 17:11», «05 декабря 2026, 17:11:00»).

Anything that parses to no posts or no author or no time is `LayoutChanged`, never "none".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from html import escape
from urllib.parse import parse_qsl, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.dates import parse_board_time
from forums.errors import N_, LayoutChanged
from forums.html import fixed_postbody, fixed_postbody_of_html, parse_html, tree_of
from forums.pages import PageKind, PMListItem, TopicPage, page_size
from forums.records import EditInfo, Post, PostBody, PrivateMessage, User
from forums.smf.selectors import DEFAULT, SmfSelectors
from forums.structure import text_of
from forums.visibility import SMF

__all__ = [
    "PMFolder",
    "classify",
    "logged_in_user",
    "message",
    "parse_pm_folder",
    "parse_topic_page",
    "pm_messages",
    "profile_zone",
    "read_form",
    "smf_postbody",
]

DEFAULT_PER_PAGE = 15
"""SMF's default posts (and PMs) per page, used only when no page shows the real size."""

_SPACES = re.compile(r"\s+")
_MSG_ID = re.compile(r"^msg(\d+)$")
_PARAM = re.compile(r"[;&?]([a-z_]+)=([^;&#]*)", re.I)
_FLOOD = re.compile(
    r"(less than|менее|меньше)\s+(\d+)\s+(seconds?|секунд\w*)|"
    r"wait about (\d+) seconds|подождать (?:около )?(\d+) секунд",
    re.I,
)
_PER_HOUR = re.compile(r"(\d+)\s+(personal messages per hour|личных сообщений в час)", re.I)
_SESSION = re.compile(
    r"session timed out|session verification fail|form was invalid|token|"
    r"истекл\w* время сессии|сесси\w* (?:истекл|устарел)",
    re.I,
)
_NEW_REPLIES = re.compile(
    r"new repl(?:y has|ies have) been posted|while you were (?:typing|reading)|"
    r"появил\w* (?:новы\w* )?(?:ответ|сообщени)",
    re.I,
)
_VERIFICATION = re.compile(r"verification|проверк|captcha", re.I)


def _text(node: LexborNode | None) -> str:
    return _SPACES.sub(" ", text_of(node)).strip()


def params(url: str) -> dict[str, str]:
    """SMF's query: `index.php?topic=2.15;action=x` → {"topic": "2.15", "action": "x"} (SMF
    joins parameters with `;` as well as `&`)."""
    query = urlsplit(url).query
    found = dict(parse_qsl(query.replace(";", "&"), keep_blank_values=True))
    for name, value in _PARAM.findall("?" + query):
        found.setdefault(name, value)
    return found


# -- every page --------------------------------------------------------------------------


def logged_in_user(html: str | LexborHTMLParser, sel: SmfSelectors = DEFAULT) -> User | None:
    """Whom the page is served to: the header's profile link (members only)."""
    tree = tree_of(html)
    menu = tree.css_first(sel.user_menu)
    if menu is None:
        return None
    name = _text(menu.css_first(".textmenu") or menu)
    if not name:
        return None
    return User(_member_id(tree) or "", name)


_MEMBER_ID = re.compile(r"var smf_member_id = (\d+);")


def _member_id(tree: LexborHTMLParser) -> str | None:
    """The reader's id as SMF's own script states it (`var smf_member_id = N;`), looked for
    in the page's scripts only: a post may quote those words, and must not make the GM a
    guest (his session would seem gone at every read)."""
    for script in tree.css("script"):
        found = _MEMBER_ID.search(script.text(deep=True) or "")
        if found is not None:
            return found.group(1)
    return None


def is_guest(html: str | LexborHTMLParser) -> bool:
    """The page was served to a guest (SMF's script says `smf_member_id = 0`)."""
    return _member_id(tree_of(html)) == "0"


def message(html: str | LexborHTMLParser, sel: SmfSelectors = DEFAULT) -> str:
    """The board's words on a page: a fatal error, a form's errors, an error box."""
    tree = tree_of(html)
    fatal = tree.css_first(sel.fatal_error)
    if fatal is not None:
        body = fatal.css_first("div.windowbg, div.padding") or fatal
        return _text(body)
    errors = form_errors(tree, sel)
    if errors:
        return "; ".join(errors)
    box = tree.css_first(sel.error_box)
    return _text(box) if box is not None else ""


def form_errors(tree: LexborHTMLParser, sel: SmfSelectors = DEFAULT) -> list[str]:
    """The errors a re-displayed posting form lists (its error box is there, empty, always)."""
    return [t for t in (_text(e) for e in tree.css(sel.form_errors)) if t]


def flood_wait(said: str) -> float | None:
    """Seconds SMF's spam protection asked for ("less than 5 seconds ago"), or None."""
    found = _FLOOD.search(said)
    if found is None:
        return None
    return float(next(g for g in found.groups()[1:] if g and g.isdigit()))


def per_hour_limit(said: str) -> int | None:
    """SMF's cap of personal messages an hour ("the limit of 20 …"), or None."""
    found = _PER_HOUR.search(said)
    return int(found.group(1)) if found else None


def classify(html: str | LexborHTMLParser, url: str, sel: SmfSelectors = DEFAULT) -> PageKind:
    tree = tree_of(html)
    said = message(tree, sel)
    query = params(url)
    action = query.get("action", "")
    if tree.css_first(sel.login_form) is not None:
        if action in ("login", "login2") and tree.css_first(sel.error_box) is not None:
            return PageKind.FLOOD if flood_wait(said) is not None else PageKind.LOGIN_FAILED
        if action in ("login", "login2"):
            return PageKind.LOGIN_FORM
        return PageKind.NOT_LOGGED_IN
    if tree.css_first(sel.fatal_error) is not None:
        if flood_wait(said) is not None or per_hour_limit(said) is not None:
            return PageKind.FLOOD
        if _SESSION.search(said):
            return PageKind.FORM_INVALID
        return PageKind.MESSAGE
    if tree.css_first(sel.posts) is not None:
        return PageKind.TOPIC  # (its quick reply is a `form#postmodify` too)
    form = tree.css_first(sel.post_form)
    if form is not None:
        if not form_errors(tree, sel):
            return PageKind.POSTING_FORM
        if flood_wait(said) is not None or per_hour_limit(said) is not None:
            return PageKind.FLOOD
        if _NEW_REPLIES.search(said):
            return PageKind.NEW_POSTS
        if _SESSION.search(said):
            return PageKind.FORM_INVALID
        return PageKind.FORM_ERROR
    if tree.css_first(sel.pm_folder_form) is not None:
        return PageKind.PM_FOLDER
    if tree.css_first("#mlist") is not None:
        return PageKind.MEMBERLIST
    if tree.css_first(sel.timezone) is not None:
        return PageKind.PREFERENCES
    if tree.css_first("#boardindex_table, #board_index") is not None:
        return PageKind.INDEX
    return PageKind.UNKNOWN


def needs_verification(html: str | LexborHTMLParser) -> bool:
    """A posting form that asks for a visual verification (SMF's CAPTCHA for members with
    few posts, `pm_spam_settings`)."""
    tree = tree_of(html)
    return tree.css_first("[id^='verification_control'], input[name$='_vv[code]']") is not None


# -- forms -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    action: str
    fields: Mapping[str, str]
    texts: Mapping[str, str] = field(default_factory=dict)
    """Text areas and text inputs the user fills (`message`, `subject`, `to`)."""

    def data(self, **values: str) -> dict[str, str]:
        return {**self.fields, **values}


def read_form(html: str | LexborHTMLParser, url: str, selector: str) -> Form:
    """The form `selector` as a browser would send it (hidden fields, checked boxes, chosen
    options, text areas); `LayoutChanged` if the page has none."""
    tree = tree_of(html)
    node = tree.css_first(selector)
    if node is None:
        raise LayoutChanged(url, N_("no {selector} on the page").format(selector=selector))
    action = urljoin(url, node.attributes.get("action") or url)
    fields: dict[str, str] = {}
    texts: dict[str, str] = {}
    for element in node.css("input, select, textarea"):
        name = element.attributes.get("name")
        if not name or element.attributes.get("disabled") is not None:
            continue
        tag = element.tag
        kind = (element.attributes.get("type") or "text").lower()
        if tag == "textarea":
            texts[name] = element.text(deep=True)
            fields[name] = texts[name]
        elif tag == "select":
            chosen = element.css_first("option[selected]") or element.css_first("option")
            if chosen is not None:
                fields[name] = chosen.attributes.get("value") or _text(chosen)
        elif kind in ("checkbox", "radio"):
            if element.attributes.get("checked") is not None:
                fields[name] = element.attributes.get("value") or "on"
        elif kind in ("submit", "button", "image", "file", "reset"):
            continue
        else:
            fields[name] = element.attributes.get("value") or ""
            if kind == "text":
                texts[name] = fields[name]
    return Form(action, fields, texts)


def login_form(html: str | LexborHTMLParser, url: str, sel: SmfSelectors = DEFAULT) -> Form:
    return read_form(html, url, sel.login_form)


def new_message_id(location: str) -> str | None:
    """A post's id named in a redirect (`topic=2.msg12#msg12`); SMF's own answer to a reply
    (`topic=2.new#new`) names none."""
    found = re.search(r"\.msg(\d+)", location)
    return found.group(1) if found else None


# -- bodies ------------------------------------------------------------------------------

_QUOTE_FROM = re.compile(r"^[^:]{1,40}:\s*(?P<author>.+?)\s*$")
_QUOTE_DATE = re.compile(r"\s+(?:on|от)\s+(?=\S*\d|[^\W\d_]+\.? \d)", re.I)


def _fix_tree(root: LexborNode) -> None:
    """SMF's markup made readable by the shared reader: a quote's cite is its author alone,
    a code box's header is not code, smileys are their code (`alt`), other images go."""
    for cite in root.css("blockquote > cite"):
        text = _text(cite)
        found = _QUOTE_FROM.match(text)
        if found is None:
            cite.decompose()  # a bare [quote]: "Quote", no author
            continue
        author = found.group("author")
        if cite.css_first("a") is not None:
            parts = _QUOTE_DATE.split(author)
            if len(parts) > 1:
                author = " ".join(parts[:-1]).strip() or author
        named = parse_html(f"<cite>{escape(author)}</cite>").css_first("cite")
        if named is not None:
            cite.replace_with(named)
    for header in root.css("div.codeheader"):
        header.decompose()
    for image in root.css("img"):
        if "smiley" in (image.attributes.get("class") or "").split():
            continue  # the shared reader reads its `alt`, the code the player typed
        image.decompose()


def smf_postbody(
    content: LexborNode, *, base_url: str, signature: LexborNode | None = None
) -> PostBody:
    """The `PostBody` of a post's `div.inner` (and its signature, flagged as one)."""
    return fixed_postbody(content, base_url=base_url, look=SMF, fix=_fix_tree, signature=signature)


def smf_html_to_postbody(html: str, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a post's body HTML as a string (`Post.raw`, an exported thread)."""
    return fixed_postbody_of_html(html, base_url=base_url, look=SMF, fix=_fix_tree)


# -- times -------------------------------------------------------------------------------


def board_time(text: str, url: str, *, tz: tzinfo, now: datetime) -> datetime:
    try:
        return parse_board_time(text, tz=tz, now=now)
    except ValueError as error:
        raise LayoutChanged(
            url, N_("unreadable time {text!r}: {error}").format(text=text, error=error)
        ) from None


def profile_zone(html: str | LexborHTMLParser, sel: SmfSelectors = DEFAULT) -> str | None:
    """The zone chosen on the account's "Look and Layout" profile page (an IANA name)."""
    select = tree_of(html).css_first(sel.timezone)
    if select is None:
        return None
    chosen = select.css_first("option[selected]")
    return (chosen.attributes.get("value") or None) if chosen is not None else None


# -- thread pages ------------------------------------------------------------------------


def pagination(
    tree: LexborHTMLParser, sel: SmfSelectors = DEFAULT
) -> tuple[int, int, dict[int, str]]:
    """(this page, pages, page number → link) from the first page links."""
    links: dict[int, str] = {}
    current = 1
    box = tree.css_first(sel.pagination)
    if box is not None:
        shown = box.css_first("span.current_page")
        if shown is not None and _text(shown).isdigit():
            current = int(_text(shown))
        for link in box.css("a.nav_page"):
            label = _text(link)
            if label.isdigit():
                links[int(label)] = link.attributes.get("href") or ""
    return current, max([current, *links]), links


def _start(url: str, key: str) -> int | None:
    value = params(url).get(key, "")
    _, _, start = value.partition(".")
    return int(start) if start.isdigit() else None


def _per_page(current: int, links: Mapping[int, str], key: str) -> int | None:
    for number, href in sorted(links.items()):
        start = _start(href, key)
        if number > 1 and start:
            return start // (number - 1)
    return None


def topic_id_of(tree: LexborHTMLParser, url: str) -> str | None:
    for candidate in (
        url,
        *(a.attributes.get("href") or "" for a in tree.css("link[rel=canonical]")),
    ):
        topic = params(candidate).get("topic", "")
        head = topic.partition(".")[0]
        if head.isdigit():
            return head
    hidden = tree.css_first("input[name=topic]")
    value = hidden.attributes.get("value") if hidden is not None else None
    return value if value and value.isdigit() else None


def parse_edit_notice(text: str, url: str, *, tz: tzinfo, now: datetime) -> EditInfo | None:
    """ "Last Edit: Today at 05:20 PM by Маша" (and a reason after it) → `EditInfo`."""
    text = text.split("\xa0")[0].strip()
    if not text:
        return None
    _, _, rest = text.partition(":")
    found = re.match(r"^\s*(?P<at>.+?)\s+(?:by|от)\s+(?P<by>.+?)\s*$", rest)
    if found is None:
        raise LayoutChanged(url, N_("unreadable edit notice {text!r}").format(text=text))
    return EditInfo(found.group("by"), board_time(found.group("at"), url, tz=tz, now=now))


def parse_topic_page(
    html: str,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    per_page: int | None = None,
    sel: SmfSelectors = DEFAULT,
) -> TopicPage:
    """One thread page → `TopicPage`; a page without posts is `LayoutChanged`."""
    tree = tree_of(html)
    if tree.css_first(sel.posts) is None:
        raise LayoutChanged(
            url, N_("not a thread page ({value})").format(value=classify(tree, url, sel).value)
        )
    topic = topic_id_of(tree, url)
    if topic is None:
        raise LayoutChanged(url, N_("the thread's id is not on the page"))
    page, pages, links = pagination(tree, sel)
    size = _per_page(page, links, "topic") or per_page
    nodes = [
        (found.group(1), node)
        for node in tree.css(sel.post)
        if (found := _MSG_ID.match(node.attributes.get("id") or "")) is not None
    ]
    if not nodes:
        raise LayoutChanged(url, N_("a thread page with no posts"))
    if size is None:
        size = page_size(len(nodes), page, pages, None, DEFAULT_PER_PAGE)
    start = (page - 1) * size
    posts = [
        _post(node, post_id, topic, url, start + index + 1, tz=tz, now=now, sel=sel)
        for index, (post_id, node) in enumerate(nodes)
    ]
    user = logged_in_user(tree, sel)
    title = _text(tree.css_first(sel.title))
    shown = user.name if user else None
    return TopicPage.numbered(url, topic, title, posts, (page, pages, size), shown)


def _post(
    node: LexborNode,
    post_id: str,
    topic: str,
    url: str,
    number: int,
    *,
    tz: tzinfo,
    now: datetime,
    sel: SmfSelectors,
) -> Post:
    author_link = node.css_first(sel.author_link)
    author = _text(author_link or node.css_first(sel.author))
    if not author:
        raise LayoutChanged(url, N_("post {post_id} has no author").format(post_id=post_id))
    author_id = params(author_link.attributes.get("href") or "").get("u") if author_link else None
    date = node.css_first(sel.post_date)
    if date is None or not _text(date):
        raise LayoutChanged(url, N_("post {post_id} has no time").format(post_id=post_id))
    content = node.css_first(sel.body)
    if content is None:
        raise LayoutChanged(url, N_("post {post_id} has no body").format(post_id=post_id))
    notice = node.css_first(sel.edit_notice)
    edit = parse_edit_notice(_text(notice), url, tz=tz, now=now) if notice is not None else None
    return Post(
        id=post_id,
        thread_id=topic,
        number=number,
        author=author,
        author_id=author_id or None,
        posted_at=board_time(_text(date), url, tz=tz, now=now),
        body=smf_postbody(content, base_url=url, signature=node.css_first(sel.signature)),
        url=urljoin(url, f"index.php?msg={post_id}"),
        edit=edit,
        raw=content.inner_html,
    )


# -- private messages --------------------------------------------------------------------


@dataclass(frozen=True)
class PMFolder:
    """One page of a PM folder: its rows (as listed) and the messages it shows in full."""

    url: str
    folder: str
    items: list[PMListItem]
    messages: dict[str, PrivateMessage]
    page: int
    pages: int
    per_page: int
    start: int


def parse_pm_folder(
    html: str, url: str, *, tz: tzinfo, now: datetime, sel: SmfSelectors = DEFAULT
) -> PMFolder:
    tree = tree_of(html)
    form = tree.css_first(sel.pm_folder_form)
    if form is None:
        raise LayoutChanged(
            url, N_("not a PM folder ({value})").format(value=classify(tree, url, sel).value)
        )
    folder = params(url).get("f", "inbox") or "inbox"
    items = []
    for row in tree.css(sel.pm_row):
        check = row.css_first(sel.pm_row_check)
        if check is None:
            continue
        pm_id = check.attributes.get("value") or ""
        people = row.css("td.pm_from_to a")
        names = tuple(_text(a) for a in people)
        sender_link = people[0] if people and folder != "sent" else None
        subject_link = row.css_first("td.pm_subject a")
        when = row.css_first("td.pm_time")
        if not pm_id.isdigit() or subject_link is None or when is None:
            raise LayoutChanged(
                url, N_("an unreadable row in the PM folder ({pm_id!r})").format(pm_id=pm_id)
            )
        subject = _text(subject_link)
        subject = re.sub(r"\s*(New|Новое|Новая)\s*$", "", subject)
        items.append(
            PMListItem(
                id=pm_id,
                subject=subject,
                sender=names[0] if folder != "sent" and names else "",
                sender_id=params(sender_link.attributes.get("href") or "").get("u")
                if sender_link is not None
                else None,
                recipients=names if folder == "sent" else (),
                sent_at=board_time(_text(when), url, tz=tz, now=now),
                url=urljoin(url, f"index.php?action=pm;f={folder};pmsg={pm_id}"),
                unread="unread_pm" in (row.attributes.get("class") or ""),
            )
        )
    page, pages, links = pagination(tree, sel)
    size = _per_page(page, links, "start") or (len(items) if page < pages else DEFAULT_PER_PAGE)
    start = int(params(url).get("start", "0") or 0) if params(url).get("start", "").isdigit() else 0
    return PMFolder(
        url=url,
        folder=folder,
        items=items,
        messages=pm_messages(tree, url, tz=tz, now=now, sel=sel),
        page=page,
        pages=pages,
        per_page=size,
        start=start,
    )


def pm_messages(
    html: str | LexborHTMLParser,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    sel: SmfSelectors = DEFAULT,
) -> dict[str, PrivateMessage]:
    """The messages a PM page shows in full, by id."""
    tree = tree_of(html)
    found: dict[str, PrivateMessage] = {}
    for node in tree.css(sel.pm_message):
        matched = _MSG_ID.match(node.attributes.get("id") or "")
        if matched is None:
            continue
        pm_id = matched.group(1)
        author_link = node.css_first(sel.author_link)
        sender = _text(author_link or node.css_first(sel.author))
        info = node.css_first(sel.pm_info)
        content = node.css_first(sel.pm_body)
        if not sender or info is None or content is None:
            raise LayoutChanged(
                url, N_("PM {pm_id} lacks its sender, date line or text").format(pm_id=pm_id)
            )
        recipients = tuple(_text(a) for a in info.css("a"))
        when = _pm_time(info)
        found[pm_id] = PrivateMessage(
            id=pm_id,
            sender=sender,
            sender_id=params(author_link.attributes.get("href") or "").get("u")
            if author_link is not None
            else None,
            recipients=recipients,
            sent_at=board_time(when, url, tz=tz, now=now),
            subject=_text(node.css_first(sel.pm_subject)),
            body=smf_postbody(content, base_url=url),
            url=urljoin(url, f"index.php?action=pm;pmsg={pm_id}"),
            raw=content.inner_html,
        )
    return found


def _pm_time(info: LexborNode) -> str:
    """The time of "Sent to: <a>A</a>, <a>B</a> on: <strong>Today</strong> at 05:12 PM": the
    text after the last recipient, without its label."""
    html = info.inner_html or ""
    tail = html.rsplit("</a>", 1)[-1]
    text = _text(parse_html(f"<div>{tail}</div>").css_first("div"))
    return re.sub(r"^[^\s:]*:\s*", "", text)


def parse_memberlist(
    html: str, url: str, sel: SmfSelectors = DEFAULT
) -> tuple[list[User], int, int]:
    """The members a member list (or its search) shows, and (page, pages)."""
    tree = tree_of(html)
    if tree.css_first("#mlist") is None:
        raise LayoutChanged(
            url, N_("not the member list ({value})").format(value=classify(tree, url, sel).value)
        )
    users = []
    for link in tree.css(sel.member_link):
        member = params(link.attributes.get("href") or "").get("u", "")
        name = _text(link)
        if member.isdigit() and name:
            users.append(User(member, name))
    page, pages, _ = pagination(tree, sel)
    return users, page, pages
