"""Board records: posts, private messages, the board-independent `PostBody`, cursors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from datetime import datetime
from operator import attrgetter
from typing import Any


@dataclass(frozen=True)
class TextRun:
    """A run of text with the formatting that decides whether it counts as a command."""

    text: str
    quoted: bool = False
    struck: bool = False
    bold: bool = False
    spoiler: bool = False
    code: bool = False
    signature: bool = False
    quote_author: str | None = None
    hidden: bool = False
    """Shown so that a reader cannot read it: white or near-white, tiny, or reversed by a
    bidi override (`forums.visibility`). Commands only hidden text gives are held."""


RUN_FLAGS: tuple[str, ...] = tuple(f.name for f in fields(TextRun) if f.name != "text")
"""A run's flags in field order: `TextRun(text, *flags)` builds a run, and two runs with equal
flag tuples merge. A new field of `TextRun` joins the tuple (and the comparisons) by itself."""


_FLAGS_OF = attrgetter(*RUN_FLAGS)


def run_flags(run: TextRun) -> tuple[object, ...]:
    flags = _FLAGS_OF(run)
    return flags if len(RUN_FLAGS) > 1 else (flags,)


@dataclass(frozen=True)
class Link:
    url: str
    text: str = ""


@dataclass(frozen=True)
class PostBody:
    """The structure of a post as the parser sees it: text runs with flags, and links.

    Line breaks are "\\n" inside run texts. Adapters build it from HTML, the local board and
    scenarios from BBCode; the parser never sees markup.
    """

    runs: tuple[TextRun, ...] = ()
    links: tuple[Link, ...] = ()

    @classmethod
    def plain(cls, text: str) -> PostBody:
        return cls((TextRun(text),))

    def text(
        self,
        *,
        include_quoted: bool = False,
        include_struck: bool = False,
        include_spoilers: bool = False,
        include_code: bool = False,
        include_signature: bool = False,
        include_hidden: bool = True,
    ) -> str:
        """The text that remains once the excluded kinds of runs are dropped.

        A dropped run still parts the words on either side: a line break where it was a
        quote (a block), a space otherwise, so «покажи голоса[quote]…[/quote]A» keeps
        «голоса» and «A» two words."""
        parts: list[str] = []
        gap = ""
        for r in self.runs:
            if (
                (include_quoted or not r.quoted)
                and (include_struck or not r.struck)
                and (include_spoilers or not r.spoiler)
                and (include_code or not r.code)
                and (include_signature or not r.signature)
                and (include_hidden or not r.hidden)
            ):
                glued = parts and not parts[-1][-1:].isspace() and not r.text[:1].isspace()
                if gap and r.text and glued:
                    parts.append(gap)
                parts.append(r.text)
                gap = ""
            elif r.text:
                gap = "\n" if r.quoted or gap == "\n" else " "
        return "".join(parts)

    def full_text(self) -> str:
        return "".join(r.text for r in self.runs)

    def __iter__(self) -> Iterator[TextRun]:
        return iter(self.runs)


@dataclass(frozen=True)
class EditInfo:
    """A post's edit notice: who edited it last, when, and how many times."""

    by: str | None
    at: datetime | None
    count: int = 1


@dataclass(frozen=True)
class Post:
    """One public message in a thread."""

    id: str
    thread_id: str
    number: int
    author: str
    author_id: str | None
    posted_at: datetime
    body: PostBody
    url: str | None = None
    edit: EditInfo | None = None
    deleted: bool = False
    raw: str | None = None
    """The body as the board served it (HTML or BBCode), kept for audit and export."""


@dataclass(frozen=True)
class PrivateMessage:
    """One private message in the GM's inbox or sent box."""

    id: str
    sender: str
    sender_id: str | None
    recipients: tuple[str, ...]
    sent_at: datetime
    subject: str
    body: PostBody
    url: str | None = None
    raw: str | None = None


@dataclass(frozen=True)
class User:
    id: str
    name: str


@dataclass(frozen=True)
class Cursor:
    """An opaque, serialisable position in a thread or a PM folder."""

    data: dict[str, Any] = field(default_factory=dict)

    def dumps(self) -> str:
        return json.dumps(self.data, sort_keys=True, ensure_ascii=False)

    @classmethod
    def loads(cls, text: str) -> Cursor:
        return cls(json.loads(text))
