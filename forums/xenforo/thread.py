"""A XenForo thread page (`/threads/<slug>.<id>/page-N`) → `ThreadView`. Pure: no I/O.

Each post: id from `data-content="post-N"` (2.x) or `id="post-N"` (1.x), author from
`data-author`, user id from the author link, time from `data-time` (or, on 1.x pages, the
date string in the board's time zone), position from its "#N" link, the body as `PostBody`,
the "Last edited" notice as `EditInfo`. A page with no posts, or a post missing its id,
author, time or body, is `LayoutChanged`: never an empty list that reads as "no votes".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import N_, LayoutChanged
from forums.html import concat_bodies, parse_html
from forums.records import EditInfo, Post, PostBody
from forums.structure import (
    EngineMarks,
    Skeleton,
    as_signature,
    choose_content,
    containers,
    read_skeleton,
    zone_time,
)
from forums.xenforo import pages
from forums.xenforo.body import xf_body
from forums.xenforo.dates import node_time, parse_xf_time, server_offset
from forums.xenforo.pages import Visitor
from forums.xenforo.selectors import THREAD_VARIANTS, XF1, XF2, ThreadSelectors

__all__ = [
    "DEFAULT_PER_PAGE",
    "ThreadView",
    "message_header",
    "page_numbers",
    "parse_thread_page",
    "thread_id_of",
]

DEFAULT_PER_PAGE = 20
"""XenForo's default messages per page, used only when a one-page thread cannot show it."""

_THREAD_ID = re.compile(r"threads/(?:[^/?#]*\.)?(\d+)(?:/|$|\?|#)")
_NUMBER = re.compile(r"#\s*(\d[\d,.\s]*)")
_MODERATOR = re.compile(r"moderator|модератор", re.IGNORECASE)


@dataclass(frozen=True)
class ThreadView:
    url: str
    thread_id: str
    title: str
    posts: list[Post]
    page: int
    pages: int
    per_page: int
    version: int
    visitor: Visitor | None
    csrf: str | None
    tz: tzinfo | None
    """The time zone the page's date strings were read in (None: only epoch stamps seen)."""

    @property
    def start(self) -> int:
        return (self.page - 1) * self.per_page

    @property
    def total_posts(self) -> int | None:
        if self.page == self.pages and self.posts:
            return max(p.number for p in self.posts)
        return None

    @property
    def logged_in_as(self) -> str | None:
        return self.visitor.name if self.visitor is not None else None


def thread_id_of(href: str) -> str | None:
    """`/threads/a-dark-theme-option.8276/page-2` → "8276"."""
    match = _THREAD_ID.search(href)
    return match.group(1) if match else None


def _text(node: LexborNode | None) -> str:
    if node is None:
        return ""
    return " ".join(node.text(deep=True, separator=" ").split())


def parse_thread_page(
    html: str,
    url: str,
    *,
    tz: tzinfo | None,
    now: datetime,
    variants: tuple[ThreadSelectors, ...] = THREAD_VARIANTS,
) -> ThreadView:
    """Parse one thread page. `tz` reads XenForo 1 date strings (None: the page's offset)."""
    tree = parse_html(html)
    selectors, nodes = _find_posts(tree, variants)
    structural = False
    if selectors is None:
        # No style's classes: XenForo's own marks (data-content="post-N", data-author,
        # <time data-time>, /members/name.N/ links) find the posts.
        nodes = [node for _, node in containers(tree, XF_MARKS)]
        if not nodes:
            raise LayoutChanged(url, _why_no_posts(tree, variants))
        selectors, structural = (XF1 if pages.version(tree) == 1 else XF2), True
    base = _base(tree, url)
    thread_id = _thread_id(tree, url)
    if thread_id is None:
        raise LayoutChanged(url, N_("no thread id (no /threads/…N/ in the URL or the links)"))
    title = _text(tree.css_first(selectors.title))
    if not title:
        head = tree.css_first("meta[property='og:title']")
        title = (head.attributes.get("content") or "") if head is not None else ""
    page, pages_count = page_numbers(tree, selectors)
    if structural and (page, pages_count) == (1, 1):
        page, pages_count = _page_numbers_by_marks(tree)
    per_page = DEFAULT_PER_PAGE
    if page < pages_count or len(nodes) > DEFAULT_PER_PAGE:
        per_page = len(nodes)
    zone = tz if tz is not None else server_offset(html)
    first = (page - 1) * per_page + 1
    if structural:
        posts = structural_posts(
            tree, base, url, thread_id, first, zone, now, version=selectors.version
        )
    else:
        try:
            posts = [
                _parse_post(node, selectors, base, url, thread_id, first + i, zone, now)
                for i, node in enumerate(nodes)
            ]
        except LayoutChanged as failed:
            try:
                posts = structural_posts(
                    tree, base, url, thread_id, first, zone, now, version=selectors.version
                )
            except LayoutChanged:
                raise failed from None
            if not posts:
                raise
    return ThreadView(
        url=url,
        thread_id=thread_id,
        title=title,
        posts=posts,
        page=page,
        pages=max(page, pages_count),
        per_page=per_page,
        version=selectors.version,
        visitor=pages.visitor(tree),
        csrf=pages.csrf_token(tree),
        tz=zone,
    )


def _find_posts(
    tree: LexborHTMLParser, variants: tuple[ThreadSelectors, ...]
) -> tuple[ThreadSelectors | None, list[LexborNode]]:
    for selectors in variants:
        seen: set[int] = set()
        nodes = []
        for node in tree.css(selectors.post):
            if node.mem_id not in seen:  # a node matching two alternatives is one post
                seen.add(node.mem_id)
                nodes.append(node)
        if nodes:
            return selectors, nodes
    return None, []


def _why_no_posts(tree: LexborHTMLParser, variants: tuple[ThreadSelectors, ...]) -> str:
    kind = pages.classify(tree)
    names = ", ".join(s.name for s in variants)
    if kind in (pages.PageKind.LOGIN, pages.PageKind.NO_PERMISSION):
        return f"not a thread page: a {kind.value} page (not logged in or session expired?)"
    if kind is not pages.PageKind.OTHER and kind is not pages.PageKind.THREAD:
        said = pages.board_message(tree)
        return f"not a thread page: a {kind.value} page" + (f" ({said})" if said else "")
    if pages.version(tree) is None:
        return "not a XenForo page (no <html id=XF> or id=XenForo)"
    return f"no posts found (selectors: {names})"


def _base(tree: LexborHTMLParser, url: str) -> str:
    node = tree.css_first("base[href]")
    return urljoin(url, node.attributes.get("href") or "") if node is not None else url


def _thread_id(tree: LexborHTMLParser, url: str) -> str | None:
    root = tree.css_first("html")
    key = (root.attributes.get("data-content-key") or "") if root is not None else ""
    if key.startswith("thread-") and key[7:].isdigit():
        return key[7:]
    candidates = [url]
    for selector in ("link[rel='canonical']", "meta[property='og:url']"):
        node = tree.css_first(selector)
        if node is not None:
            candidates.append(node.attributes.get("href") or node.attributes.get("content") or "")
    for form in tree.css("form[action*='threads/']"):
        candidates.append(form.attributes.get("action") or "")
    for href in candidates:
        found = thread_id_of(href)
        if found:
            return found
    return None


def page_numbers(tree: LexborHTMLParser, selectors: ThreadSelectors) -> tuple[int, int]:
    """(page, pages) from the page navigation (1.x states both in `data-page`/`data-last`)."""
    nav = tree.css_first(selectors.page_nav)
    if nav is None:
        return 1, 1
    page = nav.attributes.get("data-page") or ""
    last = nav.attributes.get("data-last") or ""
    if page.isdigit() and last.isdigit():
        return int(page), int(last)
    numbers = [int(t) for t in (_text(a) for a in tree.css(selectors.page_links)) if t.isdigit()]
    current = _text(tree.css_first(selectors.current_page))
    current_number = int(current) if current.isdigit() else 1
    return current_number, max([current_number, *numbers])


def _parse_post(
    node: LexborNode,
    selectors: ThreadSelectors,
    base: str,
    url: str,
    thread_id: str,
    number: int,
    tz: tzinfo | None,
    now: datetime,
) -> Post:
    raw_id = node.attributes.get("data-content") or node.attributes.get("id") or ""
    post_id = raw_id.removeprefix("post-")
    if not post_id.isdigit():
        raise LayoutChanged(url, N_("a post without an id ({raw_id!r})").format(raw_id=raw_id))
    where = N_("post {post}").format(post=post_id)
    author, author_id, posted_at = message_header(
        node, selectors.author_link, selectors.time, url, where, tz=tz, now=now
    )
    classes = set((node.attributes.get("class") or "").split())
    deleted = selectors.deleted_class in classes
    content = node.css_first(selectors.body)
    if content is None and not deleted:
        raise LayoutChanged(
            url,
            N_("{where} has no body ({selectors_body})").format(
                where=where, selectors_body=selectors.body
            ),
        )
    raw = content.inner_html if content is not None else None
    body = xf_body(content, base_url=base) if content is not None else PostBody()
    for link_node in node.css(selectors.number):
        found = _NUMBER.search(_text(link_node))
        if found:
            number = int(re.sub(r"\D", "", found.group(1)))
            break
    edit = _edit(node, selectors, author, tz, now)
    return Post(
        id=post_id,
        thread_id=thread_id,
        number=number,
        author=author,
        author_id=author_id,
        posted_at=posted_at,
        body=body,
        url=urljoin(base, f"posts/{post_id}/")
        if selectors.version == 1
        else _post_url(url, post_id),
        edit=edit,
        deleted=deleted,
        raw=raw,
    )


def message_header(
    node: LexborNode,
    author_link: str,
    time: str,
    url: str,
    where: str,
    *,
    tz: tzinfo | None,
    now: datetime,
) -> tuple[str, str | None, datetime]:
    """(author, user id, time) of a post or conversation message: `data-author` first,
    the profile link's name otherwise; the id from `data-user-id` or the `/members/` URL."""
    author = (node.attributes.get("data-author") or "").strip()
    link = node.css_first(author_link)
    if not author:
        author = _text(link)
    if not author:
        raise LayoutChanged(url, N_("{where} has no author").format(where=where))
    author_id = None
    if link is not None:
        author_id = link.attributes.get("data-user-id") or pages.member_id(
            link.attributes.get("href")
        )
    stamp = node.css_first(time)
    if stamp is None:
        raise LayoutChanged(url, N_("{where} has no time ({time})").format(where=where, time=time))
    try:
        return author, author_id, node_time(stamp, tz=tz, now=now)
    except ValueError as exc:
        raise LayoutChanged(
            url, N_("{where}: unreadable time ({exc})").format(where=where, exc=exc)
        ) from None


def _post_url(url: str, post_id: str) -> str:
    return re.sub(r"(threads/[^/?#]+)/.*$", rf"\1/post-{post_id}", url.split("#")[0])


def _edit(
    node: LexborNode, selectors: ThreadSelectors, author: str, tz: tzinfo | None, now: datetime
) -> EditInfo | None:
    notice = node.css_first(selectors.edit_notice)
    if notice is None:
        return None
    stamp = notice.css_first("time, abbr.DateTime, span.DateTime")
    at = None
    if stamp is not None:
        try:
            at = node_time(stamp, tz=tz, now=now)
        except ValueError:
            at = None
    by = None if _MODERATOR.search(_text(notice)) else author
    return EditInfo(by=by, at=at, count=1)


# --- the structural reading: a style's classes not needed ---------------------------------

_XF_POST = re.compile(r"(?:js-)?post-(\d+)")
_LAST_EDITED = re.compile(r"^\s*(?:Last edited|Последнее редактирование|Последний раз)", re.I)
_MODERATOR_EDIT = re.compile(r"moderator|модератор", re.I)


def _xf_post_id(node: LexborNode) -> str | None:
    attributes = node.attributes
    for raw in (attributes.get("data-content"), attributes.get("id")):
        match = _XF_POST.fullmatch(raw or "")
        if match:
            return match.group(1)
    return None


XF_MARKS = EngineMarks(
    post_id=_xf_post_id,
    anchor_selector="[data-content^='post-'], [id^='post-'], [id^='js-post-']",
    profile=re.compile(r"members/(?:[^/?#]*\.)?(\d+)/?"),
    author_attributes=("data-author",),
    self_link=lambda post_id: re.compile(rf"posts/{post_id}/|/post-{post_id}\b"),
    skip_author_in="blockquote",
    notice=lambda text: bool(_LAST_EDITED.match(text)),
)
"""What XenForo prints in every post (`data-content="post-N"` or `id="post-N"`, the
author's `/members/name.N/` link and `data-author`, `<time data-time>`), whatever the style."""


def is_edit_notice(text: str) -> bool:
    return bool(_LAST_EDITED.match(text))


def structural_skeletons(
    tree: LexborHTMLParser, marks: EngineMarks, tz: tzinfo | None, now: datetime, url: str
) -> list[Skeleton]:
    def read(text: str) -> datetime:
        if tz is None:
            raise ValueError("no zone")
        return parse_xf_time(text, tz=tz, now=now)

    skeletons = []
    for post_id, node in containers(tree, marks):
        skeleton = read_skeleton(post_id, node, marks, read)
        if skeleton is None:
            raise LayoutChanged(
                url,
                N_("post {post_id} has no author (read by the post's marks)").format(
                    post_id=post_id
                ),
            )
        author = (node.attributes.get("data-author") or "").strip()
        if author:  # the post's own name, as the fast path reads it
            skeleton.author = author
        skeletons.append(skeleton)
    choose_content(skeletons, is_edit_notice)
    return skeletons


def structural_time(skeleton: Skeleton, tz: tzinfo | None, now: datetime, url: str) -> datetime:
    where = N_("post {post}").format(post=skeleton.post_id)
    found = zone_time(skeleton, tz or UTC)
    if found is not None:
        return found if tz is not None else found.astimezone(UTC)
    if skeleton.time_text is None or tz is None:
        raise LayoutChanged(
            url, N_("{where} has no time (read by the post's marks)").format(where=where)
        )
    try:
        return parse_xf_time(skeleton.time_text, tz=tz, now=now)
    except ValueError as exc:
        raise LayoutChanged(
            url, N_("{where}: unreadable time ({exc})").format(where=where, exc=exc)
        ) from None


def structural_posts(
    tree: LexborHTMLParser,
    base: str,
    url: str,
    thread_id: str,
    first: int,
    tz: tzinfo | None,
    now: datetime,
    *,
    version: int,
) -> list[Post]:
    posts = []
    for index, skeleton in enumerate(structural_skeletons(tree, XF_MARKS, tz, now, url)):
        where = N_("post {post}").format(post=skeleton.post_id)
        posted_at = structural_time(skeleton, tz, now, url)
        if skeleton.content is None:
            raise LayoutChanged(
                url, N_("{where} has no body (read by the post's marks)").format(where=where)
            )
        body = xf_body(message_root(skeleton.content), base_url=base)
        if skeleton.signature is not None:
            signed = as_signature(xf_body(skeleton.signature, base_url=base))
            body = concat_bodies(body, signed)
        edit = None
        for notice in skeleton.notices:
            stamp = notice.css_first("time, abbr, span[title]")
            at = None
            if stamp is not None:
                try:
                    at = node_time(stamp, tz=tz, now=now)
                except ValueError:
                    at = None
            by = None if _MODERATOR_EDIT.search(_text(notice)) else skeleton.author
            edit = EditInfo(by=by, at=at, count=1)
            break
        posts.append(
            Post(
                id=skeleton.post_id,
                thread_id=thread_id,
                number=first + index,
                author=skeleton.author,
                author_id=skeleton.author_id,
                posted_at=posted_at,
                body=body,
                url=urljoin(base, f"posts/{skeleton.post_id}/")
                if version == 1
                else _post_url(url, skeleton.post_id),
                edit=edit,
                raw=skeleton.content.inner_html,
            )
        )
    return posts


def _page_numbers_by_marks(tree: LexborHTMLParser) -> tuple[int, int]:
    """A style without XenForo's page navigation classes: `data-page`/`data-last` (1.x),
    else the page links (`/page-N`) and the one number among them that is no link."""
    nav = tree.css_first("[data-page][data-last]")
    if nav is not None:
        page, last = nav.attributes.get("data-page") or "", nav.attributes.get("data-last") or ""
        if page.isdigit() and last.isdigit():
            return int(page), int(last)
    linked = {
        int(m.group(1))
        for a in tree.css("a[href*='page-']")
        if (m := re.search(r"/page-(\d+)", a.attributes.get("href") or "")) and _text(a).isdigit()
    }
    if not linked:
        return 1, 1
    return 1, max(linked)


def message_root(content: LexborNode) -> LexborNode:
    """XenForo 1 serves the message as `<blockquote class="messageText">` alone in its
    wrapper: that blockquote is the message, not a quote (a quote's blockquote sits beside
    its attribution)."""
    children = [c for c in content.iter() if c.tag not in ("-text", "-comment")]
    own = any(
        (c.text_content or "").strip() for c in content.iter(include_text=True) if c.tag == "-text"
    )
    if len(children) == 1 and children[0].tag == "blockquote" and not own:
        return children[0]
    return content
