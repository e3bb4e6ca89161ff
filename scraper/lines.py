"""One line of a post as the matcher reads it, built in a single linear pass.

Every other step of the matcher works on the word indexes of a `Line`: nothing re-reads
the rest of a line per command, so a crafted post (thousands of votes, question marks,
dots or tag openings on one line) costs time in proportion to its length. Every regex here
is linear on any input: no nested quantifiers, and each character class stops at the next
"[" or line break, so a failed attempt never rescans what follows it.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from scraper.normalize import BBCODE_TAG_RE, BBCODE_VOTE_RE, lower, strip_invisible

_NOT_WORD_RE = re.compile(r"[^\w\s'\-]|_")
_LOOSE_JOINER_RE = re.compile(r"(?<![^\W_])['\-]|['\-](?![^\W_])")
_WORD_RE = re.compile(r"\S+")
HAS_WORD_RE = re.compile(r"[^\W_]")
# A run of closing punctuation followed by a space ends a sentence. The look-behind starts
# each run at its first mark and the possessive run never backtracks: linear on "....".
_SENTENCE_END_RE = re.compile(r"(?<![.!?…;])[.!?…;]++(?=\s)")
_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")
_SMALL = frozenset("abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя")
_BEFORE_ABBREVIATION = frozenset(" \t(«\"'")


def _blank_tags(text: str) -> str:
    """Markup left in the text becomes blanks of the same length; [vote] reads as «vote»."""
    text = BBCODE_VOTE_RE.sub(lambda m: " unvote " if m.group(1) else " vote ", text)
    return BBCODE_TAG_RE.sub(lambda m: " " * len(m.group()), text)


def _abbreviation(line: str, dot: int, start: int) -> bool:
    """A single full stop after a short capitalised word («Mr. Fiks», «Dr. Who», «A. »)."""
    a = dot - 1
    if a < start or (line[a] not in _CAPITALS and line[a] not in _SMALL):
        return False
    if line[a] in _SMALL:
        a -= 1
        if a < start or line[a] not in _CAPITALS:
            return False
    return a == start or line[a - 1] in _BEFORE_ABBREVIATION


def _asks(line: str, start: int, end: int) -> bool:
    """The text ends with a question mark, before closing punctuation or smileys only."""
    i = end - 1
    while i >= start and not (line[i].isalnum()):
        if line[i] == "?":
            return True
        i -= 1
    return False


@dataclass(slots=True)
class Line:
    """A line's words (normalised like nicknames), where each sits, and its sentences."""

    raw: str
    blank: str
    """`raw` with leftover markup blanked (same length): colons and spacing as written."""
    words: list[str]
    starts: list[int]
    ends: list[int]
    sentence_of: list[int]
    """The sentence index of each word."""
    sentence_end: list[int]
    """Per sentence: the index of the first word after it."""
    sentence_asks: list[bool]
    """Per sentence: it ends with a question mark."""
    asks: bool = False
    """The whole line ends with a question mark."""

    def __len__(self) -> int:
        return len(self.words)

    def offset(self, index: int) -> int:
        """Where word `index` starts in `raw` (the line's length past the last word)."""
        return self.starts[index] if index < len(self.starts) else len(self.raw)

    def text_from(self, index: int) -> str:
        return self.raw[self.offset(index) :]

    def colon_after(self, index: int) -> bool:
        """Word `index` is followed by a colon, past spaces and markup («голос: X», «vote:»)."""
        i = self.ends[index]
        while i < len(self.blank) and self.blank[i].isspace():
            i += 1
        return i < len(self.blank) and self.blank[i] == ":"

    def colon_from(self, index: int) -> int | None:
        """The offset just after the first colon at or after word `index`'s end."""
        start = self.ends[index - 1] if index > 0 else 0
        found = self.raw.find(":", start)
        return None if found < 0 else found + 1


def read_line(raw: str) -> Line:
    """Tokenise one line once: words with offsets, sentences and their question marks."""
    return read_text(raw).line(0)


@dataclass(slots=True)
class Text:
    """A whole post tokenised in one pass; its lines become `Line`s only when asked for.

    A post of 30 000 short lines costs one pass over its text plus a look at each word,
    not a tokeniser run per line.
    """

    raw: str
    blank: str
    lines: list[str]
    """The lines, without their line breaks."""
    offsets: list[int]
    """Where each line starts in `raw`."""
    first_word: list[int]
    """Per line, the index of its first word in `words`; one more entry closes the last."""
    words: list[str]
    starts: list[int]
    ends: list[int]

    def line(self, index: int) -> Line:
        """Line `index` with its words, offsets into the line, and its sentences."""
        base = self.offsets[index]
        raw = self.lines[index]
        lo, hi = self.first_word[index], self.first_word[index + 1]
        line = Line(
            raw,
            self.blank[base : base + len(raw)],
            self.words[lo:hi],
            [at - base for at in self.starts[lo:hi]],
            [at - base for at in self.ends[lo:hi]],
            [],
            [],
            [],
        )
        _sentences(line)
        return line


def read_text(text: str) -> Text:
    """Words of the whole text with their offsets, and which line each sits on."""
    text = strip_invisible(text)
    blank = _blank_tags(text) if "[" in text else text
    key = _LOOSE_JOINER_RE.sub(" ", _NOT_WORD_RE.sub(" ", lower(blank)))
    pieces = text.splitlines(keepends=True) or [""]
    lines = [piece.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029") for piece in pieces]
    offsets, at = [], 0
    for piece in pieces:
        offsets.append(at)
        at += len(piece)
    matches = list(_WORD_RE.finditer(key))
    starts = [m.start() for m in matches]
    first = [bisect_left(starts, at) for at in offsets]
    first.append(len(matches))
    words = [m.group() for m in matches]
    found = Text(text, blank, lines, offsets, first, words, starts, [m.end() for m in matches])
    return found


def _sentences(line: Line) -> None:
    """Sentence ends, skipping abbreviations; each sentence keeps its closing punctuation."""
    blank = line.blank
    bounds: list[int] = []
    start = 0
    marks = any(mark in blank for mark in ".!?…;")
    for m in _SENTENCE_END_RE.finditer(blank) if marks else ():
        if m.group() == "." and _abbreviation(blank, m.start(), start):
            continue
        bounds.append(m.end())
        start = m.end()
    bounds.append(len(blank))
    sentence, prev = 0, 0
    for i, at in enumerate(line.starts):
        while at >= bounds[sentence]:
            line.sentence_end.append(i)
            line.sentence_asks.append(_asks(blank, prev, bounds[sentence]))
            prev = bounds[sentence]
            sentence += 1
        line.sentence_of.append(sentence)
    while sentence < len(bounds):
        line.sentence_end.append(len(line.words))
        line.sentence_asks.append(_asks(blank, prev, bounds[sentence]))
        prev = bounds[sentence]
        sentence += 1
    line.asks = _asks(blank, 0, len(blank))
