"""Post HTML as phpBB serves it → `PostBody`, the structure the order parser reads.

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

Never raises on any HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.records import RUN_FLAGS, Link, PostBody, TextRun
from forums.visibility import invisible_color, reading_order_pieces, tiny_size

__all__ = ["concat_bodies", "html_to_postbody", "quote_author_from_cite"]

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
_FONT_WEIGHT = re.compile(r"font-weight:([a-z0-9]+)")
_INLINE = re.compile(r"display:inline(?:-block|-flex)?(?:;|!|$)")


@dataclass(frozen=True)
class _Flags:
    """What an element gives the text inside it. The `TextRun` flags are the fields named in
    `RUN_FLAGS` (a flag added to `TextRun` is added here under the same name); `pre` and
    `links` only steer the walk."""

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
    key: tuple[object, ...] = field(init=False, compare=False, repr=False)
    """The run flags as a tuple: text under equal keys merges into one run."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", tuple(getattr(self, n) for n in RUN_FLAGS))


@dataclass
class _Out:
    base_url: str
    runs: list[TextRun] = field(default_factory=list)
    """Finished runs; the one being written is `_key` with its `_parts`."""
    links: list[tuple[str, list[str]]] = field(default_factory=list)
    pending_space: _Flags | None = None
    line_start: bool = True
    break_next: bool = False
    started: bool = False
    """Any text written yet."""
    _key: tuple[object, ...] | None = None
    _parts: list[str] = field(default_factory=list)
    bidi: list[int] = field(default_factory=list)
    """Open bidi embeddings and overrides in the text (`forums.visibility`)."""

    def _flush(self) -> None:
        if self._key is not None:
            self.runs.append(TextRun("".join(self._parts), *self._key))  # type: ignore[arg-type]
        self._key, self._parts = None, []

    def _append(self, text: str, flags: _Flags) -> None:
        # Pieces go to a list and are joined once per run: adding to a growing string
        # would cost the run's length for every word.
        for index in flags.links:
            self.links[index][1].append(text)
        if flags.key != self._key:
            self._flush()
            self._key = flags.key
        self._parts.append(text)
        self.line_start = text.endswith("\n")
        self.started = True

    def text(self, text: str, flags: _Flags) -> None:
        if not text:
            return
        if flags.pre:
            self._flush_break(flags)
            if self.pending_space is not None and not self.line_start:
                self._append(" ", self.pending_space)
            self.pending_space = None
            self._append(text.replace("\r\n", "\n").replace("\r", "\n"), flags)
            return
        # Whitespace collapses as a browser shows it. The words of one text node share its
        # flags, so they go out as one piece; the space before the first word keeps the
        # flags of where the whitespace began (`a <b>b</b>`: the space is not bold).
        parts = _WS.split(text)
        words = [part for part in parts if part]
        if len(parts) > 1 and not parts[0] and not self.line_start:
            self.pending_space = self.pending_space or flags
        if not words:
            return
        self._flush_break(flags)
        if self.pending_space is not None and not self.line_start:
            self._append(" ", self.pending_space)
        self.pending_space = None
        self._append(" ".join(words), flags)
        if len(parts) > 1 and not parts[-1]:
            self.pending_space = flags

    def _flush_break(self, flags: _Flags) -> None:
        if self.break_next:
            self.break_next = False
            self.line_start_break(flags)

    def newline(self, flags: _Flags) -> None:
        self.pending_space = None
        self.break_next = False
        self._append("\n", flags)

    def line_start_break(self, flags: _Flags) -> None:
        """Start a new line unless at one already (block boundaries)."""
        self.pending_space = None
        self.bidi.clear()  # a block ends the paragraph, and the bidi overrides in it
        if self.started and not self.line_start:
            self._append("\n", flags)

    def body(self) -> PostBody:
        self._flush()
        runs = list(self.runs)
        # Trim the line breaks that block boundaries leave at the very start and end.
        while runs and not runs[0].text.strip(" \n"):
            runs.pop(0)
        while runs and not runs[-1].text.strip(" \n"):
            runs.pop()
        if runs:
            runs[0] = replace(runs[0], text=runs[0].text.lstrip("\n"))
            runs[-1] = replace(runs[-1], text=runs[-1].text.rstrip(" \n"))
        links = tuple(Link(url=url, text="".join(parts).strip()) for url, parts in self.links)
        return PostBody(tuple(r for r in runs if r.text), links)


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


def _style_value(style: str, name: str) -> str | None:
    """The value of one property of a lowercased, space-free inline style."""
    for part in style.split(";"):
        key, _, value = part.partition(":")
        if key == name:
            return value.removesuffix("!important")
    return None


def _visibility(tag: str, attributes: dict[str, str | None], style: str, flags: _Flags) -> _Flags:
    """Colour, size and direction of an element: text a reader cannot read is `hidden`."""
    color = _style_value(style, "color") if style else None
    if color is None and tag == "font":
        color = (attributes.get("color") or "").lower() or None
    size = _style_value(style, "font-size") if style else None
    opacity = _style_value(style, "opacity") if style else None
    reversed_ = (tag == "bdo" and (attributes.get("dir") or "").lower() == "rtl") or (
        "bidi-override" in style and _style_value(style, "direction") == "rtl"
    )
    if color is None and size is None and opacity is None and not reversed_:
        return flags
    pale, tiny = flags.pale, flags.tiny
    if color is not None:
        pale = invisible_color(color)
    if opacity is not None and opacity.replace(".", "", 1).isdigit():
        pale = pale or float(opacity) < 0.2
    if size is not None:
        tiny = tiny_size(size, bare_is_scale=False)
    hidden = pale or tiny or reversed_ or (flags.hidden and not (flags.pale or flags.tiny))
    return replace(flags, pale=pale, tiny=tiny, hidden=hidden)


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
        if node.tag == "cite":
            return node
        if node.tag != "blockquote":
            stack.extend(reversed(list(node.iter())))
    return None


def _join(base: str, href: str) -> str:
    if not base:
        return href
    try:
        return urljoin(base, href)
    except ValueError:  # e.g. a broken IPv6 host: keep the address as written
        return href


def _walk(root: LexborNode, out: _Out, base: _Flags) -> None:
    # Iterative depth-first walk: (node, flags, is_exit). Exits close block boundaries and
    # the line of a vote tag.
    stack: list[tuple[LexborNode, _Flags, str]] = [(root, base, "enter")]
    while stack:
        node, flags, event = stack.pop()
        if event == "exit-block":
            out.line_start_break(flags)
            continue
        if event == "exit-vote":
            out.break_next = True
            continue
        if event == "exit-cell":
            out.pending_space = out.pending_space or flags
            continue
        tag = node.tag or ""
        if tag == "-text":
            for piece, reversed_ in reading_order_pieces(node.text(deep=False) or "", out.bidi):
                out.text(piece, replace(flags, hidden=True) if reversed_ else flags)
            continue
        if tag.startswith("-") or tag in _DROP:
            continue
        if tag == "br":
            out.newline(flags)
            continue
        if tag == "hr":
            out.line_start_break(flags)
            continue
        attributes = node.attributes  # built anew on each access: read it once
        classes = set((attributes.get("class") or "").split())
        style = _style(attributes)
        if tag == "img":
            if classes & _SMILEY_CLASSES or _SMILEY_SRC.search(attributes.get("src") or ""):
                out.text(attributes.get("alt") or "", flags)
            continue
        if tag == "summary" or classes & _SPOILER_TITLE_CLASSES:
            continue
        if flags.quoted and tag == "cite":
            continue
        if flags.code and tag in {"dt", "p"} and classes.isdisjoint({"content"}):
            # The "Code: Select all" header of a 3.0 (dt) / 3.1+ (p) code box.
            parent = node.parent
            if parent is not None and _classes(parent) & _CODEBOX_CLASSES:
                continue

        new = flags
        if tag == "blockquote" or classes & _QUOTE_CLASSES:
            cite = _own_cite(node)
            author = quote_author_from_cite(cite) if cite is not None else None
            if author is None:
                # XenForo names the quoted user in an attribute, not in a <cite>.
                named = attributes.get("data-quote") or attributes.get("data-author") or ""
                author = named.strip() or None
            new = replace(new, quoted=True, quote_author=author)
        if tag in _STRIKE_TAGS or "line-through" in style:
            new = replace(new, struck=True)
        vote = tag == "span" and "bbvote" in classes
        if tag in _BOLD_TAGS or _is_bold_style(style) or vote:
            new = replace(new, bold=True)
        if (
            tag == "details"
            or classes & _SPOILER_CLASSES
            or _is_hidden_style(style)
            or "hidden" in attributes
        ):
            new = replace(new, spoiler=True)
        new = _visibility(tag, attributes, style, new)
        if tag in _CODE_TAGS or classes & _CODEBOX_CLASSES:
            new = replace(new, code=True)
        if tag in {"pre", "code", "textarea"} or "white-space:pre" in style:
            new = replace(new, pre=True)
        if "signature" in classes:
            new = replace(new, signature=True)
        if tag == "a":
            href = (attributes.get("href") or "").strip()
            if href and not href.startswith(("javascript:", "#")):
                url = _join(out.base_url, href)
                out.links.append((url, []))
                new = replace(new, links=(*new.links, len(out.links) - 1))

        block = tag in _BLOCK and not _is_inline_style(style)
        if vote:
            out.line_start_break(flags)
            stack.append((node, new, "exit-vote"))
        elif block:
            out.line_start_break(flags)
            stack.append((node, flags, "exit-block"))
        elif tag in {"td", "th"}:
            stack.append((node, flags, "exit-cell"))
        children = list(node.iter(include_text=True))
        for child in reversed(children):
            stack.append((child, new, "enter"))


def html_to_postbody(node_or_html: LexborNode | str, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a post's HTML: a node (e.g. `div.content`) or an HTML string."""
    out = _Out(base_url=base_url)
    try:
        if isinstance(node_or_html, str):
            tree = LexborHTMLParser(node_or_html)
            root = tree.body or tree.root
            if root is None:
                return PostBody()
            for child in root.iter(include_text=True):
                _walk(child, out, _Flags())
        else:
            _walk(node_or_html, out, _Flags())
    except RecursionError:  # pragma: no cover - the walk is iterative; belt and braces
        return PostBody((TextRun(""),))
    return out.body()


def concat_bodies(*bodies: PostBody) -> PostBody:
    """Join bodies on separate lines (content, then signature)."""
    runs: list[TextRun] = []
    links: list[Link] = []
    for body in bodies:
        if not body.runs and not body.links:
            continue
        if runs and body.runs:
            first = body.runs[0]
            runs.append(replace(first, text="\n"))
        runs.extend(body.runs)
        links.extend(body.links)
    return PostBody(tuple(runs), tuple(links))
