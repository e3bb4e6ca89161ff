"""A phpBB topic page (`viewtopic.php`) → `TopicPage` with its `Post`s. Pure: no I/O.

A page that yields no posts, a post without an author or a time, or a page that is not a
topic page raises `LayoutChanged(url, what)`: never an empty list that reads as "no votes".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.dates import parse_board_time
from forums.datewords import language_of
from forums.errors import N_, LayoutChanged
from forums.html import concat_bodies, html_to_postbody, page_tree, query_param
from forums.pages import TopicPage
from forums.phpbb.selectors import PROSILVER, TOPIC_VARIANTS, TopicSelectors
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
from forums.visibility import PHPBB

__all__ = ["TopicPage", "parse_topic_page"]


DEFAULT_PER_PAGE = 10
"""phpBB's default posts per page, used only when a one-page topic does not show it."""

_WS = re.compile(r"\s+")
_EDIT_EN = re.compile(
    r"Last edited by (?P<by>.+?) on (?P<at>.+?), edited (?P<n>\d+) times? in total", re.I
)
_EDIT_RU = re.compile(
    r"Последний раз редактировал(?:ось|а|)\s+(?P<rest>.+?),\s*всего редактировал(?:ось|а|)\s+"
    r"(?P<n>\d+)\s*раз",
    re.I,
)
_TOTAL = re.compile(
    r"(\d[\d,.\s\u00a0]*?)\s*(?:posts?|replies|messages?|сообщени\w*|ответ\w*)", re.IGNORECASE
)
_POST_ID = re.compile(r"p\d+")
_PAGE_OF = re.compile(r"(?:Page|Страница)\s*(\d+)\s*(?:of|из)\s*(\d+)", re.IGNORECASE)


# --- helpers shared with pms.py ---------------------------------------------------------


def text_of(node: LexborNode | None) -> str:
    if node is None:
        return ""
    return _WS.sub(" ", node.text(deep=True, separator="", strip=False)).strip()


_PROFILE_HREF = re.compile(r"[A-Za-z0-9_./-]*memberlist\.php\?mode=viewprofile&u=([0-9]+)")
"""phpBB's own profile link, whose `u` needs no URL parsing."""


def user_id_from(href: str | None) -> str | None:
    if not href or "memberlist.php" not in href:
        return None
    plain = _PROFILE_HREF.fullmatch(href)
    if plain is not None:
        return plain.group(1)
    return query_param(href, "u")


_PROFILE_LINKS = "a[href*='memberlist.php'][href*='viewprofile']"
"""The links `profile_link` looks at (it checks each href again: lexbor may match these
case-insensitively, Python's test does not)."""


def profile_link(node: LexborNode | None) -> LexborNode | None:
    if node is None:
        return None
    for link in node.css(_PROFILE_LINKS):
        href = link.attributes.get("href") or ""
        if "memberlist.php" in href and "viewprofile" in href and text_of(link):
            return link
    return None


_ANY_LOGIN = ", ".join(
    dict.fromkeys(s for v in TOPIC_VARIANTS for s in (v.logged_in_name, v.logout_link))
)
"""Every selector `logged_in_as` tries, in one list: a page none of them matches (one pass
over the tree) names no user."""


def logged_in_as(tree: LexborHTMLParser) -> str | None:
    """The user the page was served to (prosilver header, or 3.0's "Logout [ Name ]"; in
    another style, the header's `#username_logged_in` element)."""
    if tree.css_first(_ANY_LOGIN) is None:
        return _logged_in_header(tree)
    for selectors in TOPIC_VARIANTS:
        node = tree.css_first(selectors.logged_in_name)
        if node is not None and text_of(node):
            return text_of(node)
        for link in tree.css(selectors.logout_link):
            match = re.search(r"\[\s*(.+?)\s*\]", text_of(link))
            if match:
                return match.group(1)
    return _logged_in_header(tree)


def _logged_in_header(tree: LexborHTMLParser) -> str | None:
    """The name in prosilver's `#username_logged_in` header item, its classes renamed."""
    header = tree.css_first("#username_logged_in")
    if header is None:
        return None
    trigger = header.css_first("a")  # the dropdown's trigger: «<a><span>Name</span></a>»
    return text_of(trigger) or None if trigger is not None else None


def body_section(tree: LexborHTMLParser) -> str | None:
    body = tree.body
    if body is None:
        return None
    for cls in (body.attributes.get("class") or "").split():
        if cls.startswith("section-"):
            return cls.removeprefix("section-")
    return None


def page_numbers(pagination: list[LexborNode]) -> tuple[int, int] | None:
    """(page, pages) from a pagination block: "Page 2 of 7" / «Страница 2 из 7»."""
    for node in pagination:
        match = _PAGE_OF.search(text_of(node))
        if match:
            return int(match.group(1)), int(match.group(2))
    for node in pagination:
        active = node.css_first("li.active span, li.active")
        if active is not None and text_of(active).isdigit():
            numbers = [int(text_of(n)) for n in node.css("li a, li span") if text_of(n).isdigit()]
            page = int(text_of(active))
            return page, max([page, *numbers])
    return None


def absolute(url: str, href: str) -> str:
    try:
        return urljoin(url, href)
    except ValueError:
        return href


# --- the topic page ---------------------------------------------------------------------


def parse_topic_page(html: str, url: str, *, tz: tzinfo, now: datetime) -> TopicPage:
    """Parse one `viewtopic.php` page. Post.number is the position in the thread."""
    tree = page_tree(html)
    lang = page_language(tree)
    selectors, post_nodes = _find_posts(tree)
    if selectors is None:
        # No known style's classes: the posts as every phpBB 3 page marks them.
        skeletons = structural_posts(tree, url, tz=tz, now=now, lang=lang)
        if not skeletons:
            raise LayoutChanged(url, _why_no_posts(tree))
        return _page_of(tree, url, PROSILVER, skeletons, tz=tz, now=now, lang=lang)

    thread_id = _thread_id(tree, url, selectors)
    if thread_id is None:
        raise LayoutChanged(url, N_("no topic id (no t= in the URL, title or links)"))
    title = (
        text_of(tree.css_first(selectors.topic_title))
        or text_of(tree.css_first("h2.topic-title, #page-body h2, h2"))
        or _title_from_head(tree)
    )

    pagination = tree.css(selectors.pagination)
    numbers = page_numbers(pagination)
    per_page = _per_page(tree, pagination)
    url_start = query_param(url, "start")
    if numbers is not None:
        page, pages = numbers
    else:
        page, pages = 1, 1
    if per_page is None:
        per_page = DEFAULT_PER_PAGE if len(post_nodes) <= DEFAULT_PER_PAGE else len(post_nodes)
        if pages > 1 and page < pages:
            per_page = len(post_nodes)
    if url_start is not None and url_start.isdigit() and numbers is None:
        start = int(url_start)
        page = start // per_page + 1
    else:
        start = (page - 1) * per_page
    total = _total_posts(pagination)

    # Each post's own address: viewtopic.php beside the page, resolved once per page.
    viewtopic = absolute(url, "./viewtopic.php")
    signatures: dict[tuple[object, ...], PostBody] = {}
    try:
        posts = [
            _parse_post(
                node,
                line,
                selectors,
                url,
                viewtopic,
                thread_id,
                start + index + 1,
                signatures,
                tz=tz,
                now=now,
                lang=lang,
            )
            for index, (node, line) in enumerate(post_nodes)
        ]
    except LayoutChanged as failed:
        # A style that keeps the known classes but moves the author or the time («Milk»:
        # the date in a link, no <time>): the post's marks still say it. When they do not
        # either, the selectors' own complaint is the clearer one.
        try:
            skeletons = structural_posts(tree, url, tz=tz, now=now, lang=lang)
            posts = _structural_posts_to_records(
                skeletons, url, viewtopic, thread_id, start, tz=tz, now=now, lang=lang
            )
        except LayoutChanged:
            raise failed from None
        if not posts:
            raise
    return TopicPage(
        url=url,
        thread_id=thread_id,
        title=title,
        posts=posts,
        page=page,
        pages=max(pages, page),
        per_page=per_page,
        start=start,
        total_posts=total,
        logged_in_as=logged_in_as(tree),
    )


def _find_posts(
    tree: LexborHTMLParser,
) -> tuple[TopicSelectors | None, list[tuple[LexborNode, LexborNode]]]:
    """The first variant's posts that have an author line: (post, its author line)."""
    for selectors in TOPIC_VARIANTS:
        nodes = [
            (n, line)
            for n in tree.css(selectors.post)
            if _POST_ID.fullmatch(n.attributes.get("id") or "")
            and (line := n.css_first(selectors.author_line)) is not None
        ]
        if nodes:
            return selectors, nodes
    return None, []


def _why_no_posts(tree: LexborHTMLParser) -> str:
    section = body_section(tree)
    if _login_page(tree):
        return "not a topic page: a login form (not logged in or session expired?)"
    if section is not None and section != "viewtopic":
        return f"not a topic page (body class section-{section})"
    from forums.detect import detect_engine

    served_by = detect_engine(tree.html or "")
    if served_by.engine is None and served_by.product is not None:
        # TorrentPier and phpBB 2 share phpBB 3's script names: say what served the page.
        return f"not a phpBB 3 page: {served_by.describe()}"
    if tree.css_first("div.post[id^='p']") is not None:
        return (
            "posts found, but none has an author line (selectors: "
            + ", ".join(s.name for s in TOPIC_VARIANTS)
            + ")"
        )
    return "no posts found (selectors: " + ", ".join(s.name for s in TOPIC_VARIANTS) + ")"


_HEADER_WORDS = re.compile(r"head|top|nav|menu|quick|panel|bar|user", re.IGNORECASE)


def _login_page(tree: LexborHTMLParser) -> bool:
    """Whether the page *is* a login form (phpBB's `form#login`, or a password field outside
    the page's header): a guest page with a login box in its header is not one."""
    if tree.css_first("form#login") is not None:
        return True
    for field in tree.css("input[name='password'], input[type='password']"):
        node = field.parent
        in_header = False
        while node is not None and node.tag not in ("body", "html"):
            marks = (
                f"{node.tag} {node.attributes.get('id') or ''} {node.attributes.get('class') or ''}"
            )
            if node.tag in ("header", "nav") or _HEADER_WORDS.search(marks):
                in_header = True
                break
            node = node.parent
        if not in_header:
            return True
    return False


def _title_from_head(tree: LexborHTMLParser) -> str:
    title = text_of(tree.css_first("title"))
    return re.sub(r"^\(\d+\)\s*", "", title)


def _thread_id(tree: LexborHTMLParser, url: str, selectors: TopicSelectors) -> str | None:
    """The topic id: the form's hidden `t`, else the first of the title link, the canonical
    link, the page's URL and (read only when those say nothing) any link to the topic."""
    hidden = tree.css_first("input[name='t']")
    if hidden is not None and (hidden.attributes.get("value") or "").isdigit():
        return hidden.attributes.get("value")
    title = tree.css_first(selectors.topic_title)
    canonical = tree.css_first("link[rel='canonical']")
    candidates: list[str | None] = [
        title.attributes.get("href") if title is not None else None,
        canonical.attributes.get("href") if canonical is not None else None,
        url,
    ]
    found = _topic_param(candidates)
    if found is None:
        links = tree.css("a[href*='viewtopic.php']")
        found = _topic_param(link.attributes.get("href") for link in links)
    return found


def _topic_param(hrefs: Iterable[str | None]) -> str | None:
    for href in hrefs:
        if href and "viewtopic.php" in href:
            t = query_param(href, "t")
            if t and t.isdigit():
                return t
    return None


def _per_page(tree: LexborHTMLParser, pagination: list[LexborNode]) -> int | None:
    node = tree.css_first("[data-per-page]")
    if node is not None:
        value = node.attributes.get("data-per-page") or ""
        if value.isdigit() and int(value) > 0:
            return int(value)
    # From a page link: "start=50" labelled 3 → 25 per page.
    for block in pagination:
        for link in block.css("a[href*='start=']"):
            label = text_of(link)
            start = query_param(link.attributes.get("href") or "", "start")
            if label.isdigit() and int(label) > 1 and start and start.isdigit():
                return int(start) // (int(label) - 1) or None
    return None


def _total_posts(pagination: list[LexborNode]) -> int | None:
    for node in pagination:
        match = _TOTAL.search(text_of(node))
        if match:
            digits = re.sub(r"\D", "", match.group(1))
            if digits:
                return int(digits)
    return None


def _parse_post(
    node: LexborNode,
    author_line: LexborNode,
    selectors: TopicSelectors,
    url: str,
    viewtopic: str,
    thread_id: str,
    number: int,
    signatures: dict[tuple[object, ...], PostBody],
    *,
    tz: tzinfo,
    now: datetime,
    lang: str | None = None,
) -> Post:
    """One post. `signatures`: the bodies of the signatures read on this page so far, by
    their HTML (a user's signature repeats under each of their posts)."""
    attributes = node.attributes  # built anew on each access: read it once
    post_id = (attributes.get("id") or "")[1:]
    where = N_("post p{post}").format(post=post_id)
    link = profile_link(author_line) or node.css_first(selectors.profile_name)
    author = text_of(link)
    if link is None or not author:
        raise LayoutChanged(url, N_("{where} has no author").format(where=where))
    author_id = user_id_from(link.attributes.get("href"))

    posted_at = _post_time(author_line, selectors, url, where, tz=tz, now=now, lang=lang)

    content = node.css_first(selectors.content)
    deleted = "deleted" in (attributes.get("class") or "").split()
    if content is None and not deleted:
        raise LayoutChanged(
            url,
            N_("{where} has no content ({selectors_content})").format(
                where=where, selectors_content=selectors.content
            ),
        )
    body = (
        html_to_postbody(content, base_url=url, look=PHPBB, post=node)
        if content is not None
        else None
    )
    signature = node.css_first(selectors.signature)
    if body is not None and signature is not None:
        # A node's body is read from its subtree alone, never from an `id` (which phpBB
        # numbers by post: `sig<post id>`): the same tag, other attributes and inner HTML
        # give the same body.
        signed_by = sorted(signature.attributes.items())
        key = (signature.tag, *(a for a in signed_by if a[0] != "id"), signature.inner_html)
        signed = signatures.get(key)
        if signed is None:
            signed = signatures[key] = html_to_postbody(signature, base_url=url)
        body = concat_bodies(body, signed)

    edit = None
    for notice in node.css(selectors.edit_notice):
        edit = parse_edit_notice(notice, tz=tz, now=now)
        if edit is not None:
            break

    return Post(
        id=post_id,
        thread_id=thread_id,
        number=number,
        author=author,
        author_id=author_id,
        posted_at=posted_at,
        body=body if body is not None else PostBody(),
        url=f"{viewtopic}?p={post_id}#p{post_id}",
        edit=edit,
        deleted=deleted,
        raw=content.inner_html if content is not None else None,
    )


def _post_time(
    author_line: LexborNode | None,
    selectors: TopicSelectors,
    url: str,
    where: str,
    *,
    tz: tzinfo,
    now: datetime,
    lang: str | None = None,
) -> datetime:
    if author_line is None:
        raise LayoutChanged(
            url,
            N_("{where} has no author line ({selectors_author_line})").format(
                where=where, selectors_author_line=selectors.author_line
            ),
        )
    stamp = author_line.css_first(selectors.time)
    if stamp is not None:
        value = (stamp.attributes.get("datetime") or "").strip()
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            parsed = None
        if parsed is not None and parsed.tzinfo is not None:
            return parsed.astimezone(tz)
        shown = text_of(stamp)
    else:
        # phpBB 3.0: "by <a>Name</a> » Sun May 26, 2019 4:34 pm"
        text = text_of(author_line)
        shown = text.rsplit("»", 1)[1].strip() if "»" in text else ""
    if not shown:
        raise LayoutChanged(url, N_("{where} has no time").format(where=where))
    try:
        return parse_board_time(shown, tz=tz, now=now, lang=lang)
    except ValueError:
        raise LayoutChanged(
            url, N_("{where} has an unreadable time {shown!r}").format(where=where, shown=shown)
        ) from None


def parse_edit_notice(notice: LexborNode, *, tz: tzinfo, now: datetime) -> EditInfo | None:
    """EditInfo from «Последний раз редактировалось X DATE, всего редактировалось N раз» /
    "Last edited by X on DATE, edited N times in total"; None if the notice is no edit notice.
    """
    text = text_of(notice)
    link = profile_link(notice)
    editor = text_of(link) if link is not None else None
    match = _EDIT_EN.search(text)
    if match is not None:
        by = editor or match.group("by")
        at_text = match.group("at")
        if editor and text.find(editor) >= 0:
            tail = text[text.find(editor) + len(editor) :]
            tail_match = re.match(r"\s*on\s+(.+?), edited \d+", tail)
            if tail_match:
                at_text = tail_match.group(1)
        return EditInfo(by=by, at=_maybe_time(at_text, tz, now), count=int(match.group("n")))
    match = _EDIT_RU.search(text)
    if match is not None:
        rest = match.group("rest")
        if editor and rest.startswith(editor):
            by, at_text = editor, rest[len(editor) :].strip()
        else:
            by, at_text = _split_name_date(rest, tz, now)
        return EditInfo(by=by, at=_maybe_time(at_text, tz, now), count=int(match.group("n")))
    return None


_BARE_TIME = re.compile(r"^\s*(?:(?:в|at)\s*)?(\d{1,2}):(\d{2})\s*$", re.IGNORECASE)
"""«в 12:25», "at 12:25", «12:25»: the spaces before and after the word are one run each
(two optional runs side by side would try every split of a long run of spaces)."""


def _maybe_time(text: str, tz: tzinfo, now: datetime) -> datetime | None:
    try:
        return parse_board_time(text, tz=tz, now=now)
    except ValueError:
        pass
    # An edit notice of today may show the time alone («… Вася в 12:25, всего …»): today,
    # or yesterday when that would be ahead of the page (`now`).
    bare = _BARE_TIME.match(text)
    if bare is None:
        return None
    local = now.astimezone(tz)
    hour, minute = int(bare.group(1)), int(bare.group(2))
    if hour > 23 or minute > 59:
        return None
    when = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return when - timedelta(days=1) if when > local + timedelta(minutes=1) else when


def _split_name_date(rest: str, tz: tzinfo, now: datetime) -> tuple[str | None, str]:
    words = rest.split(" ")
    for i in range(1, len(words)):
        candidate = " ".join(words[i:])
        if _maybe_time(candidate, tz, now) is not None:
            return " ".join(words[:i]), candidate
    return None, rest


# --- the structural reading: a style's classes not needed -------------------------------

_POST_ANCHOR = re.compile(r"p(\d+)")


def _phpbb_post_id(node: LexborNode) -> str | None:
    attributes = node.attributes
    match = _POST_ANCHOR.fullmatch(attributes.get("id") or attributes.get("name") or "")
    return match.group(1) if match else None


PHPBB_MARKS = EngineMarks(
    post_id=_phpbb_post_id,
    anchor_selector="[id^='p'], a[name^='p']",
    # memberlist.php?mode=viewprofile&u=2 (a static copy may rename the script)
    profile=re.compile(r"[?&](?:amp;)?mode=viewprofile&(?:amp;)?u=(\d+)"),
    # phpBB's own code (get_username_string), not the style, prints these classes.
    author_classes=("username", "username-coloured"),
    author_attributes=("data-poster-name",),
)
"""What every phpBB 3 topic page marks a post with, whatever its style."""


def page_language(tree: LexborHTMLParser) -> str | None:
    """The page's language from `<html lang>` / `xml:lang` ("fr", "it"), None if unsaid."""
    html = tree.css_first("html")
    if html is None:
        return None
    attributes = html.attributes
    return language_of(attributes.get("lang") or attributes.get("xml:lang"))


def is_edit_notice(text: str) -> bool:
    return bool(_EDIT_EN.search(text) or _EDIT_RU.search(text))


def structural_posts(
    tree: LexborHTMLParser, url: str, *, tz: tzinfo, now: datetime, lang: str | None
) -> list[Skeleton]:
    """The page's posts found by their marks (`id="pNNN"`, the profile link, the time);
    [] when the page has no post anchor. A post without an author is a layout change."""

    def read(text: str) -> datetime:
        return parse_board_time(text, tz=tz, now=now, lang=lang)

    skeletons = []
    for post_id, node in containers(tree, PHPBB_MARKS):
        skeleton = read_skeleton(post_id, node, PHPBB_MARKS, read)
        if skeleton is None:
            if node.css_first("textarea, input[type='submit']") is not None:
                continue  # the reply form's preview or a poll, not a post
            raise LayoutChanged(
                url,
                N_("post p{post_id} has no author (no profile link or name)").format(
                    post_id=post_id
                ),
            )
        skeletons.append(skeleton)
    choose_content(skeletons, is_edit_notice)
    return skeletons


def _page_of(
    tree: LexborHTMLParser,
    url: str,
    selectors: TopicSelectors,
    skeletons: list[Skeleton],
    *,
    tz: tzinfo,
    now: datetime,
    lang: str | None,
) -> TopicPage:
    thread_id = _thread_id(tree, url, selectors)
    if thread_id is None:
        raise LayoutChanged(url, N_("no topic id (no t= in the URL, title or links)"))
    title = text_of(tree.css_first("h2.topic-title, #page-body h2, h2, h1")) or _title_from_head(
        tree
    )
    pagination = tree.css(selectors.pagination)
    numbers = page_numbers(pagination) or _page_of_text(tree)
    page, pages = numbers if numbers is not None else (1, 1)
    per_page = _per_page(tree, pagination)
    if per_page is None:
        per_page = DEFAULT_PER_PAGE if len(skeletons) <= DEFAULT_PER_PAGE else len(skeletons)
        if pages > 1 and page < pages:
            per_page = len(skeletons)
    url_start = query_param(url, "start")
    if url_start is not None and url_start.isdigit() and numbers is None:
        start = int(url_start)
        page = start // per_page + 1
    else:
        start = (page - 1) * per_page
    viewtopic = absolute(url, "./viewtopic.php")
    posts = _structural_posts_to_records(
        skeletons, url, viewtopic, thread_id, start, tz=tz, now=now, lang=lang
    )
    return TopicPage(
        url=url,
        thread_id=thread_id,
        title=title,
        posts=posts,
        page=page,
        pages=max(pages, page),
        per_page=per_page,
        start=start,
        total_posts=_total_posts(pagination),
        logged_in_as=logged_in_as(tree),
    )


_PAGE_OF_ANY = re.compile(r"(\d+)\s*\D{1,12}?\s*(\d+)")


def _page_of_text(tree: LexborHTMLParser) -> tuple[int, int] | None:
    """ "Page 1 of 3" in any language («Page 1 sur 1», «Pagina 2 di 5»): the two numbers of a
    pagination-like block whose first is in <strong>."""
    seen: set[int] = set()
    for node in tree.css("strong"):
        parent = node.parent
        if parent is None or parent.mem_id in seen:
            continue
        seen.add(parent.mem_id)
        strongs = [text_of(n) for n in parent.iter() if n.tag == "strong"][:3]
        if len(strongs) == 2 and all(s.isdigit() for s in strongs):
            page, pages = int(strongs[0]), int(strongs[1])
            if 1 <= page <= pages:
                return page, pages
    return None


def _structural_posts_to_records(
    skeletons: list[Skeleton],
    url: str,
    viewtopic: str,
    thread_id: str,
    start: int,
    *,
    tz: tzinfo,
    now: datetime,
    lang: str | None,
) -> list[Post]:
    posts = []
    signatures: dict[str, PostBody] = {}
    for index, skeleton in enumerate(skeletons):
        where = N_("post p{post}").format(post=skeleton.post_id)
        posted_at = zone_time(skeleton, tz)
        if posted_at is None and skeleton.time_text is not None:
            posted_at = parse_board_time(skeleton.time_text, tz=tz, now=now, lang=lang)
        if posted_at is None:
            raise LayoutChanged(
                url, N_("{where} has no time (read by the post's marks)").format(where=where)
            )
        if skeleton.content is None:
            raise LayoutChanged(
                url, N_("{where} has no content (read by the post's marks)").format(where=where)
            )
        body = html_to_postbody(skeleton.content, base_url=url, look=PHPBB)
        if skeleton.signature is not None:
            key = skeleton.signature.html or ""
            key = key.replace(f"sig{skeleton.post_id}", "sig")
            signed = signatures.get(key)
            if signed is None:
                signed = signatures[key] = as_signature(
                    html_to_postbody(skeleton.signature, base_url=url)
                )
            body = concat_bodies(body, signed)
        edit = None
        for notice in skeleton.notices:
            edit = parse_edit_notice(notice, tz=tz, now=now)
            if edit is not None:
                break
        posts.append(
            Post(
                id=skeleton.post_id,
                thread_id=thread_id,
                number=start + index + 1,
                author=skeleton.author,
                author_id=skeleton.author_id,
                posted_at=posted_at,
                body=body,
                url=f"{viewtopic}?p={skeleton.post_id}#p{skeleton.post_id}",
                edit=edit,
                deleted=False,
                raw=skeleton.content.inner_html,
            )
        )
    return posts
