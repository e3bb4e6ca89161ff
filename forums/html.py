"""Post HTML as boards serve it → `PostBody`, the structure the order parser reads.

Board-independent: phpBB's markup came first, MyBB and XenForo readers hand their post
nodes here too (each engine's own module only prepares its node: smilies, quote headers).

Mirrors `forums.bbcode.parse_bbcode`, so a post read from the board and the same BBCode
typed into a scenario give the same runs:

- `<blockquote>` is a quote; `quote_author` comes from its `<cite>` (the profile link in
  3.1+, the text before "wrote:"/«писал(а):» in 3.0), else from XenForo's `data-quote` /
  `data-author`; nested quotes carry the author of the innermost quote. The `<cite>` line
  itself is not text.
- `<s>`, `<del>`, `<strike>` and `text-decoration: line-through` are struck;
  `<strong>`, `<b>` and `font-weight: bold/600+` (mafiascum's `div style="font-weight:bold"`)
  are bold.
- Spoilers: `<details>` (the `summary` title is dropped), elements whose class is a
  spoiler/hidebox class (mafiascum's `div.quotecontent`, its `div.quotetitle` is dropped) and
  anything hidden with `display:none`/`visibility:hidden`: hidden text must not count.
- Code: `<code>`, `<pre>` and phpBB's code boxes (the "Code: Select all" header dropped);
  whitespace inside is kept.
- `span.bbvote` (mafiascum's `[vote]`) is a bold run on a line of its own.
- `<br>` and block elements break lines; other whitespace collapses as a browser shows it.
- Smilies and emoji (`img.smilies`, `img.emoji`, `/smilies/` images) become their `alt`
  text; other images are dropped, as `[img]` is.
- `div.signature` is flagged `signature=True` (topic pages pass it separately).
- `<a href>` gives a `Link` (made absolute against `base_url`).
- `<script>`, `<style>`, form controls and comments are dropped.

Never raises on any HTML, and reads it in linear time whatever its nesting: pages are parsed
with `parse_html`, which keeps the parser's stack of open elements shallow (below).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.records import RUN_FLAGS, Link, PostBody, TextRun, run_flags
from forums.visibility import (
    ANY,
    BIDI_CONTROLS,
    RGB,
    Look,
    invisible_color,
    reading_order_pieces,
    tiny_size,
)

__all__ = [
    "MAX_DEPTH",
    "concat_bodies",
    "html_to_postbody",
    "page_tree",
    "parse_html",
    "quote_author_from_cite",
]

_BLOCK = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "details",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "ul",
        "caption",
    ]
)
_DROP = frozenset(
    [
        "script",
        "style",
        "noscript",
        "template",
        "input",
        "button",
        "select",
        "textarea",
        "option",
        "head",
        "title",
        "iframe",
        "object",
        "embed",
        "svg",
        "video",
        "audio",
        "canvas",
        "map",
        "area",
        "meta",
        "link",
        "base",
    ]
)
_STRIKE_TAGS = frozenset({"s", "del", "strike"})
_BOLD_TAGS = frozenset({"strong", "b"})
_CODE_TAGS = frozenset({"code", "pre", "kbd", "samp", "tt"})
_SPOILER_CLASSES = frozenset(
    {
        "spoiler",
        "spoiler-body",
        "spoiler-content",
        "spoilercontent",
        "spoiler_content",
        "hidebox",
        "hidebox_content",
        "hidebox-content",
        "hidden-content",
        "quotecontent",
        "sp-body",
        "bbcode_spoiler",
        "bbCodeSpoiler-content",
        "bbCodeInlineSpoiler",
        "bbCodeSpoilerText",
    }
)
_SPOILER_TITLE_CLASSES = frozenset(
    {
        "quotetitle",
        "spoiler-title",
        "spoiler-head",
        "spoiler_title",
        "sp-head",
        "hidebox_title",
        "hidebox-title",
        "bbCodeSpoiler-button",
    }
)
_CODEBOX_CLASSES = frozenset({"codebox", "codetitle", "codecontent"})
_QUOTE_CLASSES = frozenset({"bbCodeQuote", "quotebox"})
_SMILEY_CLASSES = frozenset({"smilies", "smiley", "emoji", "smilie"})
_SMILEY_SRC = re.compile(r"smil|emoji|emoticon|twemoji", re.IGNORECASE)
_WRITES = re.compile(
    r"\s*(?:wrote|said|писал\(а\)|написал\(а\)|писала?|написала?|пишет|сказал\(а\))\s*:.*$",
    re.IGNORECASE | re.DOTALL,
)
_WS = re.compile(r"[ \t\n\r\f\v\u200b]+")
_SPACES = " \t\n\r\f\v"
"""What `_WS` collapses that str.split() splits on too."""
_ODD_SPACES = "\x1c-\x1f\x85\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000"
"""Spaces where the two differ: str.split() splits on all but U+200B, `_WS` only on U+200B
(a character class's inside)."""
_ODD_SPACE = re.compile(f"[{_ODD_SPACES}]")
_ODD_OR_BIDI = re.compile(f"[{_ODD_SPACES}{''.join(sorted(BIDI_CONTROLS))}]")
"""What sends a text node the long way: an odd space, or a bidi control (`reading_order_pieces`)."""
_FONT_WEIGHT = re.compile(r"font-weight:([a-z0-9]+)")
_INLINE = re.compile(r"display:inline(?:-block|-flex)?(?:;|!|$)")


# --- parsing in linear time ---------------------------------------------------------------
#
# An HTML parser keeps a stack of open elements, and for many tags it walks that stack: a
# <div> or <blockquote> looks for an open <p> to close, an end tag for its element, a stray
# end tag all the way down. 32,000 unclosed <div>s (or nested quotes) cost 500 million
# steps that way. `parse_html` rewrites the page first, in one pass, so that the stack never
# holds more than `MAX_DEPTH` elements the parser walks:
# - an element opened deeper than that is renamed `forumgm-<tag>` (a custom element: the
#   parser opens and closes it without looking at the stack), its end tag too; the reader
#   takes it for the tag it was (`_tag`), so a deep quote, strike or hidden colour reads as
#   written;
# - the renamed elements sit inside one <marquee> (its start before the first of them, its
#   end where the nesting comes back): a marquee is where the parser's look for formatting
#   elements to reopen (<b>, <a>, <font> below) stops, so it does not walk past them either;
#   the reader takes a marquee for no more than its content;
# - a stray end tag (its element is not open) there is dropped, as the parser would ignore it.
# A page that never nests that deep (every real one), or that is too short for the walks to
# cost much (`FEW_TAGS`), is parsed as it is.

MAX_DEPTH = 256
"""The deepest nesting parsed as written (real pages nest 10–60 deep)."""
FEW_TAGS = 4096
"""Pages with no more tags than this are parsed as they are: nested all the way down they
cost the parser some 40 ms (a thread page has 2,000–6,000 tags)."""
DEEP = "forumgm-"
"""The prefix of an element renamed for its depth."""
_FENCE = "\0marquee"
"""The marquee `bounded_nesting` puts around renamed elements, on its stack (no tag's name)."""
_DEEP_LENGTH = len(DEEP)
_TAGS = re.compile(
    r"<!--.*?(?:-->|\Z)"  # a comment
    r"|<(/?)([A-Za-z][^\s/>]*)(?:[^>\"']+|\"[^\"]*(?:\"|\Z)|'[^']*(?:'|\Z))*(?:>|\Z)"  # a tag
    r"|<[!?/][^>]*(?:>|\Z)",  # a doctype, a processing instruction, a bogus comment
    re.DOTALL,
)
_VOID = frozenset(
    [
        "area",
        "base",
        "basefont",
        "bgsound",
        "br",
        "col",
        "embed",
        "frame",
        "hr",
        "image",
        "img",
        "input",
        "keygen",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
_RAW = frozenset(
    ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]
)
"""Elements whose content is text to the parser, up to their end tag (<plaintext>: to the
end): never renamed. (<noscript>'s content is markup: this parser runs no scripts.)"""
_RAW_END: dict[str, re.Pattern[str]] = {}
_IMPLIED = {
    "p": frozenset({"p"}),
    "li": frozenset({"li"}),
    "dt": frozenset({"dd", "dt"}),
    "dd": frozenset({"dd", "dt"}),
    "option": frozenset({"option"}),
    "tr": frozenset({"tr", "td", "th"}),
    "td": frozenset({"td", "th"}),
    "th": frozenset({"td", "th"}),
}
"""Open elements a start tag closes when one of them is the current element (a new <li>
ends the last one): so the count of open elements follows the parser's."""
_WRAPPERS = {
    ("table", "tr"): ("tbody",),
    **{("table", cell): ("tbody", "tr") for cell in ("td", "th")},
    **{(group, cell): ("tr",) for group in ("tbody", "thead", "tfoot") for cell in ("td", "th")},
}
"""Elements the parser opens itself between an open element and a start tag (a <tr> right
in a <table> gets a <tbody>)."""


def _deep(tag: str) -> str:
    """`tag` renamed for its depth: once only. A body cut from a parsed page (vBulletin's,
    read again on its own) holds elements renamed already; named twice, the reader would
    no longer know a struck or quoted one for what it is."""
    return tag if tag.startswith(DEEP) else DEEP + tag


def bounded_nesting(html: str, limit: int = MAX_DEPTH, few: int = FEW_TAGS) -> str:
    """`html` with the elements opened deeper than `limit` renamed (`DEEP` + tag) and the
    stray end tags among them dropped; `html` itself when it never nests that deep, or has
    no more than `few` tags (then the parser's walks cost a few milliseconds at worst)."""
    if html.count("<") <= max(few, limit):
        return html
    stack: list[tuple[str, bool]] = []
    """Open elements: (tag, renamed); `_FENCE` is the marquee around the renamed ones."""
    open_count: dict[str, int] = {}
    fenced = False
    edits: list[tuple[int, int, str]] = []
    text_until = 0
    """The end of a raw-text element's content: what looks like tags there is text."""
    for found in _TAGS.finditer(html):
        slash, name = found.group(1, 2)
        if name is None or found.start() < text_until:
            continue
        tag = name.lower()
        if slash:  # an end tag
            if not open_count.get(tag):
                if len(stack) >= limit:
                    edits.append((found.start(), found.end(), ""))
                continue
            while stack:
                top, renamed = stack.pop()
                if top == _FENCE:
                    edits.append((found.start(), found.start(), "</marquee>"))
                    fenced = False
                    continue
                open_count[top] -= 1
                if top == tag:
                    if renamed:
                        edits.append((found.start(2), found.end(2), _deep(tag)))
                    break
            continue
        if tag in _VOID:
            continue
        implied = _IMPLIED.get(tag)
        if implied is not None and stack and stack[-1][0] in implied:
            open_count[stack.pop()[0]] -= 1
        if stack and not stack[-1][1] and len(stack) < limit:
            for wrapper in _WRAPPERS.get((stack[-1][0], tag), ()):
                stack.append((wrapper, False))  # the parser's own <tbody>, <tr> in a table
                open_count[wrapper] = open_count.get(wrapper, 0) + 1
        renamed = False
        if tag in _RAW:
            ending = _RAW_END.get(tag)
            if ending is None:
                ending = _RAW_END[tag] = re.compile(f"</{tag}", re.IGNORECASE)
            closing = ending.search(html, found.end()) if tag != "plaintext" else None
            text_until = closing.start() if closing is not None else len(html)
        elif len(stack) >= limit:
            renamed = True
            if not fenced:
                edits.append((found.start(), found.start(), "<marquee>"))
                stack.append((_FENCE, False))
                fenced = True
            edits.append((found.start(2), found.end(2), _deep(tag)))
        stack.append((tag, renamed))
        open_count[tag] = open_count.get(tag, 0) + 1
    if not edits:
        return html
    pieces: list[str] = []
    done = 0
    for start, stop, text in edits:
        pieces += (html[done:start], text)
        done = stop
    pieces.append(html[done:])
    return "".join(pieces)


_BOUNDED: dict[str, str] = {}
"""The last pages `bounded_nesting` made safe: an adapter parses one page several times (what
kind of page, who is logged in, its time zone, its posts), the pass costs more than the
parser."""
_BOUNDED_KEEP = 4
_BOUNDED_MAX = 4 * 1024 * 1024
"""Pages larger than this are not kept (each kept page is held in memory)."""


def _bounded(html: str) -> str:
    found = _BOUNDED.get(html)
    if found is not None:
        return found
    safe = bounded_nesting(html)
    if len(html) <= _BOUNDED_MAX:
        if len(_BOUNDED) >= _BOUNDED_KEEP:
            del _BOUNDED[next(iter(_BOUNDED))]  # the oldest
        _BOUNDED[html] = safe
    return safe


def parse_html(html: str) -> LexborHTMLParser:
    """The page's tree, parsed in time linear in the page (`bounded_nesting`)."""
    return LexborHTMLParser(_bounded(html))


_TREES = threading.local()
"""Per thread: the last pages' trees `page_tree` made (a thread's own, so no two threads
ever share one)."""
_TREES_KEEP = 2


def tree_of(html: str | LexborHTMLParser) -> LexborHTMLParser:
    """A page's tree: `html` parsed (`parse_html`), or the tree itself when already one."""
    return html if isinstance(html, LexborHTMLParser) else parse_html(html)


def query_param(url: str, name: str) -> str | None:
    """The first value of `name` in the query of a link as a page writes it (`&amp;` or
    `&` between the parameters); None when absent or the link is no URL."""
    try:
        values = parse_qs(urlsplit(url.replace("&amp;", "&")).query).get(name)
    except ValueError:
        return None
    return values[0] if values else None


_REFRESH_URL = re.compile(r"url\s*=\s*['\"]?([^'\"]+)", re.I)


def redirect_target(tree: LexborHTMLParser, url: str, links: str) -> str | None:
    """Where a board's "you are being redirected" page (served at `url`) sends the reader:
    its meta refresh, else the first link matching the CSS `links` (the "click here if your
    browser does not" link)."""
    refresh = tree.css_first("meta[http-equiv=refresh], meta[http-equiv=Refresh]")
    found = _REFRESH_URL.search(refresh.attributes.get("content") or "") if refresh else None
    if found:
        return urljoin(url, found.group(1).strip())
    link = tree.css_first(links)
    return urljoin(url, link.attributes.get("href") or "") if link is not None else None


def page_tree(html: str) -> LexborHTMLParser:
    """The page's tree, as `parse_html`, shared by the readers of one page: an adapter asks
    what kind of page it was served, who is logged in, its time zone, then its posts — one
    parse, not four. The tree is only read: a caller that changes its tree (removes nodes)
    takes its own from `parse_html`."""
    kept: dict[str, LexborHTMLParser] | None = getattr(_TREES, "kept", None)
    if kept is None:
        kept = _TREES.kept = {}
    found = kept.get(html)
    if found is not None:
        return found
    tree = parse_html(html)
    if len(html) <= _BOUNDED_MAX:
        if len(kept) >= _TREES_KEEP:
            del kept[next(iter(kept))]  # the oldest
        kept[html] = tree
    return tree


def _tag(node: LexborNode) -> str:
    """An element's tag, as written (an element renamed for its depth is its tag again)."""
    tag = node.tag or ""
    return tag[len(DEEP) :] if tag.startswith(DEEP) else tag


class _Flags(NamedTuple):
    """What an element gives the text inside it. The first fields are the `TextRun` flags,
    named and ordered as `RUN_FLAGS` (a flag added to `TextRun` is added here under the same
    name, in the same place: checked below); `pre` and `links` only steer the walk."""

    quoted: bool = False
    struck: bool = False
    bold: bool = False
    spoiler: bool = False
    code: bool = False
    signature: bool = False
    quote_author: str | None = None
    hidden: bool = False
    pre: bool = False
    links: tuple[int, ...] = ()
    pale: bool = False
    """The text's colour cannot be read on a white page (an inner colour may undo it)."""
    tiny: bool = False
    """The text's size is too small to read (an inner size may undo it)."""


_RUN = len(RUN_FLAGS)
if _Flags._fields[:_RUN] != RUN_FLAGS:  # pragma: no cover - a TextRun flag not added here
    raise ImportError(f"forums.html: _Flags must start with {RUN_FLAGS}")
_PLAIN = _Flags()


class _Out:
    """The runs being written. Text under flags with equal run flags (`_Flags[:_RUN]`) merges
    into one run; its pieces go to a list joined once per run (adding to a growing string
    would cost the run's length for every word)."""

    __slots__ = (
        "_key",
        "base_url",
        "bidi",
        "break_next",
        "current",
        "grounds",
        "line_start",
        "links",
        "parts",
        "pending_space",
        "runs",
        "started",
    )

    def __init__(self, base_url: str, grounds: tuple[RGB, ...] = ANY.backgrounds) -> None:
        self.base_url = base_url
        self.grounds = grounds
        """The backgrounds the post may be shown on (`forums.visibility.Look`)."""
        self.runs: list[tuple[str, tuple[object, ...]]] = []
        """Finished runs (text, run flags); the one being written is `_key` with its `parts`."""
        self.links: list[tuple[str, list[str]]] = []
        self.pending_space: _Flags | None = None
        self.line_start = True
        self.break_next = False
        self.started = False
        """Any text written yet."""
        self._key: tuple[object, ...] | None = None
        self.current: _Flags | None = None
        """The flags `_key` was last taken from (the same object needs no comparison)."""
        self.parts: list[str] = []
        self.bidi: list[int] = []
        """Open bidi embeddings and overrides in the text (`forums.visibility`)."""

    def _flush(self) -> None:
        if self._key is not None:
            self.runs.append(("".join(self.parts), self._key))
        self._key, self.current, self.parts = None, None, []

    def switch(self, flags: _Flags) -> None:
        """Write under `flags` from here on: a new run unless its run flags are the same."""
        key = flags[:_RUN]
        if key != self._key:
            self._flush()
            self._key = key
        self.current = flags

    def append(self, text: str, flags: _Flags) -> None:
        if flags.links:
            for index in flags.links:
                self.links[index][1].append(text)
        if flags is not self.current:
            self.switch(flags)
        self.parts.append(text)
        self.line_start = text.endswith("\n")
        self.started = True

    def text(self, text: str, flags: _Flags, *, plain: bool = False) -> None:
        """Write a text node's text. `plain`: the caller found none of `_ODD_SPACE` in it."""
        if not text:
            return
        if flags.pre:
            self._flush_break(flags)
            if self.pending_space is not None and not self.line_start:
                self.append(" ", self.pending_space)
            self.pending_space = None
            self.append(text.replace("\r\n", "\n").replace("\r", "\n"), flags)
            return
        # Whitespace collapses as a browser shows it. The words of one text node share its
        # flags, so they go out as one piece; the space before the first word keeps the
        # flags of where the whitespace began (`a <b>b</b>`: the space is not bold).
        if plain or _ODD_SPACE.search(text) is None:
            # Only the spaces str.split() splits on: it does the work in C.
            words = " ".join(text.split())
            leading, trailing = text[0] in _SPACES, text[-1] in _SPACES
        else:
            parts = _WS.split(text)
            words = " ".join([part for part in parts if part])
            leading = len(parts) > 1 and not parts[0]
            trailing = len(parts) > 1 and not parts[-1]
        if leading and not self.line_start:
            self.pending_space = self.pending_space or flags
        if not words:
            return
        if self.break_next:
            self._flush_break(flags)
        if self.pending_space is not None:
            if not self.line_start:
                self.append(" ", self.pending_space)
            self.pending_space = None
        self.append(words, flags)
        if trailing:
            self.pending_space = flags

    def _flush_break(self, flags: _Flags) -> None:
        if self.break_next:
            self.break_next = False
            self.line_start_break(flags)

    def newline(self, flags: _Flags) -> None:
        self.pending_space = None
        self.break_next = False
        self.append("\n", flags)

    def line_start_break(self, flags: _Flags) -> None:
        """Start a new line unless at one already (block boundaries)."""
        self.pending_space = None
        if self.bidi:
            self.bidi.clear()  # a block ends the paragraph, and the bidi overrides in it
        if self.started and not self.line_start:
            self.append("\n", flags)

    def body(self) -> PostBody:
        self._flush()
        runs = self.runs
        # Trim the line breaks that block boundaries leave at the very start and end.
        first, last = 0, len(runs)
        while first < last and not runs[first][0].strip(" \n"):
            first += 1
        while last > first and not runs[last - 1][0].strip(" \n"):
            last -= 1
        runs = runs[first:last]
        if runs:
            runs[0] = (runs[0][0].lstrip("\n"), runs[0][1])
            runs[-1] = (runs[-1][0].rstrip(" \n"), runs[-1][1])
        links = [Link(url=url, text="".join(parts).strip()) for url, parts in self.links]
        return PostBody(
            tuple([TextRun(text, *key) for text, key in runs if text]),  # type: ignore[arg-type]
            tuple(links),
        )


def _classes(node: LexborNode) -> set[str]:
    value = node.attributes.get("class") or ""
    return set(value.split())


def _style(attributes: dict[str, str | None]) -> str:
    return (attributes.get("style") or "").lower().replace(" ", "")


def _is_bold_style(style: str) -> bool:
    match = _FONT_WEIGHT.search(style) if style else None
    if match is None:
        return False
    weight = match.group(1)
    return weight in {"bold", "bolder"} or (weight.isdigit() and int(weight) >= 600)


def _is_hidden_style(style: str) -> bool:
    return "display:none" in style or "visibility:hidden" in style


def _visibility(
    tag: str,
    attributes: dict[str, str | None],
    style: str,
    flags: _Flags,
    grounds: tuple[RGB, ...],
) -> tuple[bool, bool, bool] | None:
    """Colour, size and direction of an element: text a reader cannot read (on `grounds`,
    the post's backgrounds) is `hidden`.
    (pale, tiny, hidden) inside the element, or None when it sets none of them."""
    color = size = opacity = direction = None
    if style:  # one pass over the properties; the first of a name counts
        for part in style.split(";"):
            key, _, value = part.partition(":")
            if key == "color":
                color = value.removesuffix("!important") if color is None else color
            elif key == "font-size":
                size = value.removesuffix("!important") if size is None else size
            elif key == "opacity":
                opacity = value.removesuffix("!important") if opacity is None else opacity
            elif key == "direction":
                direction = value.removesuffix("!important") if direction is None else direction
    if color is not None and "(" in color:
        # `style` has lost its spaces: `hsl(0 0% 100%)` and `rgb(255 255 255 / 50%)` are
        # read from the attribute as written.
        for part in (attributes.get("style") or "").lower().split(";"):
            key, _, value = part.partition(":")
            if key.strip() == "color":
                color = value.strip().removesuffix("!important").strip()
                break
    if color is None and tag == "font":
        color = (attributes.get("color") or "").lower() or None
    reversed_ = (tag == "bdo" and (attributes.get("dir") or "").lower() == "rtl") or (
        "bidi-override" in style and direction == "rtl"
    )
    if color is None and size is None and opacity is None and not reversed_:
        return None
    pale, tiny = flags.pale, flags.tiny
    if color is not None:
        pale = invisible_color(color, grounds)
    if opacity is not None and opacity.replace(".", "", 1).isdigit():
        pale = pale or float(opacity) < 0.2
    if size is not None:
        tiny = tiny_size(size, bare="px")
    hidden = pale or tiny or reversed_ or (flags.hidden and not (flags.pale or flags.tiny))
    return pale, tiny, hidden


def _is_inline_style(style: str) -> bool:
    return bool(style) and _INLINE.search(style) is not None


def quote_author_from_cite(cite: LexborNode) -> str | None:
    """The quoted user's name from a quote's `<cite>` line (3.0, 3.1+ and mafiascum forms)."""
    for link in cite.css("a"):
        href = link.attributes.get("href") or ""
        if "memberlist.php" in href and "viewprofile" in href:
            name = link.text(deep=True).strip()
            if name:
                return name
    text = _WS.sub(" ", cite.text(deep=True)).strip()
    author = _WRITES.sub("", text).strip()
    if author == text:
        # No "wrote:": the whole line, minus a trailing colon.
        author = text.rstrip(":").strip()
    return author or None


def _own_cite(quote: LexborNode) -> LexborNode | None:
    """The `<cite>` of this quote (not one of a nested quote), first in document order.

    The search does not enter nested blockquotes, so each node is looked at for its own
    quote only: 1 000 nested quotes cost 1 000 steps, not a search of every cite below each.
    """
    stack = list(reversed(list(quote.iter())))
    while stack:
        node = stack.pop()
        tag = _tag(node)
        if tag == "cite":
            return node
        if tag != "blockquote":
            stack.extend(reversed(list(node.iter())))
    return None


def _join(base: str, href: str) -> str:
    if not base:
        return href
    try:
        return urljoin(base, href)
    except ValueError:  # e.g. a broken IPv6 host: keep the address as written
        return href


_EXIT_NONE, _EXIT_BLOCK, _EXIT_VOTE, _EXIT_CELL = range(4)
_CELLS = frozenset({"td", "th"})
_PRE_TAGS = frozenset({"pre", "code", "textarea"})
_CODE_HEADERS = frozenset({"dt", "p"})
_NO_CLASSES: frozenset[str] = frozenset()


def _walk(root: LexborNode, out: _Out, base: _Flags) -> None:
    """Depth first without recursion (any depth of nesting is read): each open element is
    its children's iterator on a stack, with what its end does (a block boundary, the end of
    a vote tag's line, a table cell's space) and the flags it does it with."""
    stack: list[tuple[Iterator[LexborNode], _Flags, int, _Flags, bool]] = []
    children: Iterator[LexborNode] = iter((root,))
    flags, end, end_flags = base, _EXIT_NONE, base
    # No `pre`, no open link: a text node and a <br> are written here, not by `out`.
    simple = not (flags.pre or flags.links)
    # The hot names bound once (a text node or a <br> costs a few lookups fewer each).
    plain_or_not = _ODD_OR_BIDI.search
    write, newline, push = out.text, out.newline, stack.append
    while True:
        node = next(children, None)
        if node is None:
            if end == _EXIT_BLOCK:
                out.line_start_break(end_flags)
            elif end == _EXIT_VOTE:
                out.break_next = True
            elif end == _EXIT_CELL:
                out.pending_space = out.pending_space or end_flags
            if not stack:
                return
            children, flags, end, end_flags, simple = stack.pop()
            continue
        tag = node.tag or ""
        if tag == "-text":
            text = node.text_content  # a text node's own text
            if not text:
                continue
            if simple and not out.bidi and text.isprintable():
                # `out.text` for the most common text, without its calls. A printable text
                # has no space but " " (every other space and every bidi control is
                # unprintable: test_html pins it), and most have no two in a row.
                words = " ".join(text.split()) if "  " in text else text.strip(" ")
                if out.break_next:
                    if words:
                        out.break_next = False
                        out.line_start_break(flags)
                elif not out.line_start and out.pending_space is None and text[0] == " ":
                    out.pending_space = flags
                if words:
                    if out.pending_space is not None and not out.line_start:
                        out.append(" ", out.pending_space)
                    out.pending_space = flags if text[-1] == " " else None
                    if flags is not out.current:
                        out.switch(flags)
                    out.parts.append(words)
                    out.line_start = False
                    out.started = True
            elif out.bidi or plain_or_not(text) is not None:
                for piece, reversed_ in reading_order_pieces(text, out.bidi):
                    write(piece, flags._replace(hidden=True) if reversed_ else flags)
            else:
                write(text, flags, plain=True)
            continue
        if tag == "br":
            if simple:  # `out.newline` without its calls
                out.pending_space = None
                out.break_next = False
                if flags is not out.current:
                    out.switch(flags)
                out.parts.append("\n")
                out.line_start = out.started = True
            else:
                newline(flags)
            continue
        if tag.startswith(DEEP):
            tag = tag[_DEEP_LENGTH:]
        if tag.startswith("-") or tag in _DROP:
            continue
        if tag == "hr":
            out.line_start_break(flags)
            continue
        attributes = node.attributes  # built anew on each access: read it once
        new: _Flags | None
        if attributes:
            key = (tag, flags, out.grounds, *attributes.items())
            known = _KNOWN.get(key)
            if known is None:
                known = _enter(node, tag, attributes, flags, out)
                if _pure(tag, known[2], flags, attributes):
                    if len(_KNOWN) >= _KNOWN_MAX:
                        _KNOWN.clear()
                    _KNOWN[key] = known
            new, exit_, _, shown = known
            if shown:
                write(shown, flags)
        elif tag in _SKIPPED_BARE or (tag == "cite" and flags.quoted):
            continue
        elif (
            (tag in _CODE_HEADERS and flags.code and _codebox_header(node))
            or tag == "blockquote"
            or tag == "a"
        ):
            new, exit_, _, _ = _enter(node, tag, attributes, flags, out)
        else:  # no class or style: the tag alone says what changes (most tags: nothing)
            bare = _BARE_CHANGES.get(tag)
            new = flags._replace(**bare) if bare else flags
            exit_ = _BARE_EXITS.get(tag, _EXIT_NONE)
        if new is None:
            continue
        push((children, flags, end, end_flags, simple))
        if exit_ == _EXIT_VOTE:
            out.line_start_break(flags)
            end, end_flags = _EXIT_VOTE, new
        elif exit_ == _EXIT_BLOCK:
            out.line_start_break(flags)
            end, end_flags = _EXIT_BLOCK, flags
        else:
            end, end_flags = exit_, flags
        children, flags = node.iter(include_text=True), new
        simple = not (new.pre or new.links)


_Known = tuple[_Flags | None, int, frozenset[str], str]
_KNOWN: dict[tuple[object, ...], _Known] = {}
"""What an element gives (`_enter`) by its tag, the flags around it, the post's backgrounds and
its attributes, for the elements whose tag and attributes alone say it (`_pure`): a board's
markup repeats a few forms (an italic span, a colour, a quote's inner div) on every page."""
_KNOWN_MAX = 4096
_KNOWN_LONGEST = 1024
"""An element whose attributes and quote author are longer in all is read each time, so the
kept forms stay small (at most `_KNOWN_MAX` × this many characters)."""


def _enter(
    node: LexborNode, tag: str, attributes: dict[str, str | None], flags: _Flags, out: _Out
) -> _Known:
    """An element's flags inside (`_element`), what its end does, its classes, and the text
    it shows itself (a smiley's)."""
    value = attributes.get("class")
    classes = frozenset(value.split()) if value else _NO_CLASSES
    if tag == "img":
        if not classes.isdisjoint(_SMILEY_CLASSES) or _SMILEY_SRC.search(
            attributes.get("src") or ""
        ):
            return None, _EXIT_NONE, classes, attributes.get("alt") or ""
        return None, _EXIT_NONE, classes, ""
    style = _style(attributes) if attributes else ""
    new = _element(node, tag, attributes, classes, style, flags, out)
    if tag == "span" and "bbvote" in classes:
        exit_ = _EXIT_VOTE
    elif tag in _BLOCK and not _is_inline_style(style):
        exit_ = _EXIT_BLOCK
    elif tag in _CELLS:
        exit_ = _EXIT_CELL
    else:
        exit_ = _EXIT_NONE
    return new, exit_, classes, ""


def _pure(
    tag: str, classes: frozenset[str], flags: _Flags, attributes: dict[str, str | None]
) -> bool:
    """Whether `_enter` reads only the tag, the attributes and the flags (not a link: it is
    numbered in the body; nor a quote: its `<cite>`; nor a code box's header: its parent),
    and they are short enough to be kept."""
    if tag in _IMPURE_TAGS or not classes.isdisjoint(_QUOTE_CLASSES):
        return False
    if flags.code and tag in _CODE_HEADERS:
        return False
    size = len(flags.quote_author or "")
    for name, value in attributes.items():
        size += len(name) + len(value or "")
    return size <= _KNOWN_LONGEST


_IMPURE_TAGS = frozenset({"a", "blockquote"})


_SKIPPED_BARE = frozenset({"img", "summary"})
"""Without attributes: an image is no smiley, a spoiler's title is dropped."""
_BARE_CHANGES: dict[str, dict[str, Any]] = {
    **{tag: {"struck": True} for tag in _STRIKE_TAGS},
    **{tag: {"bold": True} for tag in _BOLD_TAGS},
    "details": {"spoiler": True},
    **{tag: {"code": True} for tag in _CODE_TAGS},
    **{tag: {"code": True, "pre": True} for tag in _CODE_TAGS & _PRE_TAGS},
}
"""What a tag without attributes changes by itself (`_element` reads the same)."""
_BARE_EXITS = {
    **{tag: _EXIT_BLOCK for tag in _BLOCK},
    **{tag: _EXIT_CELL for tag in _CELLS - _BLOCK},
}
"""What the end of a tag without attributes does (`_enter` reads the same)."""


def _codebox_header(node: LexborNode) -> bool:
    """The "Code: Select all" header of a 3.0 (dt) / 3.1+ (p) code box."""
    parent = node.parent
    return parent is not None and not _classes(parent).isdisjoint(_CODEBOX_CLASSES)


def _element(
    node: LexborNode,
    tag: str,
    attributes: dict[str, str | None],
    classes: frozenset[str],
    style: str,
    flags: _Flags,
    out: _Out,
) -> _Flags | None:
    """The flags inside an element, or None for an element whose text is not read (an
    image is read by `_enter`)."""
    if tag == "summary" or not classes.isdisjoint(_SPOILER_TITLE_CLASSES):
        return None
    if flags.quoted and tag == "cite":
        return None
    if flags.code and tag in _CODE_HEADERS and "content" not in classes and _codebox_header(node):
        return None
    # What the element changes, set at once (one new `_Flags`, or none).
    changes: dict[str, Any] = {}
    if tag == "blockquote" or not classes.isdisjoint(_QUOTE_CLASSES):
        cite = _own_cite(node)
        author = quote_author_from_cite(cite) if cite is not None else None
        if author is None:
            # XenForo names the quoted user in an attribute, not in a <cite>.
            named = attributes.get("data-quote") or attributes.get("data-author") or ""
            author = named.strip() or None
        changes["quoted"], changes["quote_author"] = True, author
    if tag in _STRIKE_TAGS or "line-through" in style:
        changes["struck"] = True
    if tag in _BOLD_TAGS or _is_bold_style(style) or (tag == "span" and "bbvote" in classes):
        changes["bold"] = True
    if (
        tag == "details"
        or not classes.isdisjoint(_SPOILER_CLASSES)
        or _is_hidden_style(style)
        or "hidden" in attributes
    ):
        changes["spoiler"] = True
    if style or tag in ("font", "bdo"):
        seen = _visibility(tag, attributes, style, flags, out.grounds)
        if seen is not None:
            changes["pale"], changes["tiny"], changes["hidden"] = seen
    if tag in _CODE_TAGS or not classes.isdisjoint(_CODEBOX_CLASSES):
        changes["code"] = True
    if tag in _PRE_TAGS or "white-space:pre" in style:
        changes["pre"] = True
    if "signature" in classes:
        changes["signature"] = True
    if tag == "a":
        href = (attributes.get("href") or "").strip()
        if href and not href.startswith(("javascript:", "#")):
            out.links.append((_join(out.base_url, href), []))
            changes["links"] = (*flags.links, len(out.links) - 1)
    return flags._replace(**changes) if changes else flags


def html_to_postbody(
    node_or_html: LexborNode | str,
    *,
    base_url: str = "",
    look: Look = ANY,
    post: LexborNode | None = None,
) -> PostBody:
    """The `PostBody` of a post's HTML: a node (e.g. `div.content`) or an HTML string.
    `look` is the board's default style; the post's background is told by the classes of
    `post` (its element, e.g. prosilver's `div.post.bg2`), else of the node and the
    elements around it, else any of the look's backgrounds."""
    grounds = post_backgrounds(post if post is not None else node_or_html, look)
    out = _Out(base_url=base_url, grounds=grounds)
    try:
        if isinstance(node_or_html, str):
            tree = parse_html(node_or_html)
            root = tree.body or tree.root
            if root is None:
                return PostBody()
            for child in root.iter(include_text=True):
                _walk(child, out, _PLAIN)
        else:
            _walk(node_or_html, out, _PLAIN)
    except RecursionError:  # pragma: no cover - the walk is iterative; belt and braces
        return PostBody((TextRun(""),))
    return out.body()


_AROUND = 12
"""How many elements around a post's content are looked at for the class of its background."""


def post_backgrounds(node: LexborNode | str, look: Look) -> tuple[RGB, ...]:
    """The backgrounds a post's text is shown on: from the first class the look knows on
    `node` or an element around it (prosilver's `bg1`/`bg2`/`pm`), else all of the look's."""
    if look.classes and not isinstance(node, str):
        current: LexborNode | None = node
        for _ in range(_AROUND):
            if current is None:
                break
            known = [name for name in look.classes if name in _classes(current)]
            if known:
                return look.background_of(known)
            current = current.parent
    return look.backgrounds


def fixed_postbody(
    content: LexborNode,
    *,
    base_url: str,
    look: Look,
    fix: Callable[[LexborNode], None],
    signature: LexborNode | None = None,
) -> PostBody:
    """A post's body (and its signature, on a line of its own) read by `html_to_postbody`
    after the engine's `fix` of its own markup (a quote's cite, a code box's title,
    smilies). `fix` works on a copy: the page's tree (and `Post.raw`) stay as served."""

    def read(node: LexborNode) -> PostBody:
        copy = node.clone()
        fix(copy)
        return html_to_postbody(copy, base_url=base_url, look=look)

    body = read(content)
    return concat_bodies(body, read(signature)) if signature is not None else body


def fixed_postbody_of_html(
    html: str, *, base_url: str, look: Look, fix: Callable[[LexborNode], None]
) -> PostBody:
    """`fixed_postbody` of a body given as HTML text (`Post.raw`, an exported thread)."""
    root = parse_html(f"<div>{html}</div>").css_first("div")
    if root is None:
        return PostBody()
    return fixed_postbody(root, base_url=base_url, look=look, fix=fix)


def concat_bodies(*bodies: PostBody) -> PostBody:
    """Join bodies on separate lines (content, then signature)."""
    runs: list[TextRun] = []
    links: list[Link] = []
    for body in bodies:
        if not body.runs and not body.links:
            continue
        if runs and body.runs:
            runs.append(TextRun("\n", *run_flags(body.runs[0])))  # type: ignore[arg-type]
        runs.extend(body.runs)
        links.extend(body.links)
    return PostBody(tuple(runs), tuple(links))
