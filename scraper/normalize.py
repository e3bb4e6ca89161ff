"""Text normalisation shared by the nickname resolver and the order matcher."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ZERO_WIDTH = frozenset(
    "\u200b\u200c\u200d\u2060\ufeff\u00ad"
    # Bidi controls (marks, embeddings, overrides, isolates): they reorder what readers see
    # and are never part of a name. forums marks the text an override reverses as hidden.
    "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_INVISIBLE_RE = re.compile("[" + "".join(sorted(_ZERO_WIDTH)) + "]")
_CHAR_MAP = str.maketrans(
    {"ё": "е", "’": "'", "‘": "'", "`": "'", "´": "'", "ʼ": "'", "‐": "-", "‑": "-"}
)
# Latin letters that look like Cyrillic ones; players type either on mixed keyboards.
_LOOKALIKES = str.maketrans("abcehkmoptxy", "авсенкмортху")

WORD_RE = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")
_CYRILLIC_RE = re.compile(r"[а-яё]+(?:-[а-яё]+)*")
BBCODE_VOTE_RE = re.compile(r"\[(un)?vote\]", re.IGNORECASE)
# A tag's argument stops at the next "[": "[a=" * 40000 is then read in one pass, not in
# one pass per opening (which took 53 s on 120 KB).
BBCODE_TAG_RE = re.compile(r"\[/?[a-z*]+(?:=[^\]\[\n]*)?\]", re.IGNORECASE)
_NOT_WORD_RE = re.compile(r"[^\w\s'\-]|_")
_LOOSE_JOINER_RE = re.compile(r"(?<![^\W_])['\-]|['\-](?![^\W_])")
_SPACES_RE = re.compile(r"\s+")


def lower(text: str) -> str:
    """Lowercase with ё→е and one apostrophe and hyphen, keeping the length (offsets stay valid)."""
    low = text.lower()
    if len(low) != len(text):  # «İ» lowers to two characters: keep such letters as they are
        low = "".join(c if len(c := ch.lower()) == 1 else ch for ch in text)
    return low.translate(_CHAR_MAP)


def fold(text: str) -> str:
    """Fold Latin look-alike letters into Cyrillic (the input is already lowercase)."""
    return text.translate(_LOOKALIKES)


def strip_invisible(text: str) -> str:
    """`text` without zero-width and bidi control characters."""
    return _INVISIBLE_RE.sub("", text) if _INVISIBLE_RE.search(text) else text


def is_cyrillic(word: str) -> bool:
    return _CYRILLIC_RE.fullmatch(word) is not None


@dataclass(frozen=True)
class Token:
    """A normalised word and where it sits in the original text."""

    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    """Words of `text` (letters and digits, joined by inner apostrophes or hyphens)."""
    # Tags become blanks of the same length, so offsets into `text` stay valid.
    text = BBCODE_TAG_RE.sub(lambda m: " " * len(m.group()), text)
    kept: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch not in _ZERO_WIDTH:
            kept.append(ch)
            where.append(i)
    clean = lower("".join(kept))
    return [
        Token(m.group(), where[m.start()], where[m.end() - 1] + 1) for m in WORD_RE.finditer(clean)
    ]


def name_key(name: str) -> str:
    """The normalised form of a whole name: its words joined by single spaces."""
    return " ".join(t.text for t in tokens(name))


def clean_line(line: str) -> str:
    """A line as the matcher reads it, case kept: markup, quotes, @ and separators become spaces.

    Inner apostrophes and hyphens stay, because they belong to nicknames («Law'а», «Анна-Мария»).
    """
    line = strip_invisible(line)
    line = BBCODE_VOTE_RE.sub(lambda m: " unvote " if m.group(1) else " vote ", line)
    line = BBCODE_TAG_RE.sub(" ", line).translate(_CHAR_MAP)
    line = _NOT_WORD_RE.sub(" ", line)
    line = _LOOSE_JOINER_RE.sub(" ", line)
    return _SPACES_RE.sub(" ", line).strip()
