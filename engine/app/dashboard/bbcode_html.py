"""A draft's BBCode as HTML for the dashboard's preview: a short list of tags, the rest text.

The drafts are written by our templates, but they carry what players wrote (nicknames,
relayed messages), so the preview trusts nothing in them: every piece of text is
HTML-escaped, a tag outside the list below is shown literally, attributes are never copied
into the page except a link's address, which must be http(s) and goes through escaping too.
Styling a board would apply (`[color]`, `[size]`, fonts) keeps only its text: the page's
Content-Security-Policy allows no inline styles, and the host needs the words, not the look.

One pass over the text, and every tag opened is closed once, so the work is linear however
a text nests or breaks its tags: a closing tag with nothing of its name open is literal
text, a closing tag closes what was opened inside it first, and what is still open at the
end is closed there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from markupsafe import Markup, escape

_TAG = re.compile(r"\[(/?)(\*|[A-Za-z]+)(=[^\[\]\n]*)?\]")
_SIMPLE = {"b": "strong", "i": "em", "u": "u", "s": "s", "sup": "sup", "sub": "sub"}
"""Tag → HTML element; `[strike]` and `[del]` are `[s]` (`_canonical`)."""
_SILENT = frozenset({"color", "size", "font", "left", "right", "justify", "center", "img"})
"""Tags that keep only their text: styling (see the module's note), and `[img]`, whose
address is not shown as an image (nothing is fetched) but stays as its text."""
_LITERAL = frozenset({"code", "icode"})


@dataclass
class _Open:
    name: str
    close: str


def safe_link(url: str) -> str | None:
    """`url` if it is an http(s) address with a host (else None: shown as text, no link)."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def _quote_author(arg: str) -> str:
    """`Name` of `[quote=Name]`, `[quote="Name" post_id=1]`, `[QUOTE="Name, post: 1"]`."""
    arg = arg.strip()
    if arg.startswith('"'):
        end = arg.find('"', 1)
        arg = arg[1:end] if end > 0 else arg[1:]
    return arg.split(",")[0].strip()


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.stack: list[_Open] = []
        self.count: dict[str, int] = {}

    def text(self, text: str) -> None:
        if text:
            self.out.append(str(escape(text)).replace("\n", "<br>\n"))

    def push(self, name: str, opening: str, closing: str) -> None:
        self.out.append(opening)
        self.stack.append(_Open(name, closing))
        self.count[name] = self.count.get(name, 0) + 1

    def pop_to(self, name: str) -> bool:
        """Close the innermost open `name` (and what opened inside it); False if none is open."""
        if not self.count.get(name):
            return False
        while self.stack:
            frame = self.stack.pop()
            self.count[frame.name] -= 1
            self.out.append(frame.close)
            if frame.name == name:
                break
        return True

    def close_all(self) -> None:
        while self.stack:
            self.out.append(self.stack.pop().close)


def _canonical(name: str) -> str:
    name = name.lower()
    return "s" if name in ("strike", "del") else name


def bbcode_to_html(bbcode: str) -> Markup:
    """The preview of one draft: safe HTML whatever the text holds."""
    w = _Writer()
    pos = 0
    literal: str | None = None  # inside [code]: everything up to its [/code] is text
    for match in _TAG.finditer(bbcode):
        closing, raw_name, arg = match.group(1) == "/", match.group(2), match.group(3)
        name = raw_name.lower()
        if literal is not None:
            if closing and name == literal:
                w.text(bbcode[pos : match.start()])
                w.pop_to(literal)
                literal = None
                pos = match.end()
            continue
        w.text(bbcode[pos : match.start()])
        pos = match.end()
        value = arg[1:] if arg else None
        if closing:
            key = _canonical(name)
            # a silent tag opened without a trace closes so too
            if key not in _SILENT and not w.pop_to(key):
                w.text(match.group(0))
            continue
        if not _open(w, name, value):
            w.text(match.group(0))
        elif name in _LITERAL:
            literal = name
    w.text(bbcode[pos:])
    w.close_all()
    return Markup("".join(w.out))


def _open(w: _Writer, name: str, value: str | None) -> bool:
    """Open tag `name`; False for one the preview does not know (shown as text)."""
    key = _canonical(name)
    if key in _SIMPLE and value is None:
        tag = _SIMPLE[key]
        w.push(key, f"<{tag}>", f"</{tag}>")
    elif key in _SILENT:
        pass  # its text stays, its look goes
    elif key == "quote":
        author = _quote_author(value) if value else ""
        cite = f'<div class="bb-cite">{escape(author)}:</div>' if author else ""
        w.push(key, f'<blockquote class="bb-quote">{cite}', "</blockquote>")
    elif key == "spoiler":
        title = escape(value.strip() if value and value.strip() else "Spoiler")
        w.push(key, f'<details class="bb-spoiler"><summary>{title}</summary>', "</details>")
    elif key in _LITERAL:
        w.push(key, '<pre class="bb-code"><code>', "</code></pre>")
    elif key == "url":
        link = safe_link(value) if value is not None else None
        if link is None:
            w.push(key, '<span class="bb-url">', "</span>")
            if value is not None:
                w.text(f"{value} ")
        else:
            opening = f'<a href="{escape(link)}" rel="nofollow noopener noreferrer">'
            w.push(key, opening, "</a>")
    elif key == "list":
        w.push(key, '<ul class="bb-list">', "</ul>")
    elif key == "*":
        if w.stack and w.stack[-1].name == "*":
            w.pop_to("*")
        if not w.count.get("list"):
            return False
        w.push(key, "<li>", "</li>")
    else:
        return False
    return True
