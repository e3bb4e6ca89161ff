"""What a FluxBB 1.5 page is and says: pure readers of served HTML (no client).

- `classify` sorts a page into `forums.pages.PageKind` by FluxBB's own blocks: the
  "Redirecting …" page (`#punredirect`) after a login, a post or an edit; a form served
  again with its errors (`#posterror`: a wrong password, flood control, anything else);
  an information page (`#msg`: "Bad request", "No permission"); a topic; the forms; the
  profile's settings; the member list.
- `parse_topic_page` reads one page of a topic into a `TopicPage` of `Post`s.
- `read_zone` reads the account's zone and date format from its profile (Essentials).

Every reader takes the selectors (`forums.fluxbb.selectors`); the words it looks for are
FluxBB's English and Russian language packs' (the Russian of fluxbb/langs).
"""

from __future__ import annotations

import re
from datetime import date, datetime, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums import punfamily as family
from forums.errors import N_, LayoutChanged
from forums.fluxbb.dates import parse_fluxbb_time
from forums.fluxbb.selectors import DEFAULT, FluxbbSelectors
from forums.guard import redact
from forums.html import concat_bodies, html_to_postbody, quote_author_from_cite
from forums.pages import MemberList, PageKind, TopicPage
from forums.punfamily import query_value, text_of
from forums.records import EditInfo, Post, PostBody, User
from forums.structure import as_signature

__all__ = [
    "Zone",
    "classify",
    "flood_wait",
    "fluxbb_postbody",
    "logged_in_as",
    "message",
    "my_id",
    "parse_member_list",
    "parse_members",
    "parse_topic_page",
    "read_zone",
    "redirect_target",
]

_FLOOD = re.compile(
    r"between posts|чаще, чем раз в|(?:wait|подождите)\s+\d+\s+(?:seconds|секунд)", re.I
)
_FLOOD_WAIT = re.compile(r"(?:wait|подождите)\s+(\d+)\s+(?:seconds|секунд)", re.I)
_EDIT_LABELS = re.compile(r"^\s*(?:Last edited by|Изменено|Отредактировано)\s+", re.I)
"""The edit notice's words: FluxBB's English and Russian; «Отредактировано» is the Russian
of PunBB's family (`lang/Russian/topic.php` of github.com/Gemorroj/punbb-mod)."""
_EDIT = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$", re.S)
redirect_target = family.redirect_target
"""Where a "Redirecting …" page sends the reader (`forums.punfamily.redirect_target`)."""


def tree_of(html: str) -> LexborHTMLParser:
    return family.tree_of(html)


def logged_in_as(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> str | None:
    """Whom the header greets ("Logged in as <strong>Name</strong>"), None for a guest."""
    return family.logged_in_as(tree, selectors)


def is_guest(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> bool:
    """The page greets a guest (the header is there, with no name in it)."""
    return family.is_guest(tree, selectors)


def my_id(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> str | None:
    return family.my_id(tree, selectors)


def message(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> str:
    """The board's words on a page: a form's errors, else an information page's line."""
    return family.message(tree, selectors)


def flood_wait(text: str) -> float | None:
    """The seconds flood control asks to wait, from its message."""
    return family.wait_asked(text, _FLOOD_WAIT)


def classify(html: str, url: str = "", selectors: FluxbbSelectors = DEFAULT) -> PageKind:
    tree = tree_of(html)
    if tree.css_first(selectors.redirect) is not None:
        return PageKind.POSTED
    if tree.css_first(selectors.error_list) is not None:
        if tree.css_first(selectors.login_form) is not None:
            return PageKind.LOGIN_FAILED
        if _FLOOD.search(message(tree, selectors)):
            return PageKind.FLOOD
        return PageKind.FORM_ERROR
    if tree.css_first(selectors.login_form) is not None:
        return PageKind.LOGIN_FORM
    if tree.css_first(selectors.message) is not None:
        return PageKind.MESSAGE
    if tree.css_first(selectors.post_form) is not None:
        # Before the posts: PunBB 1.2's reply form shows the topic's last posts under it
        # (`#postreview`); a topic's own quick-reply form is not one of these forms.
        return PageKind.POSTING_FORM
    if tree.css_first(selectors.post) is not None:
        return PageKind.TOPIC
    if tree.css_first(selectors.zone) is not None:
        return PageKind.PREFERENCES
    if tree.css_first("#users1") is not None:
        return PageKind.MEMBERLIST
    if tree.css_first("#brdmain div[id^='idx']") is not None:
        return PageKind.INDEX
    return PageKind.UNKNOWN


# -- posts ------------------------------------------------------------------------------


def fluxbb_postbody(node: LexborNode, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a post's `div.postmsg` (a copy: the page stays as served). A quote
    is `div.quotebox` with «Name wrote:» in its `cite` and the quote in its `blockquote`
    (PunBB 1.2: `blockquote > div.incqbox` with «Name wrote:» in its `h4`);
    `[s]` is `span.bbs` (struck by the style sheet), `[u]` `span.bbu`; a smilie is read as
    the code typed, any other image dropped, the edit notice left out."""
    copy = node.clone()
    for notice in copy.css("p.postedit"):
        notice.decompose()
    family.name_quoteboxes(copy)
    for box in copy.css("div.incqbox"):
        # PunBB 1.2 (and boards on its templates): the heading names the quoted author.
        heading = box.css_first("h4")
        author = quote_author_from_cite(heading) if heading is not None else None
        if heading is not None:
            heading.decompose()
        quote = box.parent if box.parent is not None and box.parent.tag == "blockquote" else box
        for named in (quote, box):
            if author:
                named.attrs["data-author"] = author
    for struck in copy.css("span.bbs"):
        struck.attrs["style"] = "text-decoration: line-through"
    family.smilies_as_typed(copy)
    return html_to_postbody(copy, base_url=base_url)


def _pages(tree: LexborHTMLParser, selectors: FluxbbSelectors) -> tuple[int, int]:
    return family.paging(tree, selectors.pages)


def _edit(node: LexborNode | None, tz: tzinfo, now: datetime, order: str) -> EditInfo | None:
    if node is None:
        return None
    text = text_of(node)
    found = _EDIT.match(_EDIT_LABELS.sub("", text))
    if found is None:
        return EditInfo(by=None, at=None)
    try:
        at = parse_fluxbb_time(found.group(2), tz=tz, now=now, order=order)
    except ValueError:
        at = None
    by = found.group(1).strip() if _EDIT_LABELS.match(text) else None
    return EditInfo(by=by or None, at=at)


def parse_topic_page(
    html: str,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    order: str = "ymd",
    per_page: int | None = None,
    selectors: FluxbbSelectors = DEFAULT,
) -> TopicPage:
    """One page of a topic. A page that shows no post is `LayoutChanged`, never "no posts"
    (a FluxBB topic has at least its first post)."""
    tree = tree_of(html)
    title_link = tree.css_first(selectors.title)
    thread = query_value(title_link.attributes.get("href") or "", "id") if title_link else None
    thread = thread or query_value(url, "id") or ""
    title = text_of(title_link) if title_link is not None else _plain_title(tree, selectors)
    posts: list[Post] = []
    for node in tree.css(selectors.post):
        pid = (node.attributes.get("id") or "")[1:]
        if not pid.isdigit():
            continue
        posts.append(_post(node, pid, thread, url, tz, now, order, selectors))
    if not posts:
        raise LayoutChanged(redact(url), N_("a topic page without posts (style changed?)"))
    page, pages = _pages(tree, selectors)
    start = posts[0].number - 1
    size = per_page or len(posts)
    if page < pages:
        size = len(posts)
    # FluxBB prints no count of a topic's posts (PunBB 1.4 does), but numbers each post:
    # the last page's last number is the total. Known on the last page only, like MyBB.
    last = posts[-1].number
    total = last if page >= pages and last >= len(posts) else None
    return TopicPage(
        url=url,
        thread_id=thread,
        title=title,
        posts=posts,
        page=page,
        pages=pages,
        per_page=size,
        start=start,
        total_posts=total,
        logged_in_as=logged_in_as(tree, selectors),
    )


def _plain_title(tree: LexborHTMLParser, selectors: FluxbbSelectors) -> str:
    """The topic's title where the crumbs end in plain text, not a link (PunBB 1.2:
    `Index » Forum » Title` in `div.linkst ul`)."""
    crumbs = tree.css_first(selectors.plain_crumbs)
    last = crumbs.css("li")[-1] if crumbs is not None and crumbs.css("li") else None
    return text_of(last).lstrip("»\xa0 ").strip()


def _post(
    node: LexborNode,
    pid: str,
    thread: str,
    url: str,
    tz: tzinfo,
    now: datetime,
    order: str,
    selectors: FluxbbSelectors,
) -> Post:
    where = f"{redact(url)} post {pid}"
    stamp = node.css_first(selectors.post_link)
    if stamp is None:
        raise LayoutChanged(where, N_("no time on the post"))
    try:
        posted = parse_fluxbb_time(text_of(stamp), tz=tz, now=now, order=order)
    except ValueError:
        raise LayoutChanged(
            where, N_("cannot read the time {value!r}").format(value=text_of(stamp))
        ) from None
    number_text = text_of(node.css_first(selectors.post_number)).lstrip("#").replace(",", "")
    author = text_of(node.css_first(selectors.author))
    link = node.css_first(selectors.author_link)
    author_id = query_value(link.attributes.get("href") or "", "id") if link is not None else None
    body_node = next(
        (n for n in node.css(selectors.body) if "postsignature" not in _classes(n)), None
    )
    if body_node is None or not author:
        raise LayoutChanged(where, N_("no author or no message in the post"))
    body = fluxbb_postbody(body_node, base_url=url)
    signature = node.css_first(selectors.signature)
    if signature is not None:
        body = concat_bodies(body, as_signature(fluxbb_postbody(signature, base_url=url)))
    return Post(
        id=pid,
        thread_id=thread,
        number=int(number_text) if number_text.isdigit() else 0,
        author=author,
        author_id=author_id,
        posted_at=posted,
        body=body,
        url=urljoin(url, f"viewtopic.php?pid={pid}#p{pid}"),
        edit=_edit(body_node.css_first(selectors.edit_notice), tz, now, order),
        raw=body_node.html,
    )


def _classes(node: LexborNode) -> set[str]:
    return set((node.attributes.get("class") or "").split())


# -- the account and the members -----------------------------------------------------------


BOARD_WIDE_ORDER = "ymd"
"""The date order of a board whose members choose no date format (PunBB 1.2): its default
`o_date_format`, `Y-m-d`; a changed one of another shape is read by the general reader."""


Zone = family.Zone


def read_zone(html: str, today: date | None = None, selectors: FluxbbSelectors = DEFAULT) -> Zone:
    """The zone and date order of the account's profile (Essentials): the selected offset
    with its DST tick, and the date format (its value, or for the board's default the
    example it shows of today's date, `today` in that zone). A profile with no date format
    to choose (PunBB 1.2: one format for the whole board, its `o_date_format`) reads dates
    in PunBB's default order, `Y-m-d` (`BOARD_WIDE_ORDER`)."""
    tree = tree_of(html)
    zone = family.read_hour_zone(tree, today, selectors)
    if tree.css_first(selectors.date_format_choice) is None:
        utc = zone.shown.split(",", 1)[0]
        shown = (
            f"{utc}, dates as the board prints them for everyone (no date format in the "
            "profile: Y-m-d unless its administrator changed it)"
        )
        return Zone(zone.tz, BOARD_WIDE_ORDER, shown)
    return zone


def parse_members(html: str, url: str, selectors: FluxbbSelectors = DEFAULT) -> list[User]:
    """The users a member list page shows."""
    return family.parse_members(html, selectors)


def parse_member_list(html: str, url: str, selectors: FluxbbSelectors = DEFAULT) -> MemberList:
    """A member list page: its users, its number and how many pages the list has (FluxBB
    shows 50 users a page)."""
    page, count = _pages(tree_of(html), selectors)
    return MemberList(tuple(parse_members(html, url, selectors)), page, count)
