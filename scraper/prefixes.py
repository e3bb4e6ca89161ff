"""What may open an order line before its command: a phase tag and a proxy («за Петю:»).

yakuza.md §13 and D6, D7: «ночь 3: катана Вася», «N3: …», «на ночь 4 — …» (also «на 3-ю
ночь:», «на третью ночь:», «ночь3:», and «N3 катана Вася» with no mark) file the orders
of the line (and of the lines after it, until another tag) for that night; «за Петю: катана
Вася» or «Петя — катана Вася» orders for a faction-mate. The matcher only marks the orders
(`args["phase"]`, `args["proxy_for"]`); the ruleset decides what they may do.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.core.numbers import whole_number
from scraper.lines import Line
from scraper.nicknames import NameResolver

_COMPACT_RE = re.compile(r"^(?:[nн]|ночь|night)(\d{1,2})$")
_NUMBER_RE = re.compile(r"^(\d{1,2})(?:-?(?:я|ю|ая|ую|th|st|nd|rd))?$")
"""«3», «3-ю», «3я»: a night's number before the word «ночь» («на 3-ю ночь:»)."""
_ORDINALS = {
    stem: n
    for n, stem in enumerate(
        ("перв", "втор", "треть", "четверт", "пят", "шест", "седьм", "восьм", "девят", "десят"),
        1,
    )
}
"""«на третью ночь», «вторая ночь»: the stems of the ordinals one to ten (a line's words
have ё as е already: `scraper.normalize.lower`)."""
_ORDINAL_ENDINGS = ("ая", "ую", "я", "ю")
_LEADS = frozenset({"на", "в", "for", "on"})
_PROXY_LEADS = frozenset({"за", "for"})
_SEPARATORS = (":", "—", "–", "-", "→", "->")


def _separated(line: Line, index: int) -> bool:
    """Word `index` is followed by a colon or a dash (or ends the line)."""
    if index + 1 >= len(line.words):
        return True
    gap = line.blank[line.ends[index] : line.starts[index + 1]]
    return any(mark in gap for mark in _SEPARATORS)


def _number(word: str) -> int | None:
    """The night number a word before «ночь» gives («3», «3-ю», «третью»), if any."""
    found = _NUMBER_RE.match(word)
    if found is not None:
        return int(found.group(1))
    for ending in _ORDINAL_ENDINGS:
        if word.endswith(ending) and word[: -len(ending)] in _ORDINALS:
            return _ORDINALS[word[: -len(ending)]]
    return None


def opens_with_tag(words: list[str], tag_words: frozenset[str]) -> bool:
    """The words may open with a phase tag (a cheap test before the line is read)."""
    if not words:
        return False
    at = 1 if words[0] in _LEADS and len(words) > 1 else 0
    first = words[at]
    if first in tag_words or _COMPACT_RE.match(first) is not None:
        return True
    return at + 1 < len(words) and words[at + 1] in tag_words and _number(first) is not None


def phase_tag(
    line: Line, lo: int, tag_words: frozenset[str], opens: Callable[[int], bool] | None = None
) -> tuple[str | None, int]:
    """A night tag at word `lo`: ("night N", the index after it), or (None, lo).

    A colon or a dash closes the tag («ночь 3:», «N3 —»); without one, the tag still stands
    when a command follows it at once (`opens`: «N3 катана Вася»).
    """
    words, i = line.words, lo
    if i < len(words) and words[i] in _LEADS:
        i += 1
    if i >= len(words):
        return None, lo

    def closed(last: int) -> bool:
        return _separated(line, last) or (opens is not None and opens(last + 1))

    compact = _COMPACT_RE.match(words[i])
    if compact is not None and closed(i):
        return f"night {int(compact.group(1))}", i + 1
    numbered = words[i] in tag_words and i + 1 < len(words) and len(words[i + 1]) <= 2
    night = whole_number(words[i + 1]) if numbered else None
    if night is not None and closed(i + 1):
        return f"night {night}", i + 2
    # «на 3-ю ночь:», «3 ночь —», «на третью ночь:»
    number = _number(words[i]) if i + 1 < len(words) and words[i + 1] in tag_words else None
    if number is not None and closed(i + 1):
        return f"night {number}", i + 2
    return None, lo


def proxy(line: Line, lo: int, resolver: NameResolver) -> tuple[str | None, int]:
    """«за Петю: …», "for Bob: …" or «Петя — …» at word `lo`: (the faction-mate, the index
    after), or (None, lo)."""
    words, i = line.words, lo
    if i < len(words) and words[i] in _PROXY_LEADS:
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
