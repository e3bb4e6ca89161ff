"""Latin ↔ Cyrillic transliteration of nicknames: «vote Petya» → Петя, «голос за Алу» → Alu.

Players type a nick in the other alphabet when their keyboard is on the other layout or
when they say it the way it sounds. No scheme is standard (Petya, Petja, Petia; Alexei,
Aleksey), so both sides are reduced to one *sound key*: Cyrillic is romanised with a small
table, then spellings that the common schemes disagree on are folded together (j/y/i before
a vowel, kh/h, x/ks, c/k, doubled letters). Two words with the same key sound alike.

The resolver compares keys only after exact spellings, word forms and aliases failed, so a
key never overrides a name written as it is on the roster. Latin nicks also get a Cyrillic
spelling (`to_cyrillic`) so that their Russian word forms («Алу», «Некро», «Некре») exist.
"""

from __future__ import annotations

import functools
import re

_CYR_TO_LAT = {
    "а": "a",
    "б": "b",
    "в": "v",
    "г": "g",
    "д": "d",
    "е": "e",
    "ё": "e",
    "ж": "zh",
    "з": "z",
    "и": "i",
    "й": "y",
    "к": "k",
    "л": "l",
    "м": "m",
    "н": "n",
    "о": "o",
    "п": "p",
    "р": "r",
    "с": "s",
    "т": "t",
    "у": "u",
    "ф": "f",
    "х": "h",
    "ц": "ts",
    "ч": "ch",
    "ш": "sh",
    "щ": "sh",
    "ъ": "",
    "ы": "y",
    "ь": "",
    "э": "e",
    "ю": "yu",
    "я": "ya",
}
# Applied in order to the romanised text: the spellings the schemes disagree on.
_FOLDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), repl)
    for pattern, repl in (
        (r"shch|sch", "sh"),
        (r"kh", "h"),
        (r"ph", "f"),
        (r"ck", "k"),
        (r"c(?!h)", "k"),
        (r"q", "k"),
        (r"x", "ks"),
        (r"w", "v"),
        (r"tz", "ts"),
        (r"j", "y"),
        (r"iy", "i"),
        (r"i(?=[aeou])", "y"),
        (r"yo", "e"),
        (r"(?<=[aeiou])y(?![aeiou])", "i"),
        (r"(.)\1+", r"\1"),
    )
)
_LAT_TO_CYR: tuple[tuple[str, str], ...] = (
    ("shch", "щ"),
    ("sch", "щ"),
    ("zh", "ж"),
    ("kh", "х"),
    ("ch", "ч"),
    ("sh", "ш"),
    ("ts", "ц"),
    ("ya", "я"),
    ("ja", "я"),
    ("yu", "ю"),
    ("ju", "ю"),
    ("yo", "ё"),
    ("ph", "ф"),
    ("ck", "к"),
    ("ee", "и"),
    ("oo", "у"),
    ("a", "а"),
    ("b", "б"),
    ("c", "к"),
    ("d", "д"),
    ("e", "е"),
    ("f", "ф"),
    ("g", "г"),
    ("h", "х"),
    ("i", "и"),
    ("j", "дж"),
    ("k", "к"),
    ("l", "л"),
    ("m", "м"),
    ("n", "н"),
    ("o", "о"),
    ("p", "п"),
    ("q", "к"),
    ("r", "р"),
    ("s", "с"),
    ("t", "т"),
    ("u", "у"),
    ("v", "в"),
    ("w", "в"),
    ("x", "кс"),
    ("y", "и"),
    ("z", "з"),
)
# Digits that stand for letters in nicks («Nekr0», «L33t»): read as the letter when keyed.
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t"})
_LATIN_RE = re.compile(r"[a-z0-9'\-]+")


_CACHED_LONGEST = 64
"""Longer words (a player's 20 000-letter «word») are keyed each time, not kept: the
cache holds 16 384 words, which must stay small words."""


def sound_key(word: str) -> str:
    """The sound key of one normalised word (lowercase, ё→е): equal keys sound alike."""
    return _cached_sound_key(word) if len(word) <= _CACHED_LONGEST else _sound_key(word)


@functools.lru_cache(maxsize=16384)
def _cached_sound_key(word: str) -> str:
    return _sound_key(word)


def _sound_key(word: str) -> str:
    out = "".join(_CYR_TO_LAT.get(ch, ch) for ch in word)
    if any(ch.isalpha() for ch in out):
        out = out.translate(_LEET)
    out = out.replace("'", "").replace("-", "")
    for pattern, repl in _FOLDS:
        out = pattern.sub(repl, out)
    return out


def is_latin(word: str) -> bool:
    return _LATIN_RE.fullmatch(word) is not None and any("a" <= c <= "z" for c in word)


@functools.lru_cache(maxsize=4096)
def to_cyrillic(word: str) -> str:
    """One plausible Cyrillic spelling of a Latin word («alu» → «алу», «nekr0» → «некро»)."""
    word = word.translate(_LEET).replace("'", "").replace("-", "")
    out: list[str] = []
    i = 0
    while i < len(word):
        for latin, cyr in _LAT_TO_CYR:
            if word.startswith(latin, i):
                out.append(cyr)
                i += len(latin)
                break
        else:
            out.append(word[i])
            i += 1
    text = "".join(out)
    # A final -y after a vowel is й («Andrey» → «Андрей»), after a consonant ы is rare: и.
    if word.endswith("y") and len(word) > 1 and word[-2] in "aeiou":
        text = text[:-1] + "й"
    return text
