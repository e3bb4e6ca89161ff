"""How simulated players write: Russian nicknames in the case a sentence needs."""

from __future__ import annotations

import functools

import pymorphy3

_CASES = {"acc": "accs", "gen": "gent", "dat": "datv", "ins": "ablt"}


@functools.lru_cache(maxsize=1)
def _morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


@functools.lru_cache(maxsize=4096)
def decline(name: str, case: str) -> str:
    """«Коля» → «Колю» (acc), «Пети» (gen), «Петей» (ins); Latin nicks stay as they are."""
    if not name or not all("а" <= ch.lower() <= "я" or ch.lower() == "ё" for ch in name):
        return name
    parses = [p for p in _morph().parse(name) if "NOUN" in p.tag and "nomn" in p.tag]
    if not parses:
        return name
    best = next((p for p in parses if "Name" in p.tag), parses[0])
    form = best.inflect({_CASES[case], "sing"})
    if form is None:
        return name
    word = form.word
    return word[:1].upper() + word[1:] if name[:1].isupper() else word
