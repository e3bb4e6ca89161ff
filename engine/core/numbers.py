"""Numbers as players write them, read without ever raising.

`int()` refuses what `str.isdigit()` accepts («²», «①»: digits that are not decimal) and
any string of more than 4,300 digits, and both are one message away: «Ночь ²: катана Вася»
or a vote with 5,000 nines once stopped a game at every poll (issue 22). Every reading of a
number from a player's text goes through `whole_number`, which takes decimal digits of any
script (what `int()` reads: «3», «３», «٣») and nothing else, in one pass.

`plural_ru` and `plural_en` pick the word a count takes, for the templates and for the
rulesets' texts for the host alike.
"""

from __future__ import annotations

import unicodedata

CAP = 10**9
"""What a longer number reads as: more than any count, amount or night the rules allow, so
the rule that checks the range refuses it as it refuses any number too large."""


def whole_number(text: str, *, cap: int = CAP) -> int | None:
    """The number `text` spells in decimal digits (of any script), at most `cap` (a larger
    one reads as `cap`); None when `text` is empty or holds anything else («²», «1.5», «-3»)."""
    if not text:
        return None
    value = 0
    for ch in text:
        digit = unicodedata.decimal(ch, None)
        if digit is None:
            return None
        value = min(value * 10 + digit, cap)
    return value


def plural_ru(n: float, one: str, few: str, many: str) -> str:
    """The Russian form for `n` (here, not in engine.render, so that a ruleset's host texts
    count as its templates do): 1 голос, 2 голоса, 5 голосов, 11 голосов, 21 голос;
    a fraction takes the genitive singular (2,5 голоса, 0,5 голоса)."""
    if n != int(n):
        return few
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def plural_en(n: float, one: str, many: str) -> str:
    return one if abs(n) == 1 else many
