"""Reading the arguments of parsed orders: room numbers, doors, room names, maps."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.core.orders import Order
from rulesets.twelve_rooms.grammar import ROOM_WORDS
from rulesets.twelve_rooms.rooms import ROOM_TYPES, Door, door

_NUMBER = re.compile(r"^\d{1,3}$")
_DOOR = re.compile(r"^(\d{1,3})[-–—:/](\d{1,3})$")
_NOISE = frozenset({"комната", "комнату", "комнате", "комнаты", "room", "с", "со", "the", "в", "я"})


def words_of(order: Order) -> list[str]:
    return [str(x) for x in order.args.get("words", ())]


def room_number(order: Order) -> int | None:
    """`room: 7` (structured) or the first number among the words («Молчать: комната 7»)."""
    value = order.args.get("room")
    if value is not None:
        return _int(value)
    for word in words_of(order):
        if _NUMBER.match(word):
            return int(word)
    return None


def doors_of(order: Order) -> list[Door] | None:
    """`doors: [[6, 7], [12, 9]]` or the words «6-7 и 12-9»; None when unreadable."""
    value = order.args.get("doors")
    pairs: list[tuple[int, int]] = []
    if value is not None:
        if not isinstance(value, Sequence) or isinstance(value, str):
            return None
        for item in value:
            if not isinstance(item, Sequence) or isinstance(item, str) or len(item) != 2:
                return None
            a, b = _int(item[0]), _int(item[1])
            if a is None or b is None:
                return None
            pairs.append((a, b))
    else:
        numbers: list[int] = []
        for word in words_of(order):
            found = _DOOR.match(word)
            if found:
                pairs.append((int(found.group(1)), int(found.group(2))))
            elif _NUMBER.match(word):
                numbers.append(int(word))
        # «камеры 6 7 12 9»: numbers two by two.
        if not pairs and numbers and len(numbers) % 2 == 0:
            pairs = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
    return [(a, b) for a, b in pairs] if pairs else None


def normal_doors(pairs: list[tuple[int, int]]) -> list[Door]:
    return [door(a, b) for a, b in pairs]


def room_type_of(text: str) -> str | None:
    """A room type id from a room's name in any case form («Комнате с камерами»)."""
    if text in ROOM_TYPES:
        return text
    words = [w for w in text.casefold().replace("ё", "е").split() if w not in _NOISE]
    phrase = " ".join(words)
    for alias, kind in sorted(ROOM_WORDS.items(), key=lambda item: -len(item[0])):
        if " " in alias and alias in phrase:
            return kind
    for word in words:
        for alias, kind in ROOM_WORDS.items():
            if " " not in alias and word.startswith(alias):
                return kind
    return None


def guessed_type(order: Order) -> str | None:
    value = order.args.get("room_type")
    if value is not None:
        return room_type_of(str(value))
    return room_type_of(" ".join(words_of(order)))


def layout_of(order: Order, size: int) -> list[str] | None:
    """A submitted map: `layout: [...]` or «1 — Безопасная, 2 — Изолированная, …»."""
    value = order.args.get("layout")
    if value is not None:
        if not isinstance(value, Sequence) or isinstance(value, str):
            return None
        kinds = [room_type_of(str(v)) for v in value]
        return [k for k in kinds if k] if all(kinds) and len(kinds) == size else None
    numbered: dict[int, str] = {}
    plain: list[str] = []
    pending: int | None = None
    taken = False
    for word in words_of(order):
        if _NUMBER.match(word):
            pending, taken = int(word), False
            continue
        kind = room_type_of(word)
        if kind is None or taken:
            continue
        if pending is not None:
            # «6 — Комната с какавой и плюшками»: the first room word after a number names it.
            numbered[pending], taken = kind, True
        elif not plain or plain[-1] != kind:
            plain.append(kind)
    if numbered and not plain and sorted(numbered) == list(range(1, size + 1)):
        return [numbered[n] for n in range(1, size + 1)]
    if plain and not numbered and len(plain) == size:
        return plain
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _NUMBER.match(value.strip()):
        return int(value.strip())
    return None
