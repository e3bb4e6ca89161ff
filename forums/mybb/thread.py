"""A MyBB thread page (`showthread.php`, linear mode) → `TopicPage` with its `Post`s. Pure.

`TopicPage` is the phpBB adapter's record of a page (the same fields: page, pages, per page,
the posts); `total_posts` is known on the last page only (MyBB prints no count).

- A soft-deleted post is served to members as a stub (`div.deleted_post_hidden`: the
  author's name and "This post has been deleted.", no date, no text): it becomes a Post
  with `deleted=True`, an empty body and no `raw`, never a post with text. Its time is not
  on the page: the caller's `known_times` gives it when the post was seen before, else the
  neighbouring post's time stands in (it lies between them), so it stays in its place.
- Moderators see the deleted post in full (`div.deleted_post`) and posts awaiting approval
  (`div.unapproved_post`): both are `deleted=True` with their text — neither is public.
- A page that yields no posts, a post without an author or a time, a threaded-mode page or
  a page that is not a thread raises `LayoutChanged(url, what)`: never "no posts".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from urllib.parse import urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import N_, LayoutChanged
from forums.html import parse_html
from forums.mybb import forms
from forums.mybb.dates import node_time, parse_mybb_time
from forums.mybb.html import mybb_postbody
from forums.mybb.selectors import DEFAULT, MybbSelectors
from forums.pages import TopicPage, Undated, page_size, place_undated
from forums.records import EditInfo, Post, PostBody, User
from forums.structure import EngineMarks, Skeleton, choose_content, containers, read_skeleton

__all__ = ["DEFAULT_PER_PAGE", "TopicPage", "parse_edit_notice", "parse_thread_page"]

DEFAULT_PER_PAGE = 10
"""MyBB's default `postsperpage`, used only when no full page shows the real size."""

_NUMBER = re.compile(r"#(\d+)")


@dataclass(frozen=True)
class _Clock:
    tz: tzinfo
    now: datetime
    order: str


def thread_id_of(tree: LexborHTMLParser, url: str) -> str | None:
    """The thread id: `tid=` in the URL, the reply form, the reply button, the post links."""
    for candidate in (url, *(a.attributes.get("href") or "" for a in tree.css("a[href*='tid=']"))):
        tid = forms.query_param(candidate, "tid")
        if tid and tid.isdigit():
            return tid
    hidden = tree.css_first("input[name=tid]")
    if hidden is not None and (hidden.attributes.get("value") or "").isdigit():
        return hidden.attributes.get("value")
    return forms.seo_thread_id(urlsplit(url).path)


def parse_thread_page(
    html: str,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    order: str = "mdy",
    per_page: int | None = None,
    known_times: Mapping[str, datetime] | None = None,
    selectors: MybbSelectors = DEFAULT,
) -> TopicPage:
    """Parse one `showthread.php` page. `per_page` is the board's page size if known (it
    can be read only off a page that is not the last)."""
    sel = selectors
    tree = parse_html(html)
    nodes = tree.css(f"{sel.posts} {sel.post}")
    if not nodes:
        if structural_posts(tree, order=order, tz=tz, now=now, url=url):
            return _structural_page(tree, url, tz=tz, now=now, order=order, per_page=per_page)
        raise LayoutChanged(url, _why_no_posts(tree, url, sel))
    if tree.css_first(sel.linear_mode_link) is not None:
        raise LayoutChanged(
            url,
            N_(
                "a threaded-mode page (one post and a reply tree): forumgm reads threads in linear "
                "mode; set the GM account's thread view to Linear (User CP → Edit Options)"
            ),
        )
    thread_id = thread_id_of(tree, url)
    if thread_id is None:
        raise LayoutChanged(url, N_("no thread id (no tid= in the URL or the page's links)"))
    title = forms.text_of(tree.css_first(sel.breadcrumb_active)) or forms.text_of(
        tree.css_first("title")
    )
    page, pages = forms.pagination(tree, sel)
    size = page_size(len(nodes), page, pages, per_page, DEFAULT_PER_PAGE)
    start = (page - 1) * size
    clock = _Clock(tz, now, order)
    try:
        parsed = [
            _parse_post(node, sel, url, thread_id, start + index + 1, clock)
            for index, node in enumerate(nodes)
        ]
    except LayoutChanged as failed:
        # A theme that keeps `div.post` but moves the author, the date or the body: the
        # post's marks still say them; when they do not either, the selectors' complaint
        # is the clearer one.
        try:
            skeletons = structural_posts(tree, order=order, tz=tz, now=now, url=url)
            parsed = [
                _structural_post(sk, url, thread_id, start + i + 1, clock)
                for i, sk in enumerate(skeletons)
            ]
            posts = place_undated(parsed, known_times or {}, url)
        except LayoutChanged:
            raise failed from None
        if not parsed:
            raise
    else:
        posts = place_undated(parsed, known_times or {}, url)
    me = forms.logged_in_user(tree, sel)
    shown = me.name if me is not None else None
    return TopicPage.numbered(url, thread_id, title, posts, (page, pages, size), shown)


def _why_no_posts(tree: LexborHTMLParser, url: str, sel: MybbSelectors) -> str:
    kind = forms.classify(tree, url, sel)
    said = forms.message(tree, sel)
    if kind is forms.PageKind.NOT_LOGGED_IN:
        return "not a thread page: the board says not logged in / no permission"
    if kind is not forms.PageKind.UNKNOWN:
        return f"not a thread page: a {kind.value} page" + (f" ({said})" if said else "")
    if tree.css_first("div.post, div.post_body") is not None:
        return f"posts found, but not as {sel.posts} {sel.post} (selectors: {sel.name})"
    return f"no posts found (selectors: {sel.name})"


def author_of(
    node: LexborNode, sel: MybbSelectors, *, stub: bool = False
) -> tuple[User | None, str]:
    """The author of a post (or PM) block: their profile link, else the shown name."""
    block = node.css_first(sel.stub_author if stub else sel.author_name)
    if block is None:
        return None, ""
    user = forms.user_from_link(
        block.css_first(sel.member_link) if stub else node.css_first(sel.author_link)
    )
    return user, user.name if user is not None else forms.text_of(block)


def _parse_post(
    node: LexborNode,
    sel: MybbSelectors,
    url: str,
    thread_id: str,
    number: int,
    clock: _Clock,
) -> Post | Undated:
    post_id = (node.attributes.get("id") or "").removeprefix("post_")
    where = N_("post {post}").format(post=post_id)
    if not post_id.isdigit():
        raise LayoutChanged(
            url,
            N_("a post with an unreadable id {value!r}").format(value=node.attributes.get("id")),
        )
    classes = set((node.attributes.get("class") or "").split())
    stub = "deleted_post_hidden" in classes
    user, author = author_of(node, sel, stub=stub)
    if not author:
        raise LayoutChanged(
            url,
            N_("{where} has no author ({sel_author_name})").format(
                where=where, sel_author_name=sel.author_name
            ),
        )
    shown = _NUMBER.search(forms.text_of(node.css_first(sel.post_number)))
    base = Post(
        id=post_id,
        thread_id=thread_id,
        number=int(shown.group(1)) if shown else number,
        author=author,
        author_id=user.id if user is not None else None,
        posted_at=clock.now,
        body=PostBody(),
        url=urljoin(url, f"showthread.php?tid={thread_id}&pid={post_id}#pid{post_id}"),
        deleted=True,
    )
    if stub:
        return Undated(base)
    date = node.css_first(sel.post_date)
    if date is None:
        raise LayoutChanged(
            url,
            N_("{where} has no date ({sel_post_date})").format(
                where=where, sel_post_date=sel.post_date
            ),
        )
    try:
        skip = f"span.post_edit, {sel.edit_notice}"
        posted_at = node_time(date, tz=clock.tz, now=clock.now, order=clock.order, skip=skip)
    except ValueError as exc:
        raise LayoutChanged(
            url, N_("{where} has an unreadable time: {exc}").format(where=where, exc=exc)
        ) from None
    content = node.css_first(sel.body)
    if content is None:
        raise LayoutChanged(
            url, N_("{where} has no body ({sel_body})").format(where=where, sel_body=sel.body)
        )
    notice = node.css_first(sel.edit_notice)
    return replace(
        base,
        posted_at=posted_at,
        body=mybb_postbody(content, base_url=url, signature=node.css_first(sel.signature)),
        edit=parse_edit_notice(notice, clock.tz, clock.now, clock.order, sel) if notice else None,
        deleted=bool(classes & {"deleted_post", "unapproved_post"}),
        raw=(content.inner_html or "").strip(),
    )


def parse_edit_notice(
    notice: LexborNode,
    tz: tzinfo,
    now: datetime,
    order: str = "mdy",
    selectors: MybbSelectors = DEFAULT,
) -> EditInfo | None:
    """EditInfo from "(This post was last modified: 11-27-2026, 08:29 AM by <a>Лёха</a>.
    Edit Reason: …)". MyBB keeps only the last edit and counts none: `count` is 1."""
    editor = forms.user_from_link(notice.css_first(selectors.member_link))
    titled = notice.css_first("span[title]")
    at: datetime | None = None
    try:
        if titled is not None:
            # "<span title="12-06-2026">Yesterday</span>, 07:37 PM by <a>…</a>": the time
            # of a relative date follows the span, so the whole notice is read (its links
            # — the editor's name — left out).
            at = node_time(notice, tz=tz, now=now, order=order, skip=selectors.member_link)
        else:
            before: list[str] = []
            for child in notice.iter(include_text=True):
                if child.tag == "a":
                    break
                before.append(child.text(deep=True) or "")
            text = " ".join("".join(before).split())
            # The label ends with ": " (the time's own colon has no space after it).
            text = text.split(": ", 1)[1] if ": " in text else text
            text = re.sub(r"\s+(?:by|пользователем|от)\s*$", "", text)
            at = parse_mybb_time(text, tz=tz, now=now, order=order)
    except ValueError:
        at = None
    if editor is None and at is None:
        return None
    return EditInfo(by=editor.name if editor else None, at=at, count=1)


# --- the structural reading: a theme's classes not needed ---------------------------------

_POST_ANCHOR = re.compile(r"post_(\d*)")
"""`post_12`; a PM's message is `post_` (no id)."""


def _mybb_post_id(node: LexborNode) -> str | None:
    match = _POST_ANCHOR.fullmatch(node.attributes.get("id") or "")
    return match.group(1) if match else None


MYBB_MARKS = EngineMarks(
    post_id=_mybb_post_id,
    anchor_selector="[id^='post_']",
    # member.php?action=profile&uid=2, or the SEO form user-2.html
    profile=re.compile(r"(?:action=profile&(?:amp;)?uid=|/user-)(\d+)"),
    self_link=lambda post_id: re.compile(rf"[?&](?:amp;)?pid={post_id}\b|#pid{post_id}$"),
)
"""What MyBB itself prints in every post (`div#post_NNN`, `#pid_NNN` on the body,
`member.php?action=profile&uid=N`), whatever the theme."""


def structural_posts(
    tree: LexborHTMLParser, *, order: str, tz: tzinfo, now: datetime, url: str = ""
) -> list[Skeleton]:
    """The page's posts found by their marks; [] when the page has no `post_NNN` anchor."""

    def read(text: str) -> datetime:
        return parse_mybb_time(text, tz=tz, now=now, order=order)

    skeletons = []
    for post_id, node in containers(tree, MYBB_MARKS):
        skeleton = read_skeleton(post_id, node, MYBB_MARKS, read)
        if skeleton is None:
            raise LayoutChanged(
                url,
                N_("post {post_id} has no author (read by the post's marks)").format(
                    post_id=post_id
                ),
            )
        else:
            # MyBB's id on the message itself (`div#pid_12`; MyBB's quick edit needs it): a
            # thread post without it has no body — never another block read as one. A PM's
            # message has no id: its content block is found among its blocks.
            own = node.css_first(f"#pid_{post_id}") if post_id else None
            if post_id:
                skeleton.blocks = [("pid", own)] if own is not None else []
            skeletons.append(skeleton)
    choose_content(skeletons, lambda text: False)
    return skeletons


def _structural_post(
    skeleton: Skeleton, url: str, thread_id: str, number: int, clock: _Clock
) -> Post | Undated:
    where = N_("post {post}").format(post=skeleton.post_id)
    if skeleton.time_node is None and skeleton.node.css_first(f"#pid_{skeleton.post_id}") is None:
        # A soft-deleted post's stub: the author and "This post has been deleted", no date.
        return Undated(
            Post(
                id=skeleton.post_id,
                thread_id=thread_id,
                number=number,
                author=skeleton.author,
                author_id=skeleton.author_id,
                posted_at=clock.now,
                body=PostBody(),
                url=urljoin(url, f"showthread.php?tid={thread_id}&pid={skeleton.post_id}"),
                deleted=True,
            )
        )
    if skeleton.time_node is None:
        raise LayoutChanged(
            url, N_("{where} has no date (read by the post's marks)").format(where=where)
        )
    try:
        posted_at = node_time(skeleton.time_node, tz=clock.tz, now=clock.now, order=clock.order)
    except ValueError as exc:
        raise LayoutChanged(
            url, N_("{where} has an unreadable time: {exc}").format(where=where, exc=exc)
        ) from None
    if skeleton.content is None:
        raise LayoutChanged(
            url, N_("{where} has no body (read by the post's marks)").format(where=where)
        )
    body = signed_body(skeleton.content, skeleton.signature, url)
    return Post(
        id=skeleton.post_id,
        thread_id=thread_id,
        number=number,
        author=skeleton.author,
        author_id=skeleton.author_id,
        posted_at=posted_at,
        body=body,
        url=urljoin(
            url, f"showthread.php?tid={thread_id}&pid={skeleton.post_id}#pid{skeleton.post_id}"
        ),
        raw=(skeleton.content.inner_html or "").strip(),
    )


def signed_body(content: LexborNode, signature: LexborNode | None, url: str) -> PostBody:
    """The message's body, and its signature's runs flagged as such (the class that says
    so may be renamed away)."""
    from forums.html import concat_bodies
    from forums.structure import as_signature

    body = mybb_postbody(content, base_url=url)
    if signature is None:
        return body
    return concat_bodies(body, as_signature(mybb_postbody(signature, base_url=url)))


def _structural_page(
    tree: LexborHTMLParser,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    order: str,
    per_page: int | None,
) -> TopicPage:
    thread_id = thread_id_of(tree, url)
    if thread_id is None:
        raise LayoutChanged(url, N_("no thread id (no tid= in the URL or the page's links)"))
    skeletons = structural_posts(tree, order=order, tz=tz, now=now, url=url)
    page, pages = forms.pagination(tree, DEFAULT)
    size = page_size(len(skeletons), page, pages, per_page, DEFAULT_PER_PAGE)
    start = (page - 1) * size
    clock = _Clock(tz, now, order)
    parsed = [
        _structural_post(sk, url, thread_id, start + i + 1, clock) for i, sk in enumerate(skeletons)
    ]
    posts = place_undated(parsed, {}, url)
    me = forms.logged_in_user(tree, DEFAULT)
    title = forms.text_of(tree.css_first("title"))
    shown = me.name if me is not None else None
    return TopicPage.numbered(url, thread_id, title, posts, (page, pages, size), shown)
