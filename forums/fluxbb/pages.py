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
from dataclasses import dataclass, replace
from datetime import date, datetime, tzinfo
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import LayoutChanged
from forums.fluxbb.dates import DATE_ORDERS, order_of_example, parse_fluxbb_time, zone_of
from forums.fluxbb.selectors import DEFAULT, FluxbbSelectors
from forums.guard import redact
from forums.html import concat_bodies, html_to_postbody, parse_html, quote_author_from_cite
from forums.pages import MemberList, PageKind, TopicPage
from forums.records import EditInfo, Post, PostBody, User

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
_REFRESH = re.compile(
    r"""<meta[^>]+http-equiv=["']refresh["'][^>]+content=["']\d+;\s*URL=([^"']+)""", re.I
)
_SMILIE = re.compile(r"(?:^|/)img/smilies/([a-z_]+)\.(?:png|gif)$", re.I)
"""A smilie's image: FluxBB's absolute `…/img/smilies/smile.png`, PunBB 1.2's relative
`img/smilies/smile.png`."""
SMILIES = {
    "smile": ":)",
    "neutral": ":|",
    "sad": ":(",
    "big_smile": ":D",
    "yikes": ":o",
    "wink": ";)",
    "hmm": ":/",
    "tongue": ":P",
    "lol": ":lol:",
    "mad": ":mad:",
    "roll": ":rolleyes:",
    "cool": ":cool:",
}
"""FluxBB 1.5's smilies: image file name → the code players type."""


def tree_of(html: str) -> LexborHTMLParser:
    return parse_html(html)


def _text(node: LexborNode | None) -> str:
    return " ".join((node.text(deep=True) if node is not None else "").split())


def logged_in_as(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> str | None:
    """Whom the header greets ("Logged in as <strong>Name</strong>"), None for a guest."""
    welcome = tree.css_first(selectors.welcome)
    name = welcome.css_first("strong") if welcome is not None else None
    return _text(name) or None


def is_guest(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> bool:
    """The page greets a guest (the header is there, with no name in it)."""
    return tree.css_first(selectors.welcome) is not None and logged_in_as(tree, selectors) is None


def my_id(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> str | None:
    link = tree.css_first(selectors.profile_link)
    found = _query(link.attributes.get("href") or "", "id") if link is not None else None
    return found if found and found.isdigit() else None


def _query(url: str, key: str) -> str | None:
    values = parse_qs(urlsplit(url.replace("&amp;", "&")).query).get(key)
    return values[0] if values else None


def message(tree: LexborHTMLParser, selectors: FluxbbSelectors = DEFAULT) -> str:
    """The board's words on a page: a form's errors, else an information page's line."""
    errors = [_text(li) for li in tree.css(selectors.error_list)]
    if errors:
        return " ".join(e for e in errors if e)
    return _text(tree.css_first(selectors.message))


def flood_wait(text: str) -> float | None:
    """The seconds flood control asks to wait, from its message."""
    found = _FLOOD_WAIT.search(text)
    return float(found.group(1)) if found else None


def redirect_target(html: str, base: str) -> str | None:
    """Where a "Redirecting …" page sends the reader (a post's `viewtopic.php?pid=N#pN`)."""
    found = _REFRESH.search(html)
    return urljoin(base, found.group(1).replace("&amp;", "&")) if found else None


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
    for box in copy.css("div.quotebox"):
        # «Вася wrote:» is the box's; the blockquote inside it is the quote itself.
        # Named on the box and its quote, the cite goes: a quote's own author is then not
        # taken from the cite of a quote nested in it.
        cite, quote = box.css_first("cite"), box.css_first("blockquote")
        author = quote_author_from_cite(cite) if cite is not None else None
        if cite is not None:
            cite.decompose()
        for named in (box, quote):
            if named is not None and author:
                named.attrs["data-author"] = author
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
    for image in copy.css("img"):
        found = _SMILIE.search(image.attributes.get("src") or "")
        if found is not None and found.group(1).lower() in SMILIES:
            image.attrs["alt"] = SMILIES[found.group(1).lower()]
        else:
            image.decompose()
    return html_to_postbody(copy, base_url=base_url)


def _pages(tree: LexborHTMLParser, selectors: FluxbbSelectors) -> tuple[int, int]:
    line = tree.css_first(selectors.pages)
    if line is None:
        return 1, 1
    current = _text(line.css_first("strong")).replace(",", "").replace(" ", "")
    numbers = [
        int(t)
        for t in (_text(n).replace(",", "").replace(" ", "") for n in line.css("a, strong"))
        if t.isdigit()
    ]
    page = int(current) if current.isdigit() else 1
    return page, max([page, *numbers])


def _edit(node: LexborNode | None, tz: tzinfo, now: datetime, order: str) -> EditInfo | None:
    if node is None:
        return None
    text = _text(node)
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
    thread = _query(title_link.attributes.get("href") or "", "id") if title_link else None
    thread = thread or _query(url, "id") or ""
    title = _text(title_link) if title_link is not None else _plain_title(tree, selectors)
    posts: list[Post] = []
    for node in tree.css(selectors.post):
        pid = (node.attributes.get("id") or "")[1:]
        if not pid.isdigit():
            continue
        posts.append(_post(node, pid, thread, url, tz, now, order, selectors))
    if not posts:
        raise LayoutChanged(redact(url), "a topic page without posts (style changed?)")
    page, pages = _pages(tree, selectors)
    start = posts[0].number - 1
    size = per_page or len(posts)
    if page < pages:
        size = len(posts)
    return TopicPage(
        url=url,
        thread_id=thread,
        title=title,
        posts=posts,
        page=page,
        pages=pages,
        per_page=size,
        start=start,
        total_posts=None,
        logged_in_as=logged_in_as(tree, selectors),
    )


def _plain_title(tree: LexborHTMLParser, selectors: FluxbbSelectors) -> str:
    """The topic's title where the crumbs end in plain text, not a link (PunBB 1.2:
    `Index » Forum » Title` in `div.linkst ul`)."""
    crumbs = tree.css_first(selectors.plain_crumbs)
    last = crumbs.css("li")[-1] if crumbs is not None and crumbs.css("li") else None
    return _text(last).lstrip("»\xa0 ").strip()


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
        raise LayoutChanged(where, "no time on the post")
    try:
        posted = parse_fluxbb_time(_text(stamp), tz=tz, now=now, order=order)
    except ValueError:
        raise LayoutChanged(where, f"cannot read the time {_text(stamp)!r}") from None
    number_text = _text(node.css_first(selectors.post_number)).lstrip("#").replace(",", "")
    author = _text(node.css_first(selectors.author))
    link = node.css_first(selectors.author_link)
    author_id = _query(link.attributes.get("href") or "", "id") if link is not None else None
    body_node = next(
        (n for n in node.css(selectors.body) if "postsignature" not in _classes(n)), None
    )
    if body_node is None or not author:
        raise LayoutChanged(where, "no author or no message in the post")
    body = fluxbb_postbody(body_node, base_url=url)
    signature = node.css_first(selectors.signature)
    if signature is not None:
        signed = fluxbb_postbody(signature, base_url=url)
        signed = PostBody(tuple(replace(r, signature=True) for r in signed.runs), signed.links)
        body = concat_bodies(body, signed)
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


@dataclass(frozen=True)
class Zone:
    """How the account reads times: its zone and its date order (None: not to be told)."""

    tz: tzinfo
    order: str | None
    shown: str
    """The setting as the profile shows it, for `board check`."""


def read_zone(html: str, today: date | None = None, selectors: FluxbbSelectors = DEFAULT) -> Zone:
    """The zone and date order of the account's profile (Essentials): the selected offset
    with its DST tick, and the date format (its value, or for the board's default the
    example it shows of today's date, `today` in that zone). A profile with no date format
    to choose (PunBB 1.2: one format for the whole board, its `o_date_format`) reads dates
    in PunBB's default order, `Y-m-d` (`BOARD_WIDE_ORDER`)."""
    tree = tree_of(html)
    zone = tree.css_first(selectors.zone)
    if zone is None:
        raise LayoutChanged("profile", "no time zone on the profile's settings")
    dst_box = tree.css_first(selectors.dst)
    dst = dst_box is not None and "checked" in dst_box.attributes
    offset = zone.attributes.get("value") or "0"
    try:
        tz = zone_of(offset, dst)
    except ValueError:
        raise LayoutChanged("profile", f"an unknown time zone {offset!r}") from None
    utc = f"UTC{float(offset) + (1 if dst else 0):+g}"
    if tree.css_first(selectors.date_format_choice) is None:
        shown = (
            f"{utc}, dates as the board prints them for everyone (no date format in the "
            "profile: Y-m-d unless its administrator changed it)"
        )
        return Zone(tz, BOARD_WIDE_ORDER, shown)
    chosen = tree.css_first(selectors.date_format)
    value = chosen.attributes.get("value") if chosen is not None else None
    example = _text(chosen)
    order = DATE_ORDERS.get(value or "")
    if order is None and chosen is not None and today is not None:
        order = order_of_example(re.sub(r"\s*\(.*\)\s*$", "", example), today)
    shown = f"{utc}, dates like {example or '?'}"
    return Zone(tz, order, shown)


def parse_members(html: str, url: str, selectors: FluxbbSelectors = DEFAULT) -> list[User]:
    """The users a member list page shows."""
    tree = tree_of(html)
    users = []
    for link in tree.css(selectors.member_link):
        uid = _query(link.attributes.get("href") or "", "id")
        name = _text(link)
        if uid and uid.isdigit() and name:
            users.append(User(id=uid, name=name))
    return users


def parse_member_list(html: str, url: str, selectors: FluxbbSelectors = DEFAULT) -> MemberList:
    """A member list page: its users, its number and how many pages the list has (FluxBB
    shows 50 users a page)."""
    page, count = _pages(tree_of(html), selectors)
    return MemberList(tuple(parse_members(html, url, selectors)), page, count)
