"""What may open an order line before its command: a phase tag and a proxy («за Петю:»).

yakuza.md §13 and D6, D7: «ночь 3: катана Вася», «N3: …», «на ночь 4 — …» file the orders
of the line (and of the lines after it, until another tag) for that night; «за Петю: катана
Вася» or «Петя — катана Вася» orders for a faction-mate. The matcher only marks the orders
(`args["phase"]`, `args["proxy_for"]`); the ruleset decides what they may do.
"""

from __future__ import annotations

import re

from scraper.lines import Line
from scraper.nicknames import NameResolver

_COMPACT_RE = re.compile(r"^[nн](\d{1,2})$")
_LEADS = frozenset({"на", "в", "for", "on"})
_SEPARATORS = (":", "—", "–", "-", "→", "->")


def _separated(line: Line, index: int) -> bool:
    """Word `index` is followed by a colon or a dash (or ends the line)."""
    if index + 1 >= len(line.words):
        return True
    gap = line.blank[line.ends[index] : line.starts[index + 1]]
    return any(mark in gap for mark in _SEPARATORS)


def opens_with_tag(words: list[str], tag_words: frozenset[str]) -> bool:
    """The words may open with a phase tag (a cheap test before the line is read)."""
    if not words:
        return False
    first = words[1] if words[0] in _LEADS and len(words) > 1 else words[0]
    return first in tag_words or _COMPACT_RE.match(first) is not None


def phase_tag(line: Line, lo: int, tag_words: frozenset[str]) -> tuple[str | None, int]:
    """A night tag at word `lo`: ("night N", the index after it), or (None, lo)."""
    words, i = line.words, lo
    if i < len(words) and words[i] in _LEADS:
        i += 1
    if i >= len(words):
        return None, lo
    compact = _COMPACT_RE.match(words[i])
    if compact is not None and _separated(line, i):
        return f"night {int(compact.group(1))}", i + 1
    numbered = words[i] in tag_words and i + 1 < len(words) and words[i + 1].isdigit()
    if numbered and len(words[i + 1]) <= 2 and _separated(line, i + 1):
        return f"night {int(words[i + 1])}", i + 2
    return None, lo


def proxy(line: Line, lo: int, resolver: NameResolver) -> tuple[str | None, int]:
    """«за Петю: …» or «Петя — …» at word `lo`: (the faction-mate, the index after), or (None, lo)."""
    words, i = line.words, lo
    if i < len(words) and words[i] == "за":
        i += 1
    if i >= len(words):
        return None, lo
    found = resolver.match_words(words[i : i + resolver.max_words], suggest=False)
    if not found.ok or found.head:
        return None, lo
    end = i + found.words
    if end >= len(words) or not _separated(line, end - 1):
        return None, lo
    return found.name, end
