"""BBCode as players type it → `PostBody`, the structure the order parser reads.

The local board and the scenario runner both go through `parse_bbcode`, so a scenario's
`text:` is read exactly as the same text posted on a rehearsal board.

Decisions where real boards disagree or show broken markup literally (documented here
because vote counting depends on them):

- An unclosed formatting tag runs to the end of the post. phpBB would print an unclosed
  `[quote]` literally, but a vote that *might* be quoted or struck must not count, so
  text after an unclosed `[quote]`, `[s]`, `[spoiler]` or `[code]` is quoted, struck,
  hidden or code. A closing tag that matches nothing open is dropped; a stray `[/quote]`
  also makes everything before it quoted (the player deleted the opening tag).
- A closing tag closes only the most recent open tag of the same name; tags opened inside
  it stay open (`[s][quote]a[/s]b` leaves `b` quoted), again the reading that counts less.
- `[vote]X[/vote]` renders as the bold run `VOTE: X`, as mafiascum's `span.bbvote`
  shows it; `[unvote]` (alone or `[unvote][/unvote]`) as the bold run `UNVOTE`, and
  `[unvote]X[/unvote]` as `UNVOTE: X`. Each sits on a line of its own (a line break is
  added where the text around does not break already), so the name a tag holds ends
  where the tag ends: `[vote]A[/vote][vote]B[/vote]` is two votes, not one for "AVOTE".
- `[img]` contents (an address, not prose) and spoiler titles are dropped; `[*]` starts
  a new line; `[i]`, `[u]`, `[color]`, `[size]` and other pure styling keep only the text.
- `[quote=Name]`, `[quote="Name"]`, phpBB's `[quote="Name" post_id=1 time=2]` and
  XenForo's `[QUOTE="Name, post: 1, member: 2"]` all give the author `Name`; nested quotes
  carry the author of the innermost quote (None when it has no name).
- `[color]` close to the background the post is shown on, tiny `[size]`s (a bare number as
  the board reads it: `parse_bbcode(text, look)`; not known, `[size=2]`…`[size=39]` too),
  `[font]` with a tiny size, and text inside a right-to-left override (U+202E … U+202C)
  are `hidden` (`forums.visibility`); bidi control characters are dropped from the text.
- Unknown tags are kept as literal text. Tag names are case-insensitive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import groupby

from forums.records import RUN_FLAGS, Link, PostBody, TextRun
from forums.visibility import ANY, Look, invisible_color, reading_order_pieces, tiny_font, tiny_size

_TAG = re.compile(r"\[(/?)(\*|[A-Za-z]+)((?:=|\s)[^\[\]]*)?\]")
_UNVOTE_BODY = re.compile(r"([^\[\]]*)\[/unvote\]", re.IGNORECASE)
_XF_QUOTE_META = re.compile(r",\s*(?:post|member|id)\s*:.*$", re.IGNORECASE | re.DOTALL)
_PHPBB_QUOTE_META = re.compile(r"\s+[A-Za-z_]+=.*$", re.DOTALL)

_QUOTE = frozenset({"quote"})
_STRIKE = frozenset({"s", "strike", "del"})
_BOLD = frozenset({"b", "vote"})
_SPOILER = frozenset({"spoiler", "hide", "ispoiler"})
_STYLE = frozenset(
    {"i", "u", "color", "size", "font", "center", "left", "right", "justify", "sup", "sub"}
)
_LITERAL = frozenset({"code", "icode", "img"})
"""Tags whose contents are not markup: everything up to the matching close is taken as is."""
_FRAMED = _QUOTE | _STRIKE | _BOLD | _SPOILER | _STYLE | {"url", "list"}
RECOGNISED_TAGS = _FRAMED | _LITERAL | {"unvote", "*"}
_DEFAULT_FLAGS = {name: getattr(TextRun(""), name) for name in RUN_FLAGS}


@dataclass
class _Frame:
    name: str
    arg: str | None
    link: int | None = None
    """Index into the links being collected, for `[url]` frames."""
    hidden: bool = False
    """A `[color]` or `[size]` a reader cannot read (`forums.visibility`)."""


_QUOTED = RUN_FLAGS.index("quoted")


@dataclass
class _Run:
    """A run being written: its flags (`RUN_FLAGS` order) and its pieces, joined once."""

    key: tuple[object, ...]
    parts: list[str]

    def run(self) -> TextRun:
        return TextRun("".join(self.parts), *self.key)  # type: ignore[arg-type]


_LINK_TEXT_DEPTH = 8
"""Nested `[url]`s beyond this depth do not collect link text (their text stays in the body):
a post of 10 000 nested openings must not append each word to 10 000 links."""


@dataclass
class _Renderer:
    look: Look = ANY
    """The board the text is shown on: its post backgrounds and its reading of `[size=N]`."""
    runs: list[_Run] = field(default_factory=list)
    open_tags: dict[str, list[_Frame]] = field(default_factory=dict)
    """Open frames by tag name, innermost last. Opening, closing and the flags of the text
    written now cost the same however deep the nesting (no walk over every open tag)."""
    links: list[tuple[str | None, list[str]]] = field(default_factory=list)
    break_next: bool = False
    """A vote tag just ended: the text that follows starts on a new line."""
    _keys: dict[tuple[bool, bool, bool], tuple[object, ...]] = field(default_factory=dict)
    """Flag tuples of the open tags (by bold, code, reversed), until a tag opens or closes."""
    _hiding: int = 0
    """Open `[color]`/`[size]` frames that hide their text."""
    _bidi: list[int] = field(default_factory=list)
    """Open bidi embeddings and overrides (1: right-to-left override), to the line's end."""
    _quoted: int = 0
    """How many leading runs a stray [/quote] has already made quoted."""

    def flags(self, *, bold: bool, code: bool, reversed_: bool = False) -> tuple[object, ...]:
        """The run flags of text written now, in `RUN_FLAGS` order."""
        key = self._keys.get((bold, code, reversed_))
        if key is None:
            names = {name for name, frames in self.open_tags.items() if frames}
            quotes = self.open_tags.get("quote")
            given: dict[str, object] = {  # a new flag of TextRun: one more line here
                "quoted": bool(quotes),
                "struck": bool(names & _STRIKE),
                "bold": bold or bool(names & _BOLD),
                "spoiler": bool(names & _SPOILER),
                "code": code,
                "quote_author": _quote_author(quotes[-1].arg) if quotes else None,
                "hidden": reversed_ or self._hiding > 0,
            }
            key = tuple(given.get(name, _DEFAULT_FLAGS[name]) for name in RUN_FLAGS)
            self._keys[(bold, code, reversed_)] = key
        return key

    def emit(self, text: str, *, bold: bool = False, code: bool = False) -> None:
        if not text:
            return
        if self.break_next:
            self.break_next = False
            if not text.startswith("\n"):
                self.emit("\n")
        for piece, reversed_ in reading_order_pieces(text, self._bidi):
            key = self.flags(bold=bold, code=code, reversed_=reversed_)
            for frame in self.open_tags.get("url", ())[-_LINK_TEXT_DEPTH:]:
                if frame.link is not None:
                    self.links[frame.link][1].append(piece)
            if self.runs and self.runs[-1].key == key:
                self.runs[-1].parts.append(piece)
            else:
                self.runs.append(_Run(key, [piece]))

    def at_line_start(self) -> bool:
        return not self.runs or self.runs[-1].parts[-1].endswith("\n")

    def start_line(self) -> None:
        if not self.at_line_start():
            self.emit("\n")

    def open(self, name: str, arg: str | None) -> None:
        if name in {"vote", "list"}:
            self.start_line()
        frame = _Frame(name, arg)
        if arg is not None and (
            (name == "color" and invisible_color(arg, self.look.backgrounds))
            or (name == "size" and tiny_size(arg, bare=self.look.bare_size))
            or (name == "font" and tiny_font(arg))
        ):
            frame.hidden = True
            self._hiding += 1
        if name == "url":
            frame.link = len(self.links)
            self.links.append((_unquote(arg) if arg else None, []))
        frames = self.open_tags.setdefault(name, [])
        frames.append(frame)
        if len(frames) == 1 or frame.hidden or name == "quote":
            self._keys.clear()  # the flags of what follows may change
        if name == "vote":
            self.emit("VOTE: ")

    def close(self, name: str) -> None:
        frames = self.open_tags.get(name)
        if frames:
            frame = frames.pop()
            self._hiding -= frame.hidden
            if not frames or frame.hidden or name == "quote":
                self._keys.clear()
            if name == "list":
                self.start_line()
            if name == "vote":
                self.break_next = True
            return
        # A stray closing tag: dropped, as boards do once they give up matching it. A stray
        # [/quote] means the player deleted the opening tag: what came before it may be
        # someone else's words, so it is quoted (the reading that counts less).
        if name == "quote":
            # Runs before `_quoted` are quoted already: only the newer ones are rewritten, so
            # a post of many stray closes is not re-read from its start at each one.
            start = max(self._quoted - 1, 0)
            tail = self.runs[start:]
            del self.runs[start:]
            for run in tail:
                key = run.key
                if not key[_QUOTED]:
                    key = (*key[:_QUOTED], True, *key[_QUOTED + 1 :])
                # Quoting what came before can make neighbours alike: keep runs merged.
                if self.runs and self.runs[-1].key == key:
                    self.runs[-1].parts.extend(run.parts)
                else:
                    self.runs.append(_Run(key, run.parts))  # the old run is gone: no copy
            self._quoted = len(self.runs)

    def body(self) -> PostBody:
        links = []
        for url, parts in self.links:
            text = "".join(parts)
            links.append(Link(url=url if url is not None else text.strip(), text=text))
        return PostBody(tuple(r.run() for r in self.runs), tuple(links))


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _tag_arg(raw: str | None) -> str | None:
    if raw is None:
        return None
    arg = raw[1:] if raw.startswith("=") else raw
    return arg.strip() or None


def _quote_author(arg: str | None) -> str | None:
    if not arg:
        return None
    arg = arg.strip()
    if arg[:1] in "\"'" and arg[0] in arg[1:]:
        author = arg[1 : arg.index(arg[0], 1)]
    else:
        author = _PHPBB_QUOTE_META.sub("", arg)
    author = _XF_QUOTE_META.sub("", author).strip()
    return author or None


def _literal_end(text: str, name: str, start: int) -> tuple[int, int]:
    """Where the contents of a literal tag end, and where parsing resumes after its close."""
    close = re.compile(rf"\[/{re.escape(name)}\]", re.IGNORECASE).search(text, start)
    if close is None:
        return len(text), len(text)
    return close.start(), close.end()


def parse_bbcode(text: str, look: Look = ANY) -> PostBody:
    """Render BBCode into a `PostBody`; never raises, whatever the markup. `look` is the board
    it is shown on (`forums.visibility`; not known: readable on every board)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    out = _Renderer(look=look)
    pos = 0
    while pos < len(text):
        match = _TAG.search(text, pos)
        if match is None:
            out.emit(text[pos:])
            break
        out.emit(text[pos : match.start()])
        pos = match.end()
        closing, name, arg = bool(match.group(1)), match.group(2).lower(), match.group(3)
        # Only quote takes space-separated attributes (phpBB's post_id=…); "[i think so]"
        # is prose, as boards show it.
        spaced = arg is not None and arg[:1] != "=" and name != "quote"
        if name not in RECOGNISED_TAGS or spaced:
            out.emit(match.group(0))
        elif closing:
            out.close(name)
        elif name in _LITERAL:
            end, pos = _literal_end(text, name, pos)
            if name != "img":
                out.emit(text[match.end() : end], code=True)
        elif name == "unvote":
            inner = _UNVOTE_BODY.match(text, pos)
            target = ""
            if inner is not None:
                target, pos = inner.group(1).strip(), inner.end()
            out.start_line()
            out.emit(f"UNVOTE: {target}" if target else "UNVOTE", bold=True)
            out.break_next = True
        elif name == "*":
            if not out.at_line_start():
                out.emit("\n")
        else:
            out.open(name, _tag_arg(arg))
    return out.body()


def strip_bbcode(text: str) -> str:
    """The text a reader sees, without markup (vote tags read as `VOTE: X`)."""
    return parse_bbcode(text).full_text()


def postbody_to_bbcode(body: PostBody) -> str:
    """BBCode that renders back to `body`'s flags; nested quotes are flattened, links dropped."""
    parts = []
    for (quoted, author), runs in groupby(body.runs, key=lambda r: (r.quoted, r.quote_author)):
        inner = "".join(_wrap_run(run) for run in runs)
        if quoted:
            opening = f'[quote="{author}"]' if author else "[quote]"
            inner = f"{opening}{inner}[/quote]"
        parts.append(inner)
    return "".join(parts)


def _wrap_run(run: TextRun) -> str:
    text = run.text
    if run.code:
        text = f"[code]{text}[/code]"
    if run.bold:
        text = f"[b]{text}[/b]"
    if run.struck:
        text = f"[s]{text}[/s]"
    if run.spoiler:
        text = f"[spoiler]{text}[/spoiler]"
    return text
