"""Crafted posts meant to stall the parser (issue 10 item 2), for the test and the benchmark.

`UNITS` are the pieces the attacks of the issue repeat, and others found by reading the
matcher, the BBCode renderer and the grammars; `CRAFTED` builds texts up to `LIMIT`
characters from one to three of them. `READERS` are the grammars of every ruleset, each
with a roster and the channel it reads hardest (`parse_cpu` takes the slowest of them).
`tests/scraper/test_parse_time.py` bounds the time loosely (a quadratic path takes seconds);
`benchmarks/parse_time.py` holds the target (each text under 100 ms).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache

from hypothesis import strategies as st

import rulesets
from engine.core.grammar import Grammar
from engine.core.orders import Channel
from forums.bbcode import parse_bbcode
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver

ROSTER = ("Вася", "Петя", "Уставший Скиталец", "Mr. Fiks", "Nekr0", "???", "Doc_Holiday")
LIMIT = 64_000

UNITS = (
    "vote Вася ", "голосую за Васю ", "?", ".", "[a=", "[quote=", "A. ", "[s]a", "[/quote]",
    "a[s]b[/s][/quote]", "[url]", "vote\n", "-- \n", "если ", "Mr. ", ":", "[b]", "[/b]",
    "Васю-", "'", "-", "a", "\u202e", "\u200b", "выстрел в Васю, Петю, ", "пистолет Вася x3 ",
    "анонимка для Пети: ", "[vote]Вася[/vote]", "[unvote]", "голос: ", "за ", "???", "\n",
    "vote zzz ", "[quote=a b=", "[color=#fff]", "[size=1]", "vote [b]", "ГЗ ", "не, ",
    "a\n", "a.\n", "мой голос\n", "за мир ", "если голос за Васю\n", "Ва", "vote Mr. ",
    "1) ", " ↑", ": →", "Вася\n", "анонимка: ", "АС1 ", "6-7 ", "наследую ас1 ", "ас ",
    "покупаю ", "играю ", "Вася, ", "Уставший ", "[list][*]", "\u0301", "Bacя ",
    # What this session's parser reads anew: phase tags as players write them, a change of
    # mind, a number or a word that makes «vote» a noun, a proxy in English, a sentence that
    # opens a command, a filler that may open one.
    "на 3-ю ночь: ", "третью ночь ", "N3 ", "ночь3 ", "то есть ", "ой, ", "2 vote ",
    "rvs vote ", "for Вася: ", "Голосую за Гену. ", "(3 доп. голоса) ", "но ",
    # Issue 22: a target list's words, each once looked up as a name with suggestions.
    "x3 ", "+1 ", "Петя ", "Ночь ²: ",
)  # fmt: skip

ATTACKS = (
    "vote Вася " * 6_000,
    "голосую за Васю " + "?" * 40_000 + "a",
    "голосую за Васю" + "." * 40_000,
    "[a=" * 20_000,
    "[quote=" * 9_000,
    "A. " * 20_000,
    "[s]a" * 15_000,
    "a\n" * 32_000,
    "АС1 " * 16_000,
    "пистолет Вася " + "x3 " * 20_000,
    "голос Вася " + "+1 " * 20_000,
)
"""The attacks of the issue at about 60 KB (60 KB of «vote Вася » took 374 s before the
matcher read each line once), «АС1 » (twelve-rooms: 357 phrases open with «ас»), and
yakuza's target lists of issue 22 («пистолет Вася x3 x3 …» took 1.0 s at 64 KB)."""

_PIECE = st.tuples(st.sampled_from(UNITS), st.text(max_size=8))
CRAFTED = st.builds(
    lambda pieces, size: (
        "".join(u * max(1, size // (len(u) * len(pieces))) + t for u, t in pieces)
    )[:LIMIT],
    st.lists(_PIECE, min_size=1, max_size=3),
    st.integers(1_000, LIMIT),
)


@cache
def readers() -> tuple[tuple[str, Grammar, NameResolver, Channel], ...]:
    """(ruleset, grammar, resolver, channel): every ruleset's grammar with its defaults."""
    found = []
    for ruleset_id, channel in (
        ("votecount", Channel.THREAD),
        ("classic", Channel.PM),
        ("yakuza", Channel.PM),
        ("twelve-rooms", Channel.PM),  # symbols, numbered items, bare names, free text
        ("minimafik", Channel.PM),  # card names, hundreds of phrases
    ):
        ruleset = rulesets.find(ruleset_id)
        grammar = ruleset.grammar_for(ruleset.options({}))
        resolver = NameResolver(ROSTER, lenient=ruleset_id == "votecount")
        found.append((ruleset_id, grammar, resolver, channel))
    return tuple(found)


def parse_once(text: str, reader: tuple[str, Grammar, NameResolver, Channel]) -> float:
    """CPU seconds of reading `text` as a post: BBCode, then one grammar, no length cap."""
    _, grammar, resolver, channel = reader
    started = time.process_time()
    body = parse_bbcode(text)
    parse_post(body, grammar, resolver, sender="Петя", channel=channel, max_chars=None)
    return time.process_time() - started


def parse_cpu(text: str, *, tries: int = 3, enough: float = 0.0) -> tuple[float, str]:
    """The slowest grammar's CPU seconds for `text` (best of `tries` runs, stopping early
    once a run takes at most `enough`), with that grammar's ruleset."""
    worst, slowest = 0.0, ""
    for reader in readers():
        best = float("inf")
        for _ in range(tries):
            best = min(best, parse_once(text, reader))
            if best <= enough:
                break
        if best > worst:
            worst, slowest = best, reader[0]
    return worst, slowest


def warm(texts: Sequence[str] = ("vote Вася", "проверка Пети")) -> None:
    """Load the word forms and dictionaries every grammar uses (once per process)."""
    for text in texts:
        parse_cpu(text, tries=1)
