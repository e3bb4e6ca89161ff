"""The page-parsing baseline: phpBB topic pages → posts with `PostBody`, in BeautifulSoup + lxml.

The same reading as `forums.phpbb.topic` and `forums.html` (posts, authors, times,
quotes with their authors, strike, bold, spoilers, code, signatures, links, whitespace as a
browser collapses it), written the way a scraper commonly is with bs4, so the benchmark
compares like with like; `agreement()` says how often both read the same text. Used only by
`benchmarks/run.py` (BeautifulSoup and lxml are in the dev extras only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bs4 import BeautifulSoup, Comment, NavigableString, Tag

from forums.records import Link, PostBody, TextRun

_WS = re.compile(r"[ \t\n\r\f\v\u200b]+")
_BLOCK = {
    *("address", "article", "aside", "blockquote", "center", "dd", "details", "div", "dl"),
    *("dt", "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6"),
    *("header", "hr", "li", "ol", "p", "pre", "section", "summary", "table", "tr", "ul"),
}
_DROP = {"script", "style", "noscript", "template", "input", "button", "select", "textarea"}
_SPOILER = {"spoiler", "quotecontent", "hidebox", "spoiler-content", "sp-body"}
_WRITES = re.compile(r"\s*(?:wrote|писал\(а\)|написал\(а\))\s*:.*$", re.I | re.S)


@dataclass
class _Out:
    runs: list[TextRun] = field(default_factory=list)
    links: list[tuple[str, list[str]]] = field(default_factory=list)
    space: bool = False
    line_start: bool = True

    def add(self, text: str, flags: dict[str, Any]) -> None:
        if self.space and not self.line_start:
            text = " " + text
        self.space = False
        for index in flags.get("links", ()):
            self.links[index][1].append(text)
        run = TextRun(
            text,
            quoted=flags.get("quoted", False),
            struck=flags.get("struck", False),
            bold=flags.get("bold", False),
            spoiler=flags.get("spoiler", False),
            code=flags.get("code", False),
            signature=flags.get("signature", False),
            quote_author=flags.get("quote_author"),
        )
        if self.runs and _same(self.runs[-1], run):
            last = self.runs[-1]
            self.runs[-1] = TextRun(last.text + text, *_flags(last))
        else:
            self.runs.append(run)
        self.line_start = text.endswith("\n")

    def text(self, text: str, flags: dict[str, Any]) -> None:
        if flags.get("pre"):
            self.add(text, flags)
            return
        if text[:1].isspace():
            self.space = True
        words = _WS.sub(" ", text).strip()
        if words:
            self.add(words, flags)
        if text[-1:].isspace():
            self.space = True

    def newline(self, flags: dict[str, Any]) -> None:
        self.space = False
        if self.runs and not self.line_start:
            self.add("\n", flags)


def _flags(run: TextRun) -> tuple[Any, ...]:
    return (
        run.quoted,
        run.struck,
        run.bold,
        run.spoiler,
        run.code,
        run.signature,
        run.quote_author,
    )


def _same(a: TextRun, b: TextRun) -> bool:
    return _flags(a) == _flags(b)


def _walk(node: Tag, out: _Out, flags: dict[str, Any]) -> None:
    for child in node.children:
        if isinstance(child, Comment):
            continue
        if isinstance(child, NavigableString):
            out.text(str(child), flags)
            continue
        if not isinstance(child, Tag) or child.name in _DROP:
            continue
        name = child.name
        if name == "br":
            out.add("\n", flags)
            continue
        classes = set(child.get("class") or [])
        style = (child.get("style") or "").replace(" ", "").lower()
        new = dict(flags)
        if name == "blockquote":
            cite = child.find("cite")
            author = _WRITES.sub("", cite.get_text(" ", strip=True)) if cite else None
            new.update(quoted=True, quote_author=author or None)
        if name == "cite" and flags.get("quoted"):
            continue
        if name in ("s", "del", "strike") or "line-through" in style:
            new["struck"] = True
        if name in ("b", "strong") or "font-weight:bold" in style:
            new["bold"] = True
        if name == "details" or classes & _SPOILER or "display:none" in style:
            new["spoiler"] = True
        if name in ("code", "pre"):
            new.update(code=True, pre=True)
        if "signature" in classes:
            new["signature"] = True
        if name == "a" and child.get("href"):
            out.links.append((str(child["href"]), []))
            new["links"] = (*flags.get("links", ()), len(out.links) - 1)
        if name == "img":
            if "smilies" in classes:
                out.text(str(child.get("alt") or ""), flags)
            continue
        block = name in _BLOCK and "display:inline" not in style
        if block:
            out.newline(flags)
        _walk(child, out, new)
        if block:
            out.newline(flags)


def postbody(node: Tag) -> PostBody:
    out = _Out()
    _walk(node, out, {})
    runs = [r for r in out.runs if r.text.strip()]
    if runs:
        runs[0] = TextRun(runs[0].text.lstrip("\n"), *_flags(runs[0]))
        runs[-1] = TextRun(runs[-1].text.rstrip(" \n"), *_flags(runs[-1]))
    links = tuple(Link(url, "".join(parts).strip()) for url, parts in out.links)
    return PostBody(tuple(runs), links)


@dataclass(frozen=True)
class SoupPost:
    id: str
    author: str
    time: str
    body: PostBody


def parse_topic(html: str) -> list[SoupPost]:
    """The posts of one viewtopic page."""
    soup = BeautifulSoup(html, "lxml")
    posts = []
    for node in soup.select("div.post[id^='p']"):
        author_line = node.select_one("p.author, div.author")
        if author_line is None:
            continue
        link = author_line.select_one("a[href*='viewprofile']") or node.select_one(
            "dl.postprofile a[href*='viewprofile']"
        )
        stamp = author_line.select_one("time")
        time = stamp.get("datetime") if stamp else author_line.get_text(" ").rsplit("»", 1)[-1]
        content = node.select_one("div.content")
        body = postbody(content) if content is not None else PostBody()
        signature = node.select_one("div.signature")
        if signature is not None:
            sig = postbody(signature)
            body = PostBody((*body.runs, TextRun("\n"), *sig.runs), body.links + sig.links)
        posts.append(
            SoupPost(
                str(node["id"])[1:], link.get_text(strip=True) if link else "", str(time), body
            )
        )
    return posts


def agreement(ours: list[PostBody], theirs: list[PostBody]) -> float:
    """The share of posts whose text both parsers read alike (whitespace aside)."""
    if not ours:
        return 1.0
    same = sum(
        _WS.sub(" ", a.full_text()).strip() == _WS.sub(" ", b.full_text()).strip()
        for a, b in zip(ours, theirs, strict=False)
    )
    return same / len(ours)
