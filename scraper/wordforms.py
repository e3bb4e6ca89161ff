"""Russian case forms of nickname words: pymorphy3 where it knows the word, endings otherwise."""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Mapping

import pymorphy3

from scraper.normalize import fold, is_cyrillic, lower

GROUPS = ("nomn", "gent", "datv", "accs", "ablt", "loct")
"""Case groups; pymorphy's second cases and the vocative fold into the main ones."""
_GROUP_OF = {
    "nomn": "nomn",
    "voct": "nomn",
    "gent": "gent",
    "gen2": "gent",
    "datv": "datv",
    "accs": "accs",
    "acc2": "accs",
    "ablt": "ablt",
    "loct": "loct",
    "loc2": "loct",
}
_DECLINABLE_POS = frozenset({"NOUN", "ADJF", "PRTF"})

WordForms = Mapping[str, frozenset[str]]
"""Case group → the spellings of one word in that case (normalised, ё→е)."""

# The minimum endings of classic.md §10.4, for words pymorphy does not know:
# (what the stem drops from the name, {group: endings}).
_ENDINGS: dict[str, tuple[int, dict[str, tuple[str, ...]]]] = {
    "а": (
        1,
        {
            "gent": ("ы", "и"),
            "datv": ("е",),
            "accs": ("у",),
            "ablt": ("ой", "ою", "ей", "ею"),
            "loct": ("е",),
        },
    ),
    "я": (
        1,
        {
            "gent": ("и",),
            "datv": ("е", "и"),
            "accs": ("ю",),
            "ablt": ("ей", "ею"),
            "loct": ("е", "и"),
        },
    ),
    "й": (1, {"gent": ("я",), "datv": ("ю",), "accs": ("я",), "ablt": ("ем",), "loct": ("е",)}),
    # -ь is masculine (Игорь → Игоря) or feminine (Любовь → Любови, Любовью): allow both.
    "ь": (
        1,
        {
            "gent": ("я", "и"),
            "datv": ("ю", "и"),
            "accs": ("я", "ь"),
            "ablt": ("ем", "ью"),
            "loct": ("е", "и"),
        },
    ),
    "hard": (
        0,
        {"gent": ("а",), "datv": ("у",), "accs": ("а",), "ablt": ("ом", "ем"), "loct": ("е",)},
    ),
}
_HARD_CONSONANTS = frozenset("бвгджзклмнпрстфхцчшщ")
# Cyrillic endings players glue to Latin and indeclinable nicks: «Law'а», «Law-у», «Lawу».
_SUFFIXES: dict[str, tuple[str, ...]] = {
    "gent": ("а", "я", "ы", "и"),
    "datv": ("у", "ю", "е"),
    "accs": ("а", "я", "у", "ю"),
    "ablt": ("ом", "ем", "ой", "ей"),
    "loct": ("е",),
}
_SUFFIX_JOINERS = ("'", "-", "")
_MAX_COMBINATIONS = 64

_lock = threading.Lock()
_analyzer: pymorphy3.MorphAnalyzer | None = None


def analyzer() -> pymorphy3.MorphAnalyzer:
    """The shared analyzer, loaded on first use (loading the dictionaries takes a while)."""
    global _analyzer
    with _lock:
        if _analyzer is None:
            _analyzer = pymorphy3.MorphAnalyzer(lang="ru")
        return _analyzer


def _fixed(word: str) -> dict[str, frozenset[str]]:
    return {g: frozenset({word}) for g in GROUPS}


def _suffixed(word: str) -> dict[str, frozenset[str]]:
    forms = {"nomn": frozenset({word})}
    for group, endings in _SUFFIXES.items():
        forms[group] = frozenset({word} | {word + j + e for j in _SUFFIX_JOINERS for e in endings})
    return forms


def _endings(word: str) -> dict[str, frozenset[str]]:
    last = word[-1]
    rule = _ENDINGS.get("hard" if last in _HARD_CONSONANTS else last)
    if rule is None or len(word) < 2:
        return _suffixed(word)
    drop, table = rule
    stem = word[: len(word) - drop]
    forms = {"nomn": frozenset({word})}
    for group, endings in table.items():
        forms[group] = frozenset(stem + e for e in endings)
    return forms


def _morph_forms(word: str) -> dict[str, set[str]]:
    """Singular case forms from every nominative reading pymorphy has of `word`."""
    forms: dict[str, set[str]] = {g: set() for g in GROUPS}
    for parse in analyzer().parse(word):
        tag = parse.tag
        if "nomn" not in tag or tag.POS not in _DECLINABLE_POS:
            continue
        if "Fixd" in tag:
            for g in GROUPS:
                forms[g].add(word)
            continue
        if tag.POS == "NOUN":
            # The lexeme also holds variants inflect() does not return (Машею, Любови).
            for form in parse.lexeme:
                case = form.tag.case
                if case in _GROUP_OF and form.tag.number in (tag.number, None):
                    forms[_GROUP_OF[case]].add(lower(form.word))
            continue
        wanted: list[set[str]] = [{case} for case in _GROUP_OF]
        wanted += [{"accs", "anim"}, {"accs", "inan"}]
        for grammemes in wanted:
            inflected = parse.inflect(frozenset(grammemes))
            if inflected is not None and inflected.tag.case in _GROUP_OF:
                forms[_GROUP_OF[inflected.tag.case]].add(lower(inflected.word))
    return forms


def _merge(*tables: Mapping[str, frozenset[str] | set[str]]) -> dict[str, frozenset[str]]:
    return {g: frozenset().union(*(t.get(g, ()) for t in tables)) for g in GROUPS}


@functools.lru_cache(maxsize=8192)
def declensions(word: str) -> WordForms:
    """Every case form of one normalised nickname word, by case group (nomn holds the word)."""
    if not word:
        return _fixed(word)
    if not is_cyrillic(word):
        folded = fold(word)
        if folded != word and is_cyrillic(folded):
            # «Мaрина» with a Latin «a»: a Russian name typed on a mixed keyboard.
            return _merge(declensions(folded), _suffixed(word))
        return _suffixed(word)
    if "-" in word:
        parts = [declensions(p) for p in word.split("-")]
        combined: dict[str, frozenset[str]] = {}
        for g in GROUPS:
            combos = itertools.islice(itertools.product(*(p[g] for p in parts)), _MAX_COMBINATIONS)
            combined[g] = frozenset("-".join(c) for c in combos) | {word}
        return combined
    morph = _morph_forms(word)
    if analyzer().word_is_known(word):
        if not morph["nomn"]:
            return _fixed(word)
        return _merge(morph, _fixed(word))
    return _merge(morph, _endings(word), _fixed(word))


_NAME_GRAMMEMES = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})


_LONGEST_WORD = 40
"""Longer is no ordinary word; checked before the caches below, so a player's 20 000-letter
«word» is never kept in them."""


def is_plain_word(word: str) -> bool:
    """A Russian dictionary word that is not a name («остаётся», «мир», «эмоции»)."""
    return len(word) <= _LONGEST_WORD and _is_plain_word(word)


@functools.lru_cache(maxsize=8192)
def _is_plain_word(word: str) -> bool:
    if not is_cyrillic(word) or not analyzer().word_is_known(word):
        return False
    return not any(_NAME_GRAMMEMES & p.tag.grammemes for p in analyzer().parse(word))


_ORDINARY_COUNT = 2_000
"""An English word seen this often in the frequency list (1.6 billion words of subtitles,
about one in 800 000) is ordinary: "worthy", "reasons", "tango"; "froggy" and "krew" are not."""
_english: frozenset[str] | None = None


def _english_words() -> frozenset[str]:
    """The ordinary English words: pyspellchecker's frequency list, read once and kept as the
    set of words at or above `_ORDINARY_COUNT` (a SpellChecker object costs twice the time and
    keeps all 160 000 words in memory)."""
    global _english
    with _lock:
        if _english is None:
            import gzip
            import importlib.resources
            import json

            resource = importlib.resources.files("spellchecker") / "resources" / "en.json.gz"
            counts: dict[str, int] = json.loads(gzip.decompress(resource.read_bytes()))
            # As SpellChecker reads it, case-insensitive counts add up. The list is written
            # in lower case, so only the odd other word needs adding (no loop over all).
            for word in [w for w in counts if not w.islower() and w.lower() != w]:
                count = counts.pop(word)
                counts[word.lower()] = counts.get(word.lower(), 0) + count
            _english = frozenset(w for w, c in counts.items() if c >= _ORDINARY_COUNT)
        return _english


def is_english_word(word: str) -> bool:
    """An ordinary English word that could be talk after «vote» ("vote worthy")."""
    return len(word) <= _LONGEST_WORD and _is_english_word(word)


@functools.lru_cache(maxsize=8192)
def _is_english_word(word: str) -> bool:
    if not word.isascii() or not word.isalpha():
        return False
    return word.lower() in _english_words()


def is_ordinary_word(word: str) -> bool:
    """An ordinary English or Russian word (not a name): it could be talk, not a nick."""
    return is_english_word(word) or is_plain_word(word)
