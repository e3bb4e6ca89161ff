"""Numbers as players write them, read without ever raising.

`int()` refuses what `str.isdigit()` accepts («²», «①»: digits that are not decimal) and
any string of more than 4,300 digits, and both are one message away: «Ночь ²: катана Вася»
or a vote with 5,000 nines once stopped a game at every poll (issue 22). Every reading of a
number from a player's text goes through `whole_number`, which takes decimal digits of any
script (what `int()` reads: «3», «３», «٣») and nothing else, in one pass.
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
