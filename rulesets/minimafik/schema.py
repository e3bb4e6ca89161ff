"""The collection schema: a loaded YAML/TOML document checked card by card, field by field.

Every error names the file (with the line of the card where the file is YAML), the card (or
visible role and ability) and the field, e.g. «cards.yaml:40: card 'ambush', field
dark.effects[0].n: expected a whole number ≥ 1, got 0». The schema is documented in
docs/rulesets/minimafik.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rulesets.minimafik.cards import (
    PRIMITIVES,
    SELF,
    SPECIAL_CARDS,
    TARGET,
    Ability,
    Card,
    Collection,
    Effect,
    Side,
    VisibleRole,
)
from rulesets.minimafik.roles import (
    ANY,
    COLOURS,
    DAY,
    NEUTRAL,
    NIGHT,
    TARGET_NONE,
    TARGET_OTHER,
    TARGET_RULES,
    TIMINGS,
)

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_CARD_FIELDS = {"id", "name", "aliases", "colour", "cost", "timing", "light", "dark", "text"}
_SIDE_FIELDS = {"target", "cost", "effects"}
_ROLE_FIELDS = {"name", "aliases", "abilities"}
_ABILITY_FIELDS = {"id", "name", "aliases", "timing", "uses", "cost", "target", "effects", "text"}
_ABILITY_TIMINGS = (NIGHT, DAY, ANY)


class CollectionError(ValueError):
    """A collection that cannot be used; the message names the file, the card and the field."""


class Checker:
    """Walks one document; `where` prefixes every error with the file, line and card."""

    def __init__(self, source: str, lines: Mapping[tuple[str, ...], int]) -> None:
        self.source = source
        self.lines = lines

    def fail(self, path: tuple[str, ...], what: str, message: str) -> CollectionError:
        line = None
        for n in range(len(path), 0, -1):
            line = self.lines.get(path[:n])
            if line is not None:
                break
        where = f"{self.source}:{line}" if line else self.source
        return CollectionError(f"{where}: {what}: {message}")

    def cards(self, raw: Any) -> dict[str, Card]:
        if not isinstance(raw, list) or not raw:
            raise self.fail(("cards",), "cards", "expected a non-empty list of cards")
        cards: dict[str, Card] = {}
        names: dict[str, str] = {}
        for index, item in enumerate(raw):
            card = self.card(item, index)
            if card.id in cards:
                raise self.fail(("cards", str(index)), f"card {card.id!r}", "the id is used twice")
            for name in (card.name, *card.aliases, card.id):
                key = name.casefold().replace("ё", "е")
                other = names.get(key)
                if other is not None and other != card.id:
                    raise self.fail(
                        ("cards", str(index)),
                        f"card {card.id!r}",
                        f"the name {name!r} is also card {other!r}'s",
                    )
                names[key] = card.id
            cards[card.id] = card
        for card in cards.values():
            for which in ("light", "dark"):
                for k, effect in enumerate(card.side(which).effects):
                    if effect.into is not None and effect.into not in cards | SPECIAL_CARDS:
                        raise self.fail(
                            ("cards", str(list(cards).index(card.id))),
                            f"card {card.id!r}, field {which}.effects[{k}].into",
                            f"no card with id {effect.into!r}",
                        )
        return cards

    def card(self, item: Any, index: int) -> Card:
        path = ("cards", str(index))
        label = f"card #{index + 1}"
        if not isinstance(item, dict):
            raise self.fail(path, label, "a card is a mapping with id, name, colour, light, dark")
        card_id = item.get("id")
        if isinstance(card_id, str):
            label = f"card {card_id!r}"

        def bad(field_name: str, message: str) -> CollectionError:
            return self.fail(path, f"{label}, field {field_name}", message)

        unknown = sorted(set(item) - _CARD_FIELDS)
        if unknown:
            raise bad(unknown[0], f"unknown field (known: {', '.join(sorted(_CARD_FIELDS))})")
        if not isinstance(card_id, str) or not _ID_RE.match(card_id):
            raise bad("id", f"expected a snake_case id, got {card_id!r}")
        if card_id in SPECIAL_CARDS:
            raise bad("id", f"{card_id!r} is reserved (Rot and Blank are built in)")
        name = _text(item.get("name"))
        if not name:
            raise bad("name", "expected the card's name (the text players write)")
        aliases = _aliases(item.get("aliases", []))
        if aliases is None:
            raise bad("aliases", "expected a list of names")
        colour = item.get("colour")
        if colour not in COLOURS:
            raise bad("colour", f"{colour!r} is not one of {', '.join(COLOURS)}")
        cost = _count(item.get("cost", 0), minimum=0)
        if cost is None:
            raise bad("cost", f"expected a whole number ≥ 0, got {item.get('cost')!r}")
        timing = item.get("timing", NIGHT)
        if timing not in TIMINGS:
            raise bad("timing", f"{timing!r} is not one of {', '.join(TIMINGS)}")
        text = item.get("text", "")
        if not isinstance(text, str):
            raise bad("text", "expected a string")
        sides = {}
        for which in ("light", "dark"):
            if which not in item:
                raise bad(which, "both sides (light and dark) are required")
            sides[which] = self.side(item[which], cost, which, bad)
            if timing == NIGHT and any(PRIMITIVES[e.do].day_only for e in sides[which].effects):
                raise bad(
                    which,
                    "extra_vote and vece_immunity act on the Вече: the card must be playable by day",
                )
        return Card(
            card_id, name, colour, cost, timing, sides["light"], sides["dark"], aliases, text
        )

    def side(self, raw: Any, cost: int, where: str, bad: Any) -> Side:
        if not isinstance(raw, dict):
            raise bad(where, "a side is a mapping with target and effects")
        unknown = sorted(set(raw) - _SIDE_FIELDS)
        if unknown:
            raise bad(
                f"{where}.{unknown[0]}", f"unknown field (known: {', '.join(sorted(_SIDE_FIELDS))})"
            )
        target = raw.get("target", TARGET_OTHER)
        if target not in TARGET_RULES:
            raise bad(f"{where}.target", f"{target!r} is not one of {', '.join(TARGET_RULES)}")
        side_cost = _count(raw.get("cost", cost), minimum=0)
        if side_cost is None:
            raise bad(f"{where}.cost", f"expected a whole number ≥ 0, got {raw.get('cost')!r}")
        effects = raw.get("effects")
        if not isinstance(effects, list) or not effects:
            raise bad(f"{where}.effects", "expected a non-empty list of effects")
        return Side(
            target,
            side_cost,
            tuple(
                self.effect(e, target, f"{where}.effects[{k}]", bad) for k, e in enumerate(effects)
            ),
        )

    def effect(self, raw: Any, target: str, where: str, bad: Any) -> Effect:
        if not isinstance(raw, dict) or "do" not in raw:
            raise bad(where, "an effect is a mapping {do: <primitive>, …}")
        do = raw["do"]
        primitive = PRIMITIVES.get(do) if isinstance(do, str) else None
        if primitive is None:
            raise bad(
                f"{where}.do", f"{do!r} is not an effect primitive (known: {', '.join(PRIMITIVES)})"
            )
        allowed = {"do", "to", *primitive.params}
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise bad(f"{where}.{unknown[0]}", f"{do} takes {', '.join(sorted(allowed))}")
        for param in primitive.required:
            if param not in raw:
                raise bad(f"{where}.{param}", f"{do} needs `{param}`")
        to = raw.get("to", SELF if target == TARGET_NONE else TARGET)
        if to not in (SELF, TARGET):
            raise bad(f"{where}.to", f"expected self or target, got {to!r}")
        if to == TARGET and target == TARGET_NONE:
            raise bad(f"{where}.to", "the side has no target (target: none): use to: self")
        n = 1
        if "n" in primitive.params:
            counted = _count(raw.get("n", 1), minimum=1)
            if counted is None:
                raise bad(f"{where}.n", f"expected a whole number ≥ 1, got {raw.get('n')!r}")
            n = counted
        into = raw.get("into")
        if "into" in primitive.params and (not isinstance(into, str) or not _ID_RE.match(into)):
            raise bad(f"{where}.into", f"expected a card id, got {into!r}")
        signed = raw.get("signed", False)
        if not isinstance(signed, bool):
            raise bad(f"{where}.signed", f"expected true or false, got {signed!r}")
        if to == SELF and do in ("look_at_hand", "reveal_colour", "reveal_card", "send_message"):
            raise bad(f"{where}.to", f"{do} reads or reaches another character: use to: target")
        return Effect(do, to, n, into if "into" in primitive.params else None, signed)

    def visible_roles(self, raw: Any, cards: Mapping[str, Card]) -> dict[str, VisibleRole]:
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            raise self.fail(
                ("visible_roles",), "visible_roles", "expected a mapping role id → role"
            )
        roles = {}
        for role_id, body in raw.items():
            path = ("visible_roles", str(role_id))
            label = f"visible role {role_id!r}"
            if not isinstance(role_id, str) or not _ID_RE.match(role_id):
                raise self.fail(path, label, "expected a snake_case id")
            if body is None:
                body = {}
            if not isinstance(body, dict):
                raise self.fail(path, label, "expected a mapping with name and abilities")
            unknown = sorted(set(body) - _ROLE_FIELDS)
            if unknown:
                raise self.fail(
                    path,
                    f"{label}, field {unknown[0]}",
                    "unknown field (known: abilities, aliases, name)",
                )
            name = _text(body.get("name")) or role_id
            aliases = _aliases(body.get("aliases", []))
            if aliases is None:
                raise self.fail(path, f"{label}, field aliases", "expected a list of names")
            abilities_raw = body.get("abilities") or []
            if not isinstance(abilities_raw, list):
                raise self.fail(path, f"{label}, field abilities", "expected a list of abilities")
            abilities = tuple(self.ability(a, k, path, label) for k, a in enumerate(abilities_raw))
            ids = [a.id for a in abilities]
            if len(set(ids)) != len(ids):
                raise self.fail(path, f"{label}, field abilities", "an ability id is used twice")
            roles[role_id] = VisibleRole(role_id, name, abilities, aliases)
        return roles

    def ability(self, raw: Any, index: int, path: tuple[str, ...], role: str) -> Ability:
        label = f"{role}, ability #{index + 1}"
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            label = f"{role}, ability {raw['id']!r}"

        def bad(field_name: str, message: str) -> CollectionError:
            return self.fail(path, f"{label}, field {field_name}", message)

        if not isinstance(raw, dict):
            raise self.fail(path, label, "an ability is a mapping with id, name, effects")
        unknown = sorted(set(raw) - _ABILITY_FIELDS)
        if unknown:
            raise bad(unknown[0], f"unknown field (known: {', '.join(sorted(_ABILITY_FIELDS))})")
        ability_id = raw.get("id")
        if not isinstance(ability_id, str) or not _ID_RE.match(ability_id):
            raise bad("id", f"expected a snake_case id, got {ability_id!r}")
        name = _text(raw.get("name")) or ability_id
        aliases = _aliases(raw.get("aliases", []))
        if aliases is None:
            raise bad("aliases", "expected a list of names")
        timing = raw.get("timing", NIGHT)
        if timing not in _ABILITY_TIMINGS:
            raise bad("timing", f"{timing!r} is not one of {', '.join(_ABILITY_TIMINGS)}")
        uses = raw.get("uses", {"per_phase": 1})
        per_game = per_phase = None
        if (
            not isinstance(uses, dict)
            or len(uses) != 1
            or not set(uses) <= {"per_game", "per_phase"}
        ):
            raise bad("uses", "expected {per_game: N} or {per_phase: N}")
        count = _count(next(iter(uses.values())), minimum=1)
        if count is None:
            raise bad("uses", "expected a whole number ≥ 1 of uses")
        if "per_phase" in uses and count != 1:
            raise bad("uses", "an ability is used at most once a phase: per_phase is 1")
        if "per_game" in uses:
            per_game = count
        else:
            per_phase = count
        cost = _count(raw.get("cost", 0), minimum=0)
        if cost is None:
            raise bad("cost", f"expected a whole number ≥ 0, got {raw.get('cost')!r}")
        side = self.side(
            {"target": raw.get("target", TARGET_NONE), "effects": raw.get("effects")},
            cost,
            "effects",
            bad,
        )
        if timing == NIGHT and any(PRIMITIVES[e.do].day_only for e in side.effects):
            raise bad(
                "timing", "extra_vote and vece_immunity act on the Вече: use timing day or any"
            )
        return Ability(
            ability_id,
            name,
            timing,
            cost,
            Side(side.target, cost, side.effects),
            per_game,
            per_phase,
            aliases,
            str(raw.get("text", "")),
        )


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _aliases(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        return None
    return tuple(v.strip() for v in value)


def _count(value: Any, *, minimum: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        return None
    return value


def parse_collection(
    doc: Any, source: str = "<collection>", lines: Mapping[tuple[str, ...], int] | None = None
) -> Collection:
    """Check a loaded document and build the collection; raises CollectionError."""
    checker = Checker(source, lines or {})
    if not isinstance(doc, dict):
        raise checker.fail(
            (), "collection", "expected a mapping with `cards:` (and `visible_roles:`)"
        )
    unknown = sorted(set(doc) - {"cards", "visible_roles", "source"})
    if unknown:
        raise checker.fail(
            (unknown[0],), unknown[0], "unknown section (known: cards, visible_roles)"
        )
    cards = checker.cards(doc.get("cards"))
    if len([c for c in cards.values() if c.colour != NEUTRAL]) < 2:
        raise checker.fail(("cards",), "cards", "the Law draft needs at least 2 non-neutral cards")
    roles = checker.visible_roles(doc.get("visible_roles"), cards)
    return Collection(cards, roles, str(doc.get("source") or source))
