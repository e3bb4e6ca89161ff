"""Reading a post by what the engine itself prints, not by a style's classes.

Every phpBB, MyBB or XenForo page carries marks no style can take away: the post's anchor
(`id="p123"`, `id="post_123"`, `data-content="post-123"`), the author's profile link
(`memberlist.php?mode=viewprofile&u=2`, `member.php?action=profile&uid=2`,
`/members/name.2/`), a link to the post itself, and a machine-readable time where the
engine prints one (`<time datetime>`, `data-time`, `data-posttime`). The adapters' CSS
selectors stay the fast path; when a style defeats them, this is the reading they fall back
to. Pure and linear: each post's subtree is walked a bounded number of times.

The post's own content block is the block that holds none of those marks (the author, the
time, the link to the post) and, across the posts of one page, holds the most text at the
same place in the template: a profile column ("Posts: 12", "Joined: …") is short and alike
in every post, the message is not. A signature (`id="sig123"`, class `signature`) and an
edit notice are read apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.records import PostBody

__all__ = [
    "EngineMarks",
    "Skeleton",
    "as_signature",
    "choose_content",
    "containers",
    "mark_blocks",
    "read_skeleton",
    "row_of",
]

_WS = re.compile(r"\s+")
_ISO = re.compile(
    r"^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?$"
)
_EPOCH = re.compile(r"^\d{9,11}$")
_CLOCK = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?:\s*[AaPp]\.?[Mm]\.?)?")
_LABEL = re.compile(r"^\s*[^\W\d_][^\s:]{1,23}(?:\s[^\s:\d]{1,24})?\s*:")
"""A profile field's label ("Joined:", «Inscription :», «Зарегистрирован:»): not a post time."""
_BLOCKS = frozenset({"div", "td", "section", "article", "blockquote"})
"""Tags a post's content block can be (XenForo 1's is `blockquote.messageText`)."""
_WRAPPERS = frozenset({"div", "article", "section"})
_TIME_ATTRIBUTES = ("datetime", "data-time", "data-posttime", "data-timestamp", "data-date")
_MACHINE_SELECTOR = ", ".join(f"[{a}]" for a in _TIME_ATTRIBUTES)


@dataclass(frozen=True)
class EngineMarks:
    """What one engine prints in every post, whatever the style."""

    post_id: Callable[[LexborNode], str | None]
    """The post id from an element's attributes, None when the element is no post anchor."""
    anchor_selector: str
    """A CSS selector that finds every candidate anchor (checked again by `post_id`)."""
    profile: re.Pattern[str]
    """A profile link's href; group 1 is the user id."""
    author_classes: tuple[str, ...] = ()
    """Classes the engine's own code (not the style) puts on a user name."""
    author_attributes: tuple[str, ...] = ()
    """Attributes that carry the author's name (`data-author`, `data-poster-name`)."""
    self_link: Callable[[str], re.Pattern[str]] = lambda post_id: re.compile(
        rf"#p{post_id}$|[?&]p={post_id}\b"
    )
    """A link to the post itself (its subject or permalink), from the post id."""
    skip_author_in: str = "blockquote, cite"
    """Where a profile link is not the author's (a quote's header)."""
    notice: Callable[[str], bool] | None = None
    """An edit notice's text ("Last edited: …"): its time is not the post's (None: the
    engine's notices come after the post's time, nothing to skip)."""


@dataclass
class Skeleton:
    """One post as found by its marks."""

    node: LexborNode
    post_id: str
    author: str
    author_id: str | None
    author_node: LexborNode | None
    time: datetime | None
    """An aware time from the markup (`datetime`, Unix seconds), else None."""
    time_text: str | None
    """The printed time (read by the engine's date reader), else None."""
    time_node: LexborNode | None
    naive_time: datetime | None = None
    """A machine time without a zone (`data-date="2020-04-30 11:16:53"`): the board's."""
    blocks: list[tuple[str, LexborNode]] = field(default_factory=list)
    """Marker-free blocks, each with its place in the template."""
    signature: LexborNode | None = None
    content: LexborNode | None = None
    notices: list[LexborNode] = field(default_factory=list)


def text_of(node: LexborNode | None) -> str:
    if node is None:
        return ""
    return _WS.sub(" ", node.text(deep=True, separator="", strip=False)).strip()


def containers(tree: LexborHTMLParser, marks: EngineMarks) -> list[tuple[str, LexborNode]]:
    """(post id, the post's element) in page order. An empty anchor (`<a id="p12"></a>`) is
    not the post: the post is its largest ancestor that holds no other post's anchor."""
    anchors = [
        (post_id, node)
        for node in tree.css(marks.anchor_selector)
        if (post_id := marks.post_id(node)) is not None
    ]
    seen: set[str] = set()
    found: list[tuple[str, LexborNode]] = []
    for post_id, node in anchors:
        if post_id in seen:
            continue
        if not text_of(node):
            node = _climb(node, marks)
        seen.add(post_id)
        found.append((post_id, node))
    # A post inside another (a quoted post's anchor): keep the outer one only. One walk up
    # from each post: linear in the page's depth, whatever the number of posts.
    ids = {node.mem_id for _, node in found}
    kept = []
    for post_id, node in found:
        parent = node.parent
        while parent is not None and parent.mem_id not in ids:
            parent = parent.parent
        if parent is None:
            kept.append((post_id, node))
    return kept


def _climb(node: LexborNode, marks: EngineMarks) -> LexborNode:
    best = node
    parent = node.parent
    while parent is not None and parent.tag not in ("body", "html"):
        ids = {marks.post_id(n) for n in parent.css(marks.anchor_selector)} - {None}
        if len(ids) > 1:
            break
        best = parent
        parent = parent.parent
    return best


def inside(root: LexborNode, selector: str) -> set[int]:
    """The ids (`mem_id`) of every node inside an element matching `selector` (a CSS
    selector: tag names), each node counted once: a quote nested in a quote is skipped, its
    nodes already in — nested quotes cost no more than flat ones."""
    found: set[int] = set()
    for outer in root.css(selector):
        if outer.mem_id in found or outer.mem_id == root.mem_id:
            continue
        found.update(n.mem_id for n in outer.traverse(include_text=True))
    return found


def head_text(node: LexborNode, cache: dict[int, str], limit: int = 120) -> str:
    """The start of what an element says of its own — its text children and its element
    children's own text ("<strong>Joined:</strong> …", "Last edited: <time>") — without
    reading its whole subtree (cached: each element once)."""
    known = cache.get(node.mem_id)
    if known is not None:
        return known
    parts: list[str] = []
    size = 0
    child = node.child
    while child is not None and size < limit:
        if child.tag == "-text":
            piece = child.text_content or ""
        elif child.tag == "-comment":
            piece = ""
        else:
            piece = child.text(deep=False) or ""
        parts.append(piece)
        size += len(piece)
        child = child.next
    head = _WS.sub(" ", "".join(parts)).strip()[:limit]
    cache[node.mem_id] = head
    return head


def own_text(node: LexborNode, cache: dict[int, str], limit: int = 120) -> str:
    """The start of an element's own text nodes ("Last edited: " of `<div>Last edited:
    <time>…`), its children's words left out (cached: each element once)."""
    known = cache.get(node.mem_id)
    if known is not None:
        return known
    parts: list[str] = []
    size = 0
    child = node.child
    while child is not None and size < limit:
        if child.tag == "-text":
            piece = child.text_content or ""
            parts.append(piece)
            size += len(piece)
        child = child.next
    text = _WS.sub(" ", "".join(parts)).strip()[:limit]
    cache[node.mem_id] = text
    return text


def read_skeleton(
    post_id: str, node: LexborNode, marks: EngineMarks, read_time: Callable[[str], datetime]
) -> Skeleton | None:
    """The author, the time and the marker-free blocks of one post; None without an author.

    `read_time` reads a printed time in the board's zone and language (ValueError if it
    cannot)."""
    author_node, author, author_id = _author(node, marks)
    if not author:
        return None
    time, naive, time_text, time_node = _time(node, marks.notice, read_time)
    self_link = marks.self_link(post_id)
    markers: list[LexborNode] = [n for n in (author_node, time_node) if n is not None]
    for link in node.css("a[href]"):
        if self_link.search(link.attributes.get("href") or ""):
            markers.append(link)
            break
    skeleton = Skeleton(node, post_id, author, author_id, author_node, time, time_text, time_node)
    skeleton.naive_time = naive
    mark_blocks(skeleton, markers)
    return skeleton


def _author(node: LexborNode, marks: EngineMarks) -> tuple[LexborNode | None, str, str | None]:
    quoted = inside(node, marks.skip_author_in)
    for link in node.css("a[href]"):
        match = marks.profile.search(link.attributes.get("href") or "")
        if match is None or link.mem_id in quoted:
            continue
        name = text_of(link)
        if name:
            return link, name, match.group(1)
    if marks.author_classes:
        selector = ", ".join(f".{c}" for c in marks.author_classes)
        for found in node.css(selector):
            if found.mem_id in quoted:
                continue
            name = text_of(found)
            if name:
                return found, name, None
    for attribute in marks.author_attributes:
        for found in node.css(f"[{attribute}]"):
            name = (found.attributes.get(attribute) or "").strip()
            if name and found.tag not in ("blockquote",):
                return found, name, None
    return None, "", None


def _time(
    node: LexborNode,
    notice: Callable[[str], bool] | None,
    read_time: Callable[[str], datetime],
) -> tuple[datetime | None, datetime | None, str | None, LexborNode | None]:
    """(aware time, naive machine time, printed time, its element): the first time in the
    post's document order outside any quote — a machine attribute (`datetime`,
    `data-time`, `data-posttime`, `data-date`), a date in a `title` ("Yesterday" titled
    "11-29-2026", the clock beside it), or a printed date. The post's own header comes
    before its body and its edit notice."""
    quoted = inside(node, "blockquote")
    heads: dict[int, str] = {}
    owns: dict[int, str] = {}
    # The elements worth a look at their attributes, found by the parser's own selectors
    # (building an element's attributes is the walk's dearest step).
    machine = {n.mem_id for n in node.css(_MACHINE_SELECTOR)}
    titled = {n.mem_id for n in node.css("[title]")}
    for element in node.traverse(include_text=True):
        if element.mem_id in quoted:
            continue
        parent = element.parent
        if notice is not None and parent is not None and notice(own_text(parent, owns)):
            # An edit notice's time is not the post's: nothing inside the notice counts (each
            # notice is walked once, its nodes then skipped).
            quoted.update(n.mem_id for n in parent.traverse(include_text=True))
            continue
        if element.tag == "-text":
            found = _printed(element, quoted, read_time, heads)
            if found is not None:
                # The same moment to the second in a machine attribute further on (Milk's
                # hidden `data-posttime`) is the more exact reading of it.
                exact = _machine_time_near(node, quoted, read_time(found[0]))
                if exact is not None:
                    return exact, None, None, found[1]
                return None, None, found[0], found[1]
            continue
        if element.mem_id in machine:
            aware, naive = _machine_time(element)
            if aware is not None or naive is not None:
                return aware, naive, None, element
        if element.mem_id not in titled:
            continue
        title = (element.attributes.get("title") or "").strip()
        if title and len(title) <= 60 and any(c.isdigit() for c in title):
            holder = element.parent or element
            clock = _CLOCK.search(head_text(holder, heads))
            piece = title if _CLOCK.search(title) or clock is None else f"{title} {clock.group(0)}"
            try:
                read_time(piece)
            except ValueError:
                continue
            return None, None, piece, holder
    return None, None, None, None


def _machine_time(element: LexborNode) -> tuple[datetime | None, datetime | None]:
    """(aware, naive) from the element's `datetime`/`data-time`/… attribute, if any."""
    attributes = element.attributes
    for attribute in _TIME_ATTRIBUTES:
        value = (attributes.get(attribute) or "").strip()
        if not value:
            continue
        if _EPOCH.match(value):
            return datetime.fromtimestamp(int(value), UTC), None
        if _ISO.match(value):
            try:
                parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T"))
            except ValueError:
                continue
            return (parsed, None) if parsed.tzinfo is not None else (None, parsed)
    return None, None


def _machine_time_near(node: LexborNode, quoted: set[int], shown: datetime) -> datetime | None:
    selector = ", ".join(f"[{a}]" for a in _TIME_ATTRIBUTES)
    for element in node.css(selector):
        if element.mem_id in quoted:
            continue
        aware, _ = _machine_time(element)
        if aware is not None and abs((aware - shown).total_seconds()) < 60:
            return aware
    return None


def _printed(
    text: LexborNode,
    quoted: set[int],
    read_time: Callable[[str], datetime],
    heads: dict[int, str],
) -> tuple[str, LexborNode] | None:
    parent = text.parent
    if parent is None or parent.mem_id in quoted:
        return None
    shown = _WS.sub(" ", text.text_content or "").strip(" »«|-–—\u00a0")
    if not (6 <= len(shown) <= 80) or not any(c.isdigit() for c in shown):
        return None
    if _LABEL.match(head_text(parent, heads)):
        return None
    for piece in _tails(shown):
        try:
            read_time(piece)
        except ValueError:
            continue
        return piece, parent
    return None


def _tails(shown: str) -> list[str]:
    """The text, then what follows its last "»", "on", «le», ",": "by Name » Sun May 26,
    2019 4:34 pm" and "Posted on Apr 30, 2020" hold the time at their end."""
    pieces = [shown]
    if "»" in shown:
        pieces.append(shown.rsplit("»", 1)[1].strip())
    words = shown.split(" ")
    for start in range(1, min(len(words), 6)):
        pieces.append(" ".join(words[start:]))
    return pieces


def mark_blocks(skeleton: Skeleton, markers: Sequence[LexborNode]) -> None:
    """The post's marker-free blocks: the children of the markers' ancestors that hold no
    marker, each keyed by its place in the template (tag path and order)."""
    holders: set[int] = set()
    root = skeleton.node
    for marker in markers:
        current: LexborNode | None = marker
        while current is not None:
            holders.add(current.mem_id)
            if current.mem_id == root.mem_id:
                break
            current = current.parent
    holders.add(root.mem_id)
    order: dict[str, int] = {}

    def visit(node: LexborNode, path: str) -> None:
        child = node.child
        while child is not None:
            if child.tag in ("-text", "-comment") or child.tag is None:
                child = child.next
                continue
            place = f"{path}/{child.tag}"
            if child.mem_id in holders:
                visit(child, place)
            elif _is_signature(child, skeleton.post_id):
                skeleton.signature = skeleton.signature or child
            elif child.tag in _BLOCKS and text_of(child):
                index = order.get(place, 0)
                order[place] = index + 1
                skeleton.blocks.append((f"{place}#{index}", child))
            child = child.next

    visit(root, "")


def _is_signature(node: LexborNode, post_id: str) -> bool:
    ident = (node.attributes.get("id") or "").lower()
    classes = (node.attributes.get("class") or "").lower().split()
    return ident == f"sig{post_id}" or "signature" in classes or "message-signature" in classes


def _descend(block: LexborNode, skeleton: Skeleton, notice: Callable[[str], bool]) -> LexborNode:
    """Into a wrapper that holds the message beside empty blocks, a signature, an edit
    notice or a row of links («<div class=vtcontent><div buttons/><div content/><div sig/>
    </div>», XenForo's message-content with its lastEdit and `<aside>` signature): the one
    child that is the message. A block with text of its own, or a single child, is the
    message itself."""
    for _ in range(12):  # wrappers are shallow; a deeper nest is the message itself
        own_text = False
        children: list[LexborNode] = []
        child: LexborNode | None = block.child
        while child is not None:
            if child.tag == "-text":
                own_text = own_text or bool((child.text_content or "").strip())
            elif child.tag not in ("-comment", None):
                children.append(child)
            child = child.next
        if own_text or not children:
            return block
        if len(children) == 1:
            # A bare wrapper (XenForo's message-userContent > article > div): go in, but
            # never into a quote, a list or a code block — those are the message's own.
            only = children[0]
            if only.tag in _WRAPPERS and text_of(only) == text_of(block):
                block = only
                continue
            return block
        message: list[LexborNode] = []
        for c in children:
            text = text_of(c)
            if not text:
                continue
            if _is_signature(c, skeleton.post_id) or c.tag == "aside":
                skeleton.signature = skeleton.signature or c
            elif notice(text):
                skeleton.notices.append(c)
            elif _links_only(c, text) and c.tag not in ("blockquote",):
                continue
            else:
                message.append(c)
        if len(message) != 1 or message[0].tag not in _WRAPPERS:
            return block  # never into a quote: it stays the message's quote
        block = message[0]
    return block


def choose_content(skeletons: Sequence[Skeleton], notice: Callable[[str], bool]) -> None:
    """Each post's content block: the template place that holds the most text over the
    page (a label-like block — "Posts: 12" — counts a quarter). Blocks whose text is an
    edit notice (`notice`) are notices, never content."""
    totals: dict[str, float] = {}
    for skeleton in skeletons:
        for place, block in skeleton.blocks:
            text = text_of(block)
            if notice(text):
                continue
            weight = 0.25 if _LABEL.match(text) else 1.0
            if _links_only(block, text):
                weight = 0.01  # "Back to top", a buttons row: navigation, not a message
            totals[place] = totals.get(place, 0.0) + weight * len(text)
    ranked = sorted(totals, key=lambda p: totals[p], reverse=True)
    for skeleton in skeletons:
        mine = dict(skeleton.blocks)
        skeleton.notices = [b for _, b in skeleton.blocks if notice(text_of(b))]
        for place in ranked:
            held = mine.get(place)
            if held is None or notice(text_of(held)):
                continue
            # The page's own content place, or a message-like block of this post's own: a
            # "Back to top" link or a profile field is never a message.
            text = text_of(held)
            if place == ranked[0] or not (_LABEL.match(text) or _links_only(held, text)):
                skeleton.content = _descend(held, skeleton, notice)
            break


def zone_time(skeleton: Skeleton, tz: tzinfo) -> datetime | None:
    """The post's machine time in the board's zone (a naive one is the board's own)."""
    if skeleton.time is not None:
        return skeleton.time.astimezone(tz)
    if skeleton.naive_time is not None:
        return skeleton.naive_time.replace(tzinfo=tz)
    return None


def row_of(link: LexborNode, is_row_link: Callable[[LexborNode], str | None]) -> LexborNode:
    """The list row a link (a PM's subject) stands in: its largest ancestor that holds no
    other row's link."""
    own = is_row_link(link)
    best = link
    parent = link.parent
    while parent is not None and parent.tag not in ("body", "html", "form"):
        others = {is_row_link(a) for a in parent.css("a[href]")} - {None, own}
        if others:
            break
        best = parent
        parent = parent.parent
    return best


def _links_only(block: LexborNode, text: str) -> bool:
    linked = sum(len(text_of(a)) for a in block.css("a"))
    return linked >= len(text.replace(" ", "")) > 0 or linked >= len(text) > 0


def as_signature(body: PostBody) -> PostBody:
    """A signature's runs flagged as such (the class that says so may be renamed away)."""
    return PostBody(
        tuple(run if run.signature else replace(run, signature=True) for run in body.runs),
        body.links,
    )
