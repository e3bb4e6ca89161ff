"""What a PunBB 1.3/1.4 page is and says: pure readers of served HTML (no client).

- `classify` sorts a page into `forums.pages.PageKind` by the id PunBB gives the page's
  block (`brd-viewtopic`, `brd-login`, `brd-post`, `brd-message`, …), the "Redirecting …"
  page (`#brd-redirect`) after a login or a post, and a form served again with its errors
  (a wrong password, flood control).
- `parse_topic_page` reads one page of a topic into a `TopicPage` of `Post`s.
- `read_zone` reads the account's zone and date format from its settings.

The words it looks for are PunBB 1.4's English and the Russian of github.com/punbb/langs
(`Russian/`, for 1.4.3); fixtures/punbb/1.4.4 holds pages of both.
"""

from __future__ import annotations

import re
from datetime import date, datetime, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums import punfamily as family
from forums.dates import parse_ordered_time
from forums.errors import N_, LayoutChanged
from forums.guard import redact
from forums.html import concat_bodies, html_to_postbody
from forums.pages import PageKind, TopicPage
from forums.punbb.selectors import DEFAULT, PunbbSelectors
from forums.punfamily import query_value, text_of
from forums.records import EditInfo, Post, PostBody, User
from forums.structure import as_signature

__all__ = [
    "Zone",
    "classify",
    "edit_notice",
    "flood_wait",
    "logged_in_as",
    "message",
    "my_id",
    "paging",
    "parse_members",
    "parse_topic_page",
    "punbb_postbody",
    "read_zone",
    "redirect_target",
]

_FLOOD = re.compile(r"between posts|между двумя сообщениями", re.I)
_FLOOD_WAIT = re.compile(r"(?:At least|не менее)\s+(\d+)\s+(?:seconds|секунд)", re.I)
"""Flood control: "At least 60 seconds have to pass between posts." / «Должно пройти не
менее 60 секунд между двумя сообщениями.» (`lang/*/post.php`, 'Flood')."""
_EDIT = re.compile(
    r"^\(\s*(?:edited by|изменено:)\s+(?P<by>.+?)(?:,\s*|\s+)"
    r"(?P<at>(?:Today|Yesterday|Сегодня|Вчера|\d{1,4}-\d{1,2}-\d{1,4}|[A-Z][a-z]{2} \d{1,2} \d{4}"
    r"|\d{1,2}(?:st|nd|rd|th) [A-Z][a-z]{2} \d{4})\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]m)?)"
    r"\s*\)$",
    re.S | re.I,
)
"""The edit notice ('Last edited' of `lang/*/topic.php`): "(edited by %1$s %2$s)", ru
«(изменено: %1$s, %2$s)» — the editor's name, then the time in the reader's formats."""
_PAGE_KINDS = {
    "brd-login": PageKind.LOGIN_FORM,
    "brd-message": PageKind.MESSAGE,
    "brd-post": PageKind.POSTING_FORM,
    "brd-edit": PageKind.POSTING_FORM,
    "brd-dialogue": PageKind.FORM_INVALID,
    "brd-viewtopic": PageKind.TOPIC,
    "brd-profile-settings": PageKind.PREFERENCES,
    "brd-userlist": PageKind.MEMBERLIST,
    "brd-index": PageKind.INDEX,
}
"""The page's block id → its kind. `brd-dialogue` is PunBB's "Confirm action" page: a form
whose CSRF token it did not take (`csrf_confirm_form`)."""


tree_of = family.tree_of
redirect_target = family.redirect_target
logged_in_as = family.logged_in_as
is_guest = family.is_guest
my_id = family.my_id
message = family.message
"""The family's readers (`forums.punfamily`): whom the header greets, his id, the board's
words on a page, where a "Redirecting …" page leads; each takes the selectors."""


def flood_wait(text: str) -> float | None:
    """The seconds flood control asks to wait, from its message."""
    return family.wait_asked(text, _FLOOD_WAIT)


def classify(html: str, url: str = "", selectors: PunbbSelectors = DEFAULT) -> PageKind:
    tree = tree_of(html)
    if tree.css_first(selectors.redirect) is not None:
        return PageKind.POSTED
    block = tree.css_first(selectors.page)
    kind = _PAGE_KINDS.get(block.attributes.get("id") or "", PageKind.UNKNOWN) if block else None
    if kind is None:
        return PageKind.UNKNOWN
    if tree.css_first(selectors.error_list) is not None:
        if kind is PageKind.LOGIN_FORM:
            return PageKind.LOGIN_FAILED
        if _FLOOD.search(family.message(tree, selectors)):
            return PageKind.FLOOD
        return PageKind.FORM_ERROR
    return kind


# -- posts ------------------------------------------------------------------------------


def punbb_postbody(node: LexborNode, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a post's `div.entry-content` (a copy: the page stays as served). A
    quote is `div.quotebox` with «Name wrote:» in its `cite` and the quote in its
    `blockquote`; `[u]` is `span.bbu`; a smilie is read as the code typed, any other image
    dropped."""
    copy = node.clone()
    family.name_quoteboxes(copy)
    family.smilies_as_typed(copy)
    return html_to_postbody(copy, base_url=base_url)


def edit_notice(text: str, *, tz: tzinfo, now: datetime, order: str) -> EditInfo:
    """The edit notice's editor and time; a notice of another shape (a board's own
    language pack) is an edit of unknown author and time."""
    found = _EDIT.match(" ".join(text.split()))
    if found is None:
        return EditInfo(by=None, at=None)
    try:
        at = parse_ordered_time(found.group("at"), tz=tz, now=now, order=order)
    except ValueError:
        at = None
    return EditInfo(by=found.group("by").strip() or None, at=at)


def paging(tree: LexborHTMLParser, selectors: PunbbSelectors = DEFAULT) -> tuple[int, int]:
    """The page shown and the last page, by the paging line (1 of 1 without one)."""
    return family.paging(tree, selectors.pages)


def _shown(tree: LexborHTMLParser, selectors: PunbbSelectors) -> tuple[int, int, int] | None:
    """ "Posts: 5 to 6 of 6" → (5, 6, 6): the page's first and last post, the total; a
    topic of one page says only its total ("Posts: 3", «Сообщения 3»: 'Item info single')."""
    numbers = re.findall(r"\d+", text_of(tree.css_first(selectors.shown)).replace(",", ""))
    if len(numbers) == 1:
        return 1, int(numbers[0]), int(numbers[0])
    if len(numbers) != 3:
        return None
    first, last, total = (int(n) for n in numbers)
    return first, last, total


def parse_topic_page(
    html: str,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    order: str = "ymd",
    per_page: int | None = None,
    selectors: PunbbSelectors = DEFAULT,
) -> TopicPage:
    """One page of a topic. A page that shows no post is `LayoutChanged`, never "no posts"
    (a topic has at least its first post)."""
    tree = tree_of(html)
    title_link = tree.css_first(selectors.title)
    thread = query_value(title_link.attributes.get("href") or "", "id") if title_link else None
    thread = thread or query_value(url, "id") or ""
    posts = [
        _post(node, thread, url, tz, now, order, selectors) for node in tree.css(selectors.post)
    ]
    if not posts:
        raise LayoutChanged(redact(url), N_("a topic page without posts (style changed?)"))
    page, pages = paging(tree, selectors)
    shown = _shown(tree, selectors)
    start = shown[0] - 1 if shown is not None else posts[0].number - 1
    size = len(posts) if page < pages else (per_page or len(posts))
    return TopicPage(
        url=url,
        thread_id=thread,
        title=text_of(title_link),
        posts=posts,
        page=page,
        pages=pages,
        per_page=size,
        start=start,
        total_posts=shown[2] if shown is not None else None,
        logged_in_as=family.logged_in_as(tree, selectors),
    )


def _post(
    node: LexborNode,
    thread: str,
    url: str,
    tz: tzinfo,
    now: datetime,
    order: str,
    selectors: PunbbSelectors,
) -> Post:
    head = node.css_first(selectors.post_head)
    pid = (head.attributes.get("id") or "")[1:] if head is not None else ""
    where = f"{redact(url)} post {pid or '?'}"
    if head is None or not pid.isdigit():
        raise LayoutChanged(where, N_("a post without its id"))
    stamp = head.css_first(selectors.post_link)
    if stamp is None:
        raise LayoutChanged(where, N_("no time on the post"))
    try:
        posted = parse_ordered_time(text_of(stamp), tz=tz, now=now, order=order)
    except ValueError:
        raise LayoutChanged(
            where, N_("cannot read the time {value!r}").format(value=text_of(stamp))
        ) from None
    author_node = head.css_first(selectors.author)
    author = text_of(author_node)
    href = author_node.attributes.get("href") if author_node is not None else None
    author_id = query_value(href or "", "id")
    body_node = node.css_first(selectors.body)
    if body_node is None or not author:
        raise LayoutChanged(where, N_("no author or no message in the post"))
    body = punbb_postbody(body_node, base_url=url)
    signature = node.css_first(selectors.signature)
    if signature is not None:
        body = concat_bodies(body, as_signature(punbb_postbody(signature, base_url=url)))
    number = text_of(head.css_first(selectors.post_number)).replace(",", "").replace(" ", "")
    notice = head.css_first(selectors.edit_notice)
    return Post(
        id=pid,
        thread_id=thread,
        number=int(number) if number.isdigit() else 0,
        author=author,
        author_id=author_id if author_id and author_id.isdigit() else None,
        posted_at=posted,
        body=body,
        url=urljoin(url, f"viewtopic.php?pid={pid}#p{pid}"),
        edit=edit_notice(text_of(notice), tz=tz, now=now, order=order) if notice else None,
        raw=body_node.html,
    )


# -- the account and the members -----------------------------------------------------------


Zone = family.Zone


def read_zone(html: str, today: date | None = None, selectors: PunbbSelectors = DEFAULT) -> Zone:
    """The zone and date order of the account's settings (`profile.php?section=settings`):
    the selected offset with its DST tick, and the date format (its value, or for the
    board's default the example it shows of today's date, `today` in that zone)."""
    return family.read_hour_zone(tree_of(html), today, selectors)


def parse_members(html: str, selectors: PunbbSelectors = DEFAULT) -> list[User]:
    """The users a member list page shows."""
    return family.parse_members(html, selectors)
