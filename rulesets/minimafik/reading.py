"""From parsed words to structured order fields: cards, sides, targets, payments (§12.2).

The matcher hands over the words after a command (and, for CLAUSE orders, which of them are
roster names); this module turns them into the fields a structured order has, so parsed
and structured orders are checked by the same code. Card names match by id, name or alias,
exactly or in a case form (the §12.1 prefix rule), or by slot («2», «#2», «2-ю»).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesets.minimafik.cards import Collection, card_words
from rulesets.minimafik.roles import DARK, LIGHT

LIGHT_WORDS = frozenset(
    {"светлой", "светлая", "светлую", "светлый", "светлое", "свет", "светом", "light"}
)
DARK_WORDS = frozenset(
    {"темной", "темная", "темную", "темный", "темное", "тьма", "тьмой", "тьму", "dark"}
)
LIGHT_MARKS = "◯○⚪"
DARK_MARKS = "⚫●"
TARGET_MARKERS = frozenset({"на", "в", "во", "цель", "целью", "цели", "on", "at", "target", "to"})
PAY_WORDS = frozenset(
    {"оплата", "оплачиваю", "оплатой", "плачу", "цена", "цену", "pay", "paying", "payment", "paid"}
)
POINT_WORDS = frozenset(
    {
        "балл",
        "балла",
        "баллов",
        "баллами",
        "баллом",
        "баллы",
        "очко",
        "очка",
        "очков",
        "point",
        "points",
    }
)
CARD_PAY_WORDS = frozenset(
    {
        "сброс",
        "сбросом",
        "сбрасываю",
        "картой",
        "картами",
        "карты",
        "карту",
        "карта",
        "card",
        "cards",
        "discard",
        "discarding",
    }
)
FILLERS = frozenset(
    {
        "стороной",
        "сторона",
        "стороне",
        "side",
        "и",
        "and",
        "with",
        "с",
        "c",
        "a",
        "the",
        "моя",
        "мою",
        "свою",
    }
)
_NUMBER = re.compile(r"^#?(\d{1,3})(?:-?[а-яa-z]{1,3})?$")
_COUNT = re.compile(r"^[xх×*](\d{1,2})$")
_PICK = re.compile(r"^(\d{1,2})(?:-?([абab12]))$")
_LINK = re.compile(r"https?://|www\.|\[url", re.IGNORECASE)

Ref = int | str
"""A card reference: a 1-based slot or a card id."""


def number(word: str) -> int | None:
    m = _NUMBER.match(word)
    return int(m.group(1)) if m else None


def has_link(text: str) -> bool:
    return _LINK.search(text) is not None


def _matches(word: str, name_word: str) -> bool:
    """§12.1 rule 2: equal, or a common prefix of max(3, len − 2) letters and ≤ 3 more."""
    if word == name_word:
        return True
    need = max(3, len(name_word) - 2)
    prefix = 0
    for a, b in zip(word, name_word, strict=False):
        if a != b:
            break
        prefix += 1
    return prefix >= need and len(word) - prefix <= 3


class CardNames:
    """Matches card names (any case form) at a position of a word list."""

    def __init__(self, collection: Collection) -> None:
        table = card_words(collection)
        self._names = sorted(
            ((tuple(name.split()), ids) for name, ids in table.items()),
            key=lambda item: -len(item[0]),
        )

    def at(self, words: Sequence[str], i: int) -> tuple[tuple[str, ...], int]:
        """(matching card ids, words taken) for the name starting at `words[i]`."""
        best: tuple[tuple[str, ...], int] = ((), 0)
        for name, ids in self._names:
            size = len(name)
            if size < best[1] or i + size > len(words):
                continue
            if all(_matches(words[i + k], name[k]) for k in range(size)):
                exact = all(words[i + k] == name[k] for k in range(size))
                if size > best[1] or exact:
                    merged = (
                        ids if exact or size > best[1] else tuple(dict.fromkeys((*best[0], *ids)))
                    )
                    best = (merged, size)
        return best


_NAMES: dict[int, tuple[Collection, CardNames]] = {}


def card_names(collection: Collection) -> CardNames:
    hit = _NAMES.get(id(collection))
    if hit is None or hit[0] is not collection:
        hit = (collection, CardNames(collection))
        if len(_NAMES) > 16:
            _NAMES.clear()
        _NAMES[id(collection)] = hit
    return hit[1]


@dataclass
class Reading:
    """The fields read from a line, and what the reader could not place."""

    args: dict[str, Any] = field(default_factory=dict)
    unknown_card: bool = False
    ambiguous_card: bool = False


@dataclass
class _Tok:
    word: str
    player: str | None = None


def _toks(args: Mapping[str, Any]) -> list[_Tok]:
    if "parts" in args:
        out = []
        for part in args["parts"]:
            if "player" in part:
                out.append(_Tok(str(part.get("text", "")), str(part["player"])))
            else:
                out.append(_Tok(str(part["word"])))
        return out
    return [_Tok(str(w)) for w in args.get("words", ())]


def _keyword(word: str) -> bool:
    return (
        word in LIGHT_WORDS
        or word in DARK_WORDS
        or word in PAY_WORDS
        or word in POINT_WORDS
        or word in CARD_PAY_WORDS
        or word in TARGET_MARKERS
    )


class _Cursor:
    """Walks the tokens of one clause."""

    def __init__(self, args: Mapping[str, Any], collection: Collection) -> None:
        self.toks = _toks(args)
        self.words = [t.word for t in self.toks]
        self.names = card_names(collection)
        self.i = 0

    def card_here(self) -> tuple[tuple[str, ...], int]:
        tok = self.toks[self.i]
        if tok.player is not None and " " in tok.word:
            return (), 0
        return self.names.at(self.words, self.i)


def side_from(raw: str, toks: Sequence[_Tok]) -> str | None:
    for tok in toks:
        if tok.word in DARK_WORDS:
            return DARK
        if tok.word in LIGHT_WORDS:
            return LIGHT
    if any(m in raw for m in DARK_MARKS):
        return DARK
    if any(m in raw for m in LIGHT_MARKS):
        return LIGHT
    return None


def read_play(args: Mapping[str, Any], collection: Collection, card: str | None) -> Reading:
    """`play_card` fields from a clause; `card` is set when the line began with its name."""
    out = Reading()
    cur = _Cursor(args, collection)
    raw = str(args.get("raw", ""))
    targets: list[str] = []
    pay_points: int | None = None
    pay_cards: list[Ref] = []
    paying = False
    card_ref: Ref | None = card
    expect_target = False
    while cur.i < len(cur.toks):
        tok = cur.toks[cur.i]
        word = tok.word
        if (
            tok.player is not None
            and not _keyword(word)
            and not (card_ref is None and cur.card_here()[1])
            and (not paying or expect_target)
        ):
            targets.append(tok.player)
            expect_target = False
            cur.i += 1
            continue
        if word in PAY_WORDS:
            paying = True
        elif word in CARD_PAY_WORDS and (card_ref is not None or paying):
            paying = True
            cur.i += 1
            cur.i = _refs_into(cur, pay_cards)
            continue
        elif word in TARGET_MARKERS:
            expect_target = True
        elif paying and number(word) is not None:
            nxt = cur.words[cur.i + 1] if cur.i + 1 < len(cur.words) else ""
            if nxt in POINT_WORDS:
                pay_points = (pay_points or 0) + int(number(word) or 0)
                cur.i += 2
                continue
            pay_cards.append(int(number(word) or 0))
        elif card_ref is None and number(word) is not None:
            card_ref = number(word)
        elif card_ref is None and word not in FILLERS and not _keyword(word):
            ids, size = cur.card_here()
            if len(ids) == 1:
                card_ref = ids[0]
                cur.i += size
                continue
            if len(ids) > 1:
                out.ambiguous_card = True
            elif tok.player is None:
                out.unknown_card = True
        cur.i += 1
    out.args = {"card": card_ref, "side": side_from(raw, cur.toks), "targets": targets}
    if pay_points is not None or pay_cards:
        out.args["pay"] = {"points": pay_points, "cards": pay_cards}
    if "text" in args:
        out.args["text"] = args["text"]
    if card_ref is None and not out.ambiguous_card:
        out.unknown_card = True
    return out


def _refs_into(cur: _Cursor, refs: list[Ref]) -> int:
    """Card references (slots or names) from the cursor on; returns where they end."""
    while cur.i < len(cur.toks):
        word = cur.words[cur.i]
        if word in FILLERS:
            cur.i += 1
            continue
        n = number(word)
        if n is not None:
            refs.append(n)
            cur.i += 1
            continue
        ids, size = cur.card_here()
        if len(ids) >= 1 and not _keyword(word):
            refs.append(ids[0])
            cur.i += size
            continue
        break
    return cur.i


def read_cards(args: Mapping[str, Any], collection: Collection) -> Reading:
    """A list of card references («2,3», «Удар, Щит») for `discard` and `order_hand`."""
    out = Reading()
    cur = _Cursor(args, collection)
    refs: list[Ref] = []
    while cur.i < len(cur.toks):
        before = cur.i
        cur.i = _refs_into(cur, refs)
        if cur.i == before:
            if cur.words[cur.i] not in FILLERS and cur.words[cur.i] not in CARD_PAY_WORDS:
                out.unknown_card = True
            cur.i += 1
    out.args = {"cards": refs}
    return out


def read_mafia(args: Mapping[str, Any], collection: Collection) -> Reading:
    """`mafia_vote` fields: a target (optional), +X extra damage, and how X is paid."""
    out = Reading()
    cur = _Cursor(args, collection)
    targets: list[str] = []
    extra = 0
    pay_points: int | None = None
    pay_cards: list[Ref] = []
    paying = False
    while cur.i < len(cur.toks):
        tok = cur.toks[cur.i]
        word = tok.word
        n = number(word)
        if tok.player is not None and not _keyword(word) and not targets:
            targets.append(tok.player)
        elif word in CARD_PAY_WORDS:
            cur.i += 1
            cur.i = _refs_into(cur, pay_cards)
            paying = True
            continue
        elif word in POINT_WORDS or word in PAY_WORDS:
            paying = True
        elif (
            n is not None
            and paying
            and cur.i + 1 < len(cur.words)
            and cur.words[cur.i + 1] in POINT_WORDS
        ):
            pay_points = (pay_points or 0) + n
            cur.i += 2
            continue
        elif n is not None and not extra:
            extra = n
        cur.i += 1
    out.args = {"targets": targets, "extra": extra}
    if pay_points is not None or pay_cards:
        out.args["pay"] = {"points": pay_points, "cards": pay_cards}
    return out


def read_picks(args: Mapping[str, Any], collection: Collection) -> Reading:
    """Draft picks: «1а 2б …», «1-1 2-2 …», «а б а …», or card names in pair order."""
    out = Reading()
    cur = _Cursor(args, collection)
    picks: dict[int, Ref] = {}
    nxt = 0
    while cur.i < len(cur.toks):
        word = cur.words[cur.i]
        m = _PICK.match(word)
        if m:
            index = int(m.group(1)) - 1
            picks[index] = 1 if m.group(2) in ("а", "a", "1") else 2
            nxt = index + 1
            cur.i += 1
            continue
        if word in ("а", "a", "б", "b", "1", "2"):
            picks[nxt] = 1 if word in ("а", "a", "1") else 2
            nxt += 1
            cur.i += 1
            continue
        ids, size = cur.card_here()
        if ids:
            picks[nxt] = ids[0]
            nxt += 1
            cur.i += size
            continue
        if word not in FILLERS:
            out.unknown_card = True
        cur.i += 1
    size = max(picks, default=-1) + 1
    out.args = {"picks": [picks.get(i) for i in range(size)]}
    return out


def read_deck(args: Mapping[str, Any], collection: Collection) -> Reading:
    """A mafia deck: card names, each optionally with a count («Удар x2», «Щит 2»)."""
    out = Reading()
    cur = _Cursor(args, collection)
    cards: list[str] = []
    while cur.i < len(cur.toks):
        word = cur.words[cur.i]
        ids, size = cur.card_here()
        if ids:
            cur.i += size
            times = 1
            if cur.i < len(cur.words):
                m = _COUNT.match(cur.words[cur.i])
                n = number(cur.words[cur.i])
                if m or (n is not None and n <= 9):
                    times = int(m.group(1)) if m else int(n or 1)
                    cur.i += 1
            cards.extend([ids[0]] * min(times, 20))
            continue
        if word not in FILLERS:
            out.unknown_card = True
        cur.i += 1
    out.args = {"cards": cards}
    return out


def read_ability(args: Mapping[str, Any], names: Mapping[str, str]) -> Reading:
    """`use_ability` fields: which ability (by id or name), its target, a message text."""
    out = Reading()
    toks = _toks(args)
    words = [t.word for t in toks]
    ability = None
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            key = " ".join(words[i : i + size])
            if key in names:
                ability = names[key]
                break
        if ability:
            break
    targets = [t.player for t in toks if t.player is not None and t.word not in names]
    out.args = {"ability": ability, "targets": targets[:1]}
    if "text" in args:
        out.args["text"] = args["text"]
    return out
