"""XenForo conversations (the GM's PMs): the list (`/conversations/`) and one conversation's
page (`/conversations/<slug>.<id>/page-N`). Pure: no I/O.

A conversation is a thread of messages among its participants; every message in it (the
first and each reply) is one `PrivateMessage`, its recipients the other participants. The
participants come from the list row (starter and `recipientsList`), whose markup is real;
the conversation page gives the messages, in the same `article.message` shape as posts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.board import PMPage
from forums.errors import N_, LayoutChanged
from forums.html import concat_bodies, parse_html
from forums.records import Cursor, PrivateMessage
from forums.structure import EngineMarks, as_signature
from forums.xenforo import pages
from forums.xenforo.body import xf_body
from forums.xenforo.dates import node_time, server_offset
from forums.xenforo.pages import Visitor
from forums.xenforo.selectors import (
    CONVERSATIONS_XF1,
    CONVERSATIONS_XF2,
    XF1,
    XF2,
    ConversationSelectors,
    ThreadSelectors,
)
from forums.xenforo.thread import (
    XF_MARKS,
    message_header,
    message_root,
    page_numbers,
    structural_skeletons,
    structural_time,
)

__all__ = [
    "ConversationList",
    "ConversationRow",
    "ConversationView",
    "PMState",
    "conversation_id_of",
    "parse_conversation_list",
    "parse_conversation_view",
]

_CONVERSATION_ID = re.compile(r"(?:conversations|direct-messages)/(?:[^/?#]*\.)?(\d+)(?:/|$|\?|#)")
_MESSAGE_ID = re.compile(r"(\d+)$")
_EMPTY = re.compile(
    r"no conversations|no direct messages|нет переписок|нет личных|нет сообщений|нет диалогов",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ConversationRow:
    id: str
    title: str
    url: str
    starter: str
    starter_id: str | None
    recipients: tuple[tuple[str, str | None], ...]
    """(name, user id) of everyone the conversation was sent to."""
    latest_at: datetime | None
    unread: bool
    replies: int | None = None
    """The reply count the list shows (None when it shows none or abbreviates it)."""

    @property
    def participants(self) -> tuple[str, ...]:
        names = [self.starter, *(name for name, _ in self.recipients)]
        return tuple(dict.fromkeys(n for n in names if n))


@dataclass(frozen=True)
class ConversationList:
    url: str
    rows: list[ConversationRow]
    page: int
    pages: int
    visitor: Visitor | None


@dataclass(frozen=True)
class ConversationView:
    url: str
    conversation_id: str
    title: str
    messages: list[PrivateMessage]
    page: int
    pages: int
    visitor: Visitor | None
    csrf: str | None


@dataclass
class PMState:
    """A PM cursor read back: `{"last_id", "latest", "pages", "replies"}` (see
    `forums.xenforo.board`).

    `fresh()` says which conversations to open: those active after the newest activity
    seen, and those active in that very second whose reply count changed (two messages in
    one second must not hide the second). `found` collects the messages of the
    conversations read in one poll; `page()` says where to start in a conversation and
    `read()` records where its reading ended and the reply count it had."""

    after: int = 0
    latest: int = 0
    pages: dict[str, int] = field(default_factory=dict)
    newest: int = 0
    found: dict[str, PrivateMessage] = field(default_factory=dict)
    replies: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, since: Cursor | None) -> PMState:
        data = since.data if since is not None else {}

        def number(value: object) -> int:
            return value if isinstance(value, int) and not isinstance(value, bool) else 0

        stored = data.get("pages")
        pages = (
            {str(k): number(v) or 1 for k, v in stored.items()} if isinstance(stored, dict) else {}
        )
        latest = number(data.get("latest"))
        counts = data.get("replies")
        replies = {str(k): number(v) for k, v in counts.items()} if isinstance(counts, dict) else {}
        return cls(number(data.get("last_id")), latest, pages, latest, replies=replies)

    def fresh(self, conversation: str, activity: int | None, replies: int | None) -> bool:
        """Whether a conversation may hold a message not read yet."""
        if activity is None or activity > self.latest:
            return True
        if activity < self.latest:
            return False
        return replies is None or self.replies.get(conversation) != replies

    def page(self, conversation: str) -> int:
        return self.pages.get(conversation, 1)

    def read(
        self, conversation: str, last_page: int, activity: int | None, replies: int | None
    ) -> None:
        self.pages[conversation] = last_page
        if activity is not None:
            self.newest = max(self.newest, activity)
        if replies is not None:
            self.replies[conversation] = replies

    def add(self, message: PrivateMessage) -> None:
        self.found.setdefault(message.id, message)

    def result(self, me: str, mine: bool) -> PMPage:
        """The new messages by `me` (mine) or to `me`, oldest first, and the next cursor."""
        chosen = sorted(
            (
                m
                for m in self.found.values()
                if int(m.id) > self.after and (m.sender.casefold() == me.casefold()) == mine
            ),
            key=lambda m: int(m.id),
        )
        cursor = Cursor(
            {
                "last_id": max([self.after, *(int(m.id) for m in chosen)]),
                "latest": self.newest,
                "pages": dict(self.pages),
                "replies": dict(self.replies),
            }
        )
        return PMPage(items=chosen, cursor=cursor)


def conversation_id_of(href: str) -> str | None:
    match = _CONVERSATION_ID.search(href)
    return match.group(1) if match else None


def _text(node: LexborNode | None) -> str:
    if node is None:
        return ""
    return " ".join(node.text(deep=True, separator=" ").split())


def _variant(
    tree: LexborHTMLParser, given: ConversationSelectors | None
) -> tuple[ConversationSelectors, ThreadSelectors]:
    """The selectors for this page's XenForo version (its page navigation is the thread's)."""
    if pages.version(tree) == 1:
        return given or CONVERSATIONS_XF1, XF1
    return given or CONVERSATIONS_XF2, XF2


def _zone(html: str, tz: tzinfo | None) -> tzinfo | None:
    return tz if tz is not None else server_offset(html)


def _base(tree: LexborHTMLParser, url: str) -> str:
    node = tree.css_first("base[href]")
    return urljoin(url, node.attributes.get("href") or "") if node is not None else url


def parse_conversation_list(
    html: str,
    url: str,
    *,
    tz: tzinfo | None,
    now: datetime,
    selectors: ConversationSelectors | None = None,
) -> ConversationList:
    """The rows of one page of the conversation list, newest activity first as served."""
    tree = parse_html(html)
    selectors, nav = _variant(tree, selectors)
    tz = _zone(html, tz)
    nodes = tree.css(selectors.list_row)
    if not nodes and (links := _title_links(tree)):
        # A style without the list's classes: each row found by its conversation link.
        base = _base(tree, url)
        found = [_structural_row(link, base, tz=tz, now=now) for link in links]
        page, count = page_numbers(tree, nav)
        return ConversationList(url, found, page, count, pages.visitor(tree))
    if not nodes:
        kind = pages.classify(tree)
        if kind is not pages.PageKind.CONVERSATION_LIST:
            raise LayoutChanged(
                url, N_("not a conversation list: a {kind} page").format(kind=kind.value)
            )
        said = " ".join(_text(n) for n in tree.css(".blockMessage, .block-body, #content"))
        if not said and tree.body is not None:  # a style that renamed those blocks
            said = _text(tree.body)
        if not _EMPTY.search(said):
            raise LayoutChanged(url, N_("a conversation list with no rows and no 'empty' notice"))
    base = _base(tree, url)
    rows = [_row(node, base, tz=tz, now=now, sel=selectors) for node in nodes]
    page, count = page_numbers(tree, nav)
    return ConversationList(url, rows, page, count, pages.visitor(tree))


def _user(link: LexborNode) -> tuple[str, str | None]:
    user_id = link.attributes.get("data-user-id") or pages.member_id(link.attributes.get("href"))
    return _text(link), user_id


def _row(
    node: LexborNode, url: str, *, tz: tzinfo | None, now: datetime, sel: ConversationSelectors
) -> ConversationRow:
    title = node.css_first(sel.row_title)
    href = title.attributes.get("href") or "" if title is not None else ""
    conversation_id = conversation_id_of(href)
    if title is None or conversation_id is None:
        raise LayoutChanged(
            url,
            N_("a conversation row without a title link ({sel_row_title})").format(
                sel_row_title=sel.row_title
            ),
        )
    link = urljoin(url, re.sub(r"/(?:unread|latest)$", "/", href))
    starters = [_user(a) for a in node.css(sel.row_starter) if _text(a)]
    starter, starter_id = starters[0] if starters else (node.attributes.get("data-author"), None)
    if not starter:
        raise LayoutChanged(
            url,
            N_("conversation {conversation_id} has no starter").format(
                conversation_id=conversation_id
            ),
        )
    recipients = tuple(_user(a) for a in node.css(sel.row_recipients) if _text(a))
    stamp = node.css_first(sel.row_latest_time)
    latest = None
    if stamp is not None:
        try:
            latest = node_time(stamp, tz=tz, now=now)
        except ValueError:
            latest = None
    classes = set((node.attributes.get("class") or "").split())
    count = _text(node.css_first(sel.row_replies))
    return ConversationRow(
        id=conversation_id,
        title=_text(title),
        url=link,
        starter=starter,
        starter_id=starter_id,
        recipients=recipients,
        latest_at=latest,
        unread=bool(classes & {"is-unread", "unread"}),  # 2.x, 1.x
        replies=int(count) if count.isdigit() else None,  # "1.2K" is no count
    )


def parse_conversation_view(
    html: str,
    url: str,
    *,
    participants: tuple[str, ...] = (),
    tz: tzinfo | None,
    now: datetime,
    selectors: ConversationSelectors | None = None,
) -> ConversationView:
    """The messages on one page of a conversation. Each message's recipients are the
    `participants` (from the list row) other than its sender."""
    tree = parse_html(html)
    selectors, nav = _variant(tree, selectors)
    tz = _zone(html, tz)
    conversation_id = conversation_id_of(url)
    root = tree.css_first("html")
    key = (root.attributes.get("data-content-key") or "") if root is not None else ""
    if key.startswith("conversation-") and key.rsplit("-", 1)[-1].isdigit():
        conversation_id = key.rsplit("-", 1)[-1]
    seen: set[int] = set()
    nodes = []
    for node in tree.css(selectors.message):
        if node.mem_id not in seen:
            seen.add(node.mem_id)
            nodes.append(node)
    if conversation_id is None:
        raise LayoutChanged(url, N_("no conversation id in the URL or the page"))
    title = _text(tree.css_first(selectors.view_title))
    if not nodes:
        # A style without the message classes: XenForo's own marks.
        messages = _structural_messages(tree, url, participants, tz=tz, now=now)
        title = title or _text(tree.css_first("h1"))
        messages = [replace(m, subject=title) for m in messages]
        if not messages:
            kind = pages.classify(tree)
            raise LayoutChanged(
                url,
                N_("no messages on a conversation page (a {kind} page)").format(kind=kind.value),
            )
    else:
        messages = [
            _message(node, url, title, participants, tz=tz, now=now, sel=selectors)
            for node in nodes
        ]
    page, count = page_numbers(tree, nav)
    return ConversationView(
        url,
        conversation_id,
        title,
        messages,
        page,
        count,
        pages.visitor(tree),
        pages.csrf_token(tree),
    )


def _message(
    node: LexborNode,
    url: str,
    title: str,
    participants: tuple[str, ...],
    *,
    tz: tzinfo | None,
    now: datetime,
    sel: ConversationSelectors,
) -> PrivateMessage:
    raw_id = node.attributes.get("data-content") or node.attributes.get("id") or ""
    found = _MESSAGE_ID.search(raw_id)
    if found is None:
        raise LayoutChanged(
            url, N_("a conversation message without an id ({raw_id!r})").format(raw_id=raw_id)
        )
    message_id = found.group(1)
    sender, sender_id, sent_at = message_header(
        node, sel.message_author, sel.message_time, url, f"message {message_id}", tz=tz, now=now
    )
    content = node.css_first(sel.message_body)
    if content is None:
        raise LayoutChanged(
            url,
            N_("message {message_id} has no body ({sel_message_body})").format(
                message_id=message_id, sel_message_body=sel.message_body
            ),
        )
    raw = content.inner_html
    return PrivateMessage(
        id=message_id,
        sender=sender,
        sender_id=sender_id,
        recipients=tuple(p for p in participants if p.casefold() != sender.casefold()),
        sent_at=sent_at,
        subject=title,
        body=xf_body(content, base_url=url),
        url=_message_url(url, message_id),
        raw=raw,
    )


def _message_url(url: str, message_id: str) -> str:
    base = re.sub(r"(conversations|direct-messages)/.*$", r"\1/", url.split("#")[0])
    return f"{base}messages/{message_id}/"


# --- the structural reading: a style's classes not needed -------------------------------

_MESSAGE_MARK = re.compile(r"(?:js-)?(?:conversation-message|convMessage|message)-(\d+)")


def _message_id(node: LexborNode) -> str | None:
    attributes = node.attributes
    for raw in (attributes.get("data-content"), attributes.get("id")):
        match = _MESSAGE_MARK.fullmatch(raw or "")
        if match:
            return match.group(1)
    return None


MESSAGE_MARKS = EngineMarks(
    post_id=_message_id,
    anchor_selector=(
        "[data-content^='conversation-message-'], [data-content^='convMessage-'], "
        "[id^='js-convMessage-'], [id^='message-'], [id^='convMessage-']"
    ),
    profile=XF_MARKS.profile,
    author_attributes=XF_MARKS.author_attributes,
    self_link=lambda message_id: re.compile(rf"messages/{message_id}/"),
    skip_author_in="blockquote",
    notice=XF_MARKS.notice,
)
"""A conversation message's marks (`data-content="convMessage-N"`, 1.x `id="message-N"`)."""


def _structural_messages(
    tree: LexborHTMLParser,
    url: str,
    participants: tuple[str, ...],
    *,
    tz: tzinfo | None,
    now: datetime,
) -> list[PrivateMessage]:
    found = []
    for skeleton in structural_skeletons(tree, MESSAGE_MARKS, tz, now, url):
        sent_at = structural_time(skeleton, tz, now, url)
        if skeleton.content is None:
            raise LayoutChanged(
                url,
                N_("message {skeleton_post_id} has no body (by its marks)").format(
                    skeleton_post_id=skeleton.post_id
                ),
            )
        body = xf_body(message_root(skeleton.content), base_url=url)
        if skeleton.signature is not None:
            body = concat_bodies(body, as_signature(xf_body(skeleton.signature, base_url=url)))
        sender = skeleton.author
        found.append(
            PrivateMessage(
                id=skeleton.post_id,
                sender=sender,
                sender_id=skeleton.author_id,
                recipients=tuple(p for p in participants if p.casefold() != sender.casefold()),
                sent_at=sent_at,
                subject="",
                body=body,
                url=_message_url(url, skeleton.post_id),
                raw=skeleton.content.inner_html,
            )
        )
    return found


def _title_links(tree: LexborHTMLParser) -> list[LexborNode]:
    """Each listed conversation's title link (the first link to it with text)."""
    links: dict[str, LexborNode] = {}
    for link in tree.css("a[href*='conversations/'], a[href*='direct-messages/']"):
        href = link.attributes.get("href") or ""
        conversation_id = conversation_id_of(href)
        if conversation_id and _text(link) and conversation_id not in links:
            if re.search(r"/page-\d+/?$|#", href) or _is_date(link):
                continue
            links[conversation_id] = link
    return list(links.values())


def _structural_row(
    link: LexborNode, url: str, *, tz: tzinfo | None, now: datetime
) -> ConversationRow:
    from forums.structure import row_of

    def row_link(a: LexborNode) -> str | None:
        return conversation_id_of(a.attributes.get("href") or "")

    node = row_of(link, row_link)
    conversation_id = row_link(link) or ""
    people = []
    for a in node.css("a[href]"):
        if not XF_MARKS.profile.search(a.attributes.get("href") or "") or not _text(a):
            continue
        if a.css_first("img") is not None or (len(_text(a)) <= 2 and a.css_first("span")):
            continue  # an avatar (a picture, or the letter standing for one)
        person = _user(a)
        if person not in people:
            people.append(person)
    starter, starter_id = people[0] if people else (node.attributes.get("data-author") or "", None)
    if not starter:
        raise LayoutChanged(
            url,
            N_("conversation {conversation_id} has no starter").format(
                conversation_id=conversation_id
            ),
        )
    latest = None
    for stamp in reversed(node.css("time, abbr, span[title], [data-time]")):
        try:
            latest = node_time(stamp, tz=tz, now=now)  # the latest message's, last in the row
            break
        except ValueError:
            continue
    return ConversationRow(
        id=conversation_id,
        title=_text(link),
        url=urljoin(url, re.sub(r"/(?:unread|latest)$", "/", link.attributes.get("href") or "")),
        starter=starter,
        starter_id=starter_id,
        recipients=tuple(people[1:]),
        latest_at=latest,
        unread=False,
        replies=None,
    )


def _is_date(link: LexborNode) -> bool:
    """A link whose text is the time it was posted ("Dec 2, 2026"), not a title."""
    return link.css_first("time, abbr[data-time], span[data-time]") is not None or bool(
        re.fullmatch(r"[\w.]+ \d{1,2}, \d{4}|\d{1,2} [\w.]+ \d{4}", _text(link))
    )
