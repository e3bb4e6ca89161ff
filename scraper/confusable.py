"""Names that readers cannot tell apart: `Bася` (a Latin B) or `Ва`+U+200B+`ся` (a zero-width
space inside) next to `Вася`.

A vote written exactly as the look-alike counts for the look-alike, and neither the other
players nor the host can see which name was meant, so such a pair must never sit in one game.
Two names are look-alikes when their *skeletons* meet (the idea of Unicode's UTS #39):

- NFKC first (fullwidth and mathematical letters, ligatures, superscripts become plain ones);
- characters nobody sees are dropped: format characters (zero-width spaces and joiners, bidi
  controls, the soft hyphen, the BOM), controls, and the rest of Unicode's
  default-ignorable code points (variation selectors, fillers); runs of spaces become one;
- each character becomes one member of its group of confusable characters: Unicode's
  confusables data (confusables.txt of UTS #39) as the `confusable-homoglyphs` package ships
  it, its pairs closed into groups, so Latin `B`, Greek `Β` and Cyrillic `В` are one letter,
  and so are `0`, `O` and `О`;
- the name is compared as written, in lower case (with forumgm's own ё→е and Latin→Cyrillic
  folding of the vote reader: what the reader takes for one name is one name) and in upper
  case (votes are read whatever their case, and `BАСЯ` is `ВАСЯ` to a reader).

The data is loaded on first use (about 0.1 s), once per process.
"""

from __future__ import annotations

import itertools
import unicodedata
from functools import cache, lru_cache

from engine.core.warnings import N_
from scraper.normalize import fold, lower

# Unicode's Default_Ignorable_Code_Point ranges that are not format characters (Cf):
# the combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian variation
# selectors, variation selectors and their supplement, the halfwidth Hangul filler.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)


def _invisible(ch: str) -> bool:
    if unicodedata.category(ch) in ("Cf", "Cc"):
        return not ch.isspace()  # a tab or a newline is a space (below), not dropped
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def visible_form(name: str) -> str:
    """`name` as a reader sees it: NFKC, without invisible characters, single spaces."""
    text = unicodedata.normalize("NFKC", name)
    kept = "".join(" " if ch.isspace() else ch for ch in text if not _invisible(ch))
    return " ".join(kept.split())


@cache
def _groups() -> dict[str, str]:
    """Each confusable character → the smallest member of its group (pairs closed)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while (up := parent.get(ch, ch)) != ch:
            parent[ch] = parent.get(up, up)  # halve the path
            ch = up
        return ch

    for ch, glyphs in confusables_data.items():
        if len(ch) != 1:
            continue
        for glyph in glyphs:
            other = glyph["c"]
            if len(other) != 1:  # sequences ("rn" for "m") are not compared
                continue
            a, b = root(ch), root(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {ch: root(ch) for ch in parent}


def _skeleton(text: str) -> str:
    groups = _groups()
    return "".join(groups.get(ch, ch) for ch in text)


@lru_cache(maxsize=4096)
def skeletons(name: str) -> frozenset[str]:
    """The forms under which `name` reads like another name (see the module's doc); kept
    for the names seen last (a thousand game files share their players' names)."""
    seen = visible_form(name)
    low = lower(seen)
    return frozenset(
        _skeleton(form) for form in (seen, low, fold(low), seen.upper(), fold(low).upper())
    )


def lookalike_pairs(names: list[str]) -> list[tuple[str, str]]:
    """Pairs of distinct names (not merely differing in case) that readers cannot tell
    apart, in the order the names come."""
    keys = [skeletons(n) for n in names]
    return [
        (names[i], names[j])
        for i, j in itertools.combinations(range(len(names)), 2)
        if names[i].casefold() != names[j].casefold() and keys[i] & keys[j]
    ]


def difference(a: str, b: str) -> str:
    """What sets two look-alike names apart, for the host: the first differing character
    of each, by its Unicode name ("LATIN CAPITAL LETTER B" against "CYRILLIC …"), or the
    invisible characters one of them holds."""
    return "; ".join(differences(a, b))


def differences(a: str, b: str) -> list[str]:
    """`difference`'s parts, each made from an `N_` template in English
    (`engine.i18n.warning_text` shows each in the host's language)."""
    said = []
    hidden = [ch for ch in a + b if _invisible(ch) or (ch != " " and ch.isspace())]
    if hidden:
        names = sorted({f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".strip() for ch in hidden})
        said.append(N_("invisible character(s): {names}").format(names=", ".join(names)))
    seen_a, seen_b = ("".join(c for c in n if not _invisible(c)) for n in (a, b))
    for x, y in zip(seen_a, seen_b, strict=False):
        if x != y:
            # The quotes are the template's: a template with little text of its own would
            # match other messages that warning_text is shown.
            pair = N_("'{x}' is {x_name}, '{y}' is {y_name}")
            x_name, y_name = _char_name(x), _char_name(y)
            said.append(pair.format(x=repr(x)[1:-1], x_name=x_name, y=repr(y)[1:-1], y_name=y_name))
            break
    if not said and len(seen_a) != len(seen_b):
        said.append(N_("they differ in spaces"))
    return said or [N_("they differ only in characters that look the same")]


def _char_name(ch: str) -> str:
    return unicodedata.name(ch, f"U+{ord(ch):04X}")
