"""Reading a CLAUSE argument: a verbatim text cut out, then names and words in their order.

Orders like «Засаду ⚫ на Клиффа Бута, оплата: сброс 4» put their parts in any order, so
the ruleset reads the parts itself; this module only finds which words are roster names
(with the shared resolver) and keeps the quoted message out of the name search. It works
on the line's words as the matcher tokenised them, so it costs time in proportion to the
clause (and reads at most `MAX_WORDS` words).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from scraper.lines import Line
from scraper.nicknames import NameResolver

MAX_WORDS = 80
"""Words of a clause that are read: an order is never longer."""

_QUOTES = re.compile(r"«([^«»\n]*)»|\"([^\"\n]*)\"|“([^“”\n]*)”|„([^„“\n]*)“")


def _text_span(
    line: Line, after: int, hi: int, text_words: Collection[str]
) -> tuple[str | None, int, int]:
    """The verbatim text of the clause and where it sits in `line.raw` (start, end)."""
    start = line.ends[after - 1] if after > 0 else 0
    quoted = _QUOTES.search(line.raw, start)
    if quoted:
        inside = next(g for g in quoted.groups() if g is not None)
        return inside.strip(), quoted.start(), quoted.end()
    for i in range(after, hi):
        if line.words[i] in text_words and line.colon_after(i):
            colon = line.colon_from(i + 1)
            if colon is not None:
                return line.raw[colon:].strip(), line.starts[i], len(line.raw)
    return None, len(line.raw), len(line.raw)


def read_clause(
    line: Line,
    after: int,
    hi: int,
    resolver: NameResolver,
    *,
    sender: str,
    self_words: Collection[str],
    text_words: Collection[str],
) -> dict[str, Any]:
    """The CLAUSE arguments of words after..hi of `line` (the command phrase ends at `after`)."""
    text, cut_from, cut_to = _text_span(line, after, hi, text_words)
    indexes = [
        i
        for i in range(after, min(hi, after + MAX_WORDS))
        if not cut_from <= line.starts[i] < cut_to
    ]
    words = [line.words[i] for i in indexes]
    parts: list[dict[str, str]] = []
    size = max(resolver.max_words, 1)
    k = 0
    while k < len(words):
        found = resolver.match_words(words[k : k + size], suggest=False)
        if words[k] in self_words and not (found.ok and found.exact):
            parts.append({"player": sender, "text": words[k]})
            k += 1
        elif found.ok and found.name is not None and not found.head:
            parts.append({"player": found.name, "text": " ".join(words[k : k + found.words])})
            k += found.words
        elif len(found.candidates) > 1 and not found.head:
            # «на Ворону» with Ворон and Ворона playing: a word, and whom it may mean.
            parts.append({"word": words[k], "ambiguous": "|".join(found.candidates)})
            k += 1
        else:
            parts.append({"word": words[k]})
            k += 1
    begin = line.ends[after - 1] if after > 0 else 0
    raw = line.raw[begin:cut_from] + line.raw[cut_to:]
    args: dict[str, Any] = {"parts": parts, "raw": raw.strip()}
    if text is not None:
        args["text"] = text
    return args
