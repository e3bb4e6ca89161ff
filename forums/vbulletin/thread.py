"""A vBulletin thread page (vB3 and vB4 `showthread.php`, vB5 `node` pages) → `TopicPage`. Pure.

- Each post is read by its marks (`forums.vbulletin.marks`): its id, author (and profile id),
  number, time and message (`forums.vbulletin.body`).
- Times: vB3/vB4 print them in the reader's zone and say it in the footer ("All times are
  GMT -5"); the caller's `tz` wins when given. vB5 gives each post's Unix time.
- An edit leaves "Last edited by name; date at time." under the message: `EditInfo` (vB keeps
  the last edit only: `count` is 1).
- A soft-deleted post is served to members as a placeholder ("This message has been deleted
  by …", no message): a Post with `deleted=True` and an empty body, never a post with text.
  Its time is the placeholder's when it shows one, else the one seen before
  (`known_times`), else its neighbour's.
- A page without posts, a post without an author or a readable time, or a page that is not
  a thread raises `LayoutChanged(url, what)`: never "no posts".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from urllib.parse import urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import N_, LayoutChanged
from forums.html import parse_html
from forums.pages import TopicPage, Undated, page_size, place_undated
from forums.records import EditInfo, Post, PostBody
from forums.vbulletin import pages
from forums.vbulletin.body import vb_body
from forums.vbulletin.dates import footer_zone, from_unix, parse_vb_time
from forums.vbulletin.marks import Marks, marks_for

__all__ = ["DEFAULT_PER_PAGE", "parse_edit_notice", "parse_thread_page", "thread_id_of", "zone_of"]

DEFAULT_PER_PAGE = {3: 15, 4: 10, 5: 20}
"""vBulletin's default posts per page, used only when no full page shows the real size."""

_POST_ID = {3: re.compile(r"post(\d+)"), 4: re.compile(r"post_(\d+)")}
_NUMBER = re.compile(r"(\d+)")
_EDITED = re.compile(
    r"(?:Last edited by|Последний раз редактировалось|Отредактировано|Редактировалось)\s*:?\s*"
    r"(?P<by>.+?)\s*;\s*(?P<date>.+?)\s+(?:at|в)\s+(?P<time>\d{1,2}:\d{2}(?:\s*[AaPp]\.?[Mm]\.?)?)",
    re.I,
)
_DELETED = ("has been deleted", "был удален", "было удалено", "удалено", "удалён")
_THREAD_IN_PATH = re.compile(r"/(\d+)-[^/]*(?:/page\d+)?/?$|showthread\.php/(\d+)")


def zone_of(tree: LexborHTMLParser) -> tzinfo | None:
    """The zone the footer names ("All times are GMT -5. The time now is …")."""
    for node in tree.css("div.smallfont, p#footer_time, div#footer_time, div.footer_time, td, div"):
        said = pages.text_of(node)
        if len(said) < 200 and re.search(r"(All times are|Часовой пояс|Все время)", said, re.I):
            return footer_zone(said)
    return None


def thread_id_of(tree: LexborHTMLParser, url: str) -> str | None:
    """The thread id: `t=` in the URL or the page's forms, the id in a friendly URL."""
    found = pages.query_param(url, "t") or pages.query_param(url, "threadid")
    if found and found.isdigit():
        return found
    for name in ("t", "threadid"):
        hidden = tree.css_first(f"input[name={name}]")
        value = hidden.attributes.get("value") if hidden is not None else None
        if value and value.isdigit():
            return value
    for candidate in (
        url,
        *(
            link.attributes.get("href") or ""
            for link in tree.css("link[rel=canonical], link[rel=next]")
        ),
    ):
        match = _THREAD_IN_PATH.search(urlsplit(candidate).path)
        if match:
            return match.group(1) or match.group(2)
    return None


def parse_thread_page(
    html: str,
    url: str,
    *,
    now: datetime,
    tz: tzinfo | None = None,
    order: str = "mdy",
    per_page: int | None = None,
    known_times: Mapping[str, datetime] | None = None,
    marks: Marks | None = None,
) -> TopicPage:
    """Parse one thread page. `per_page` is the board's page size if known (it can be read
    only off a page that is not the last)."""
    tree = parse_html(html)
    version = pages.version_of(html, tree)
    if version is None:
        raise LayoutChanged(url, N_("not a vBulletin page (no generator, no post marks)"))
    sel = marks or marks_for(version)
    nodes = [n for n in tree.css(sel.post) if _post_id(n, sel) is not None]
    if not nodes:
        kind = pages.classify(tree, url)
        said = pages.message(tree)
        raise LayoutChanged(
            url,
            N_("no posts found (vBulletin {version}; a {kind} page)").format(
                version=version, kind=kind.value
            )
            + (f": {said}" if said else ""),
        )
    thread_id = thread_id_of(tree, url)
    if thread_id is None:
        raise LayoutChanged(url, N_("no thread id (no t= in the URL or the page's forms)"))
    zone = tz or zone_of(tree)
    if zone is None:
        if version != 5:
            raise LayoutChanged(
                url, 'the page names no time zone (no "All times are GMT…") and none is configured'
            )
        zone = UTC
    page, pages_count = pages.page_numbers(tree)
    size = page_size(len(nodes), page, pages_count, per_page, DEFAULT_PER_PAGE[version])
    start = (page - 1) * size
    parsed = [
        _parse_post(node, sel, url, thread_id, start + i + 1, zone, now, order)
        for i, node in enumerate(nodes)
    ]
    posts = place_undated(parsed, known_times or {}, url)
    me = pages.logged_in_user(tree)
    title = pages.text_of(
        tree.css_first("span.threadtitle, h1.main-title, td.navbar strong, title")
    )
    shown = me.name if me is not None else None
    return TopicPage.numbered(url, thread_id, title, posts, (page, pages_count, size), shown)


def _post_id(node: LexborNode, sel: Marks) -> str | None:
    if sel.version == 5:
        value = node.attributes.get("data-node-id") or ""
        return value if value.isdigit() else None
    match = _POST_ID[sel.version].fullmatch(node.attributes.get("id") or "")
    return match.group(1) if match else None


def _first(node: LexborNode, selector: str) -> LexborNode | None:
    for part in selector.split(","):
        found = node.css_first(part.strip())
        if found is not None:
            return found
    return None


def _is_deleted(node: LexborNode, sel: Marks, body: LexborNode | None) -> bool:
    classes = set((node.attributes.get("class") or "").split())
    if sel.deleted and sel.deleted in classes:
        return True
    if body is None:
        # vB3's placeholder (`postbit_deleted`): the header and the author, no message.
        return any(p in pages.text_of(node).casefold() for p in _DELETED)
    return False


def _read_time(
    node: LexborNode, sel: Marks, zone: tzinfo, now: datetime, order: str
) -> datetime | None:
    if sel.version == 5:
        return from_unix(node.attributes.get("data-node-publishdate") or "", zone)
    date = _first(node, sel.date)
    if date is None:
        return None
    shown = pages.text_of(date)
    if sel.version == 3:
        # The header cell holds the date after the status icon; "Link" and "#N" sit in the other cell.
        shown = shown.split("#")[0]
    try:
        return parse_vb_time(shown, tz=zone, now=now, order=order)
    except ValueError:
        return None


def _parse_post(
    node: LexborNode,
    sel: Marks,
    url: str,
    thread_id: str,
    number: int,
    zone: tzinfo,
    now: datetime,
    order: str,
) -> Post | Undated:
    post_id = _post_id(node, sel)
    assert post_id is not None
    where = N_("post {post}").format(post=post_id)
    link = _first(node, sel.author)
    user = pages.user_from_link(
        link
        if link is not None and link.tag == "a"
        else (link.css_first("a") if link is not None else None)
    )
    author = user.name if user is not None else pages.text_of(link)
    if not author:
        # A deleted placeholder names its author by a profile link only.
        user = pages.user_from_link(node.css_first("a[href*='member.php'], a[href*='/member/']"))
        author = user.name if user is not None else ""
    if not author:
        raise LayoutChanged(
            url,
            N_("{where} has no author ({sel_author})").format(where=where, sel_author=sel.author),
        )
    shown = _NUMBER.search(pages.text_of(_first(node, sel.number)))
    body_node = (
        node.css_first(f"#post_message_{post_id}") if sel.version != 5 else _first(node, sel.body)
    )
    when = _read_time(node, sel, zone, now, order)
    post_url = (
        urljoin(url, f"showthread.php?p={post_id}#post{post_id}") if sel.version != 5 else url
    )
    base = Post(
        id=post_id,
        thread_id=thread_id,
        number=int(shown.group(1)) if shown else number,
        author=author,
        author_id=user.id if user is not None else None,
        posted_at=when or now,
        body=PostBody(),
        url=post_url,
        deleted=True,
    )
    if _is_deleted(node, sel, body_node):
        return base if when is not None else Undated(base)
    if when is None:
        raise LayoutChanged(
            url,
            N_("{where} has no readable time ({sel_date})").format(where=where, sel_date=sel.date),
        )
    if body_node is None:
        raise LayoutChanged(
            url, N_("{where} has no message ({sel_body})").format(where=where, sel_body=sel.body)
        )
    notice = node.css_first(sel.edit_notice)
    return replace(
        base,
        body=vb_body(body_node, base_url=url),
        edit=parse_edit_notice(pages.text_of(notice), zone, now, order)
        if notice is not None
        else None,
        deleted=False,
        raw=(body_node.inner_html or "").strip(),
    )


def parse_edit_notice(text: str, tz: tzinfo, now: datetime, order: str = "mdy") -> EditInfo | None:
    """EditInfo from "Last edited by Shirohige; 2016-02-01 at 03:31." (or the Russian pack's
    «Последний раз редактировалось …; 01.02.2016 в 03:31.»); None when it says neither."""
    found = _EDITED.search(text)
    if found is None:
        return None
    try:
        at: datetime | None = parse_vb_time(
            f"{found.group('date')} {found.group('time')}", tz=tz, now=now, order=order
        )
    except ValueError:
        at = None
    return EditInfo(by=found.group("by").strip() or None, at=at, count=1)
